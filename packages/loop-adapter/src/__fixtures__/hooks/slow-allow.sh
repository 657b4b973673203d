#!/bin/sh
# usage: slow-allow.sh SECONDS: reads its input, waits, then allows
cat >/dev/null
sleep "$1"
echo '{"decision":"allow"}'
