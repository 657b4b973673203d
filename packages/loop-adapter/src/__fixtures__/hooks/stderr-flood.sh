#!/bin/sh
# 3 MB of stderr (past the 1 MiB kept per stream), then a distinctive last line.
cat >/dev/null
head -c 3000000 /dev/zero | tr "\0" e >&2
echo "the real last line of stderr" >&2
echo "{\"decision\":\"allow\"}"
