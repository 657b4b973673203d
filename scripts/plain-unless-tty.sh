# Sourced by the root `npm test` and by each package's `npm test`: colour only on a terminal. vitest
# colours into a pipe whenever TERM is set (and reads FORCE_COLOR=0 as "force"), so a log file would
# fill with escape codes; NO_COLOR turns every tool off, and turbo passes it to the tasks.
# FORCE_COLOR=1 still forces colour. Inside a turbo task (TURBO_HASH is set) stdout is turbo's pipe
# even on a terminal: the decision is left to whoever started turbo (the root `npm test` made it
# before starting turbo; NO_COLOR and FORCE_COLOR reach the task).
if [ -n "${TURBO_HASH:-}" ]; then
  :
elif [ "${FORCE_COLOR:-}" = 0 ] || [ "${FORCE_COLOR:-}" = false ]; then
  unset FORCE_COLOR
  export NO_COLOR=1
elif [ -z "${FORCE_COLOR:-}" ] && [ ! -t 1 ]; then
  export NO_COLOR=1
fi
