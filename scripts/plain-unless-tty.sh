# Sourced by the root `npm test`: colour only on a terminal. vitest colours into a pipe whenever TERM
# is set (and reads FORCE_COLOR=0 as "force"), so a log file would fill with escape codes; NO_COLOR
# turns every tool off, and turbo passes it to the tasks. FORCE_COLOR=1 still forces colour.
if [ "${FORCE_COLOR:-}" = 0 ] || [ "${FORCE_COLOR:-}" = false ]; then
  unset FORCE_COLOR
  export NO_COLOR=1
elif [ -z "${FORCE_COLOR:-}" ] && [ ! -t 1 ]; then
  export NO_COLOR=1
fi
