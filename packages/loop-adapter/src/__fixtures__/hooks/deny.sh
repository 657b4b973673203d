#!/bin/sh
# usage: deny.sh [reason]; without a reason the deny has none
cat >/dev/null
if [ -n "$1" ]; then printf "{\"decision\":\"deny\",\"reason\":\"%s\"}\n" "$1"; else echo "{\"decision\":\"deny\"}"; fi
