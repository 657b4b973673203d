#!/bin/sh
# exits 1 with a line on stderr
cat >/dev/null
echo "hook broke" >&2
exit 1
