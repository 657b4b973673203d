# Sourced (`PROBE=<label>; . probe.sh`) so that $$ is the very process the runner spawned.
# Writes what that process can see into $SOONG_AGENT_PROJECT_DIR/probe-<label>/.
dir="$SOONG_AGENT_PROJECT_DIR/probe-$PROBE"
mkdir -p "$dir"
cat > "$dir/stdin"
env > "$dir/env"
tr '\000' '\n' < "/proc/$$/environ" > "$dir/environ"
tr '\000' '\n' < "/proc/$$/cmdline" > "$dir/cmdline"
# The agent's own environment block, which the allowlist does not govern.
tr '\000' '\n' < "/proc/$PPID/environ" > "$dir/parent-environ"
set > "$dir/set"
# A bash child imports exported functions (BASH_FUNC_x%%) and sources BASH_ENV; a node child
# honours NODE_OPTIONS. Each leak would leave a marker file (see leak-marker.*).
bash -c 'x' > "$dir/bash" 2>&1
node -e 0 > "$dir/node" 2>&1
true
