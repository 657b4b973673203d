#!/bin/sh
# usage: print-exit.sh TEXT CODE: prints TEXT on stdout after reading stdin, then exits CODE
cat >/dev/null
printf "%s\n" "$1"
exit "$2"
