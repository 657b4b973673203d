#!/bin/sh
# the Claude Code habit: reason on stderr, exit 2 (here: a failure); optional JSON deny on stdout
cat >/dev/null
echo "blocked the Claude way" >&2
[ "$1" = "--json" ] && echo "{\"decision\":\"deny\",\"reason\":\"json deny\"}"
exit 2
