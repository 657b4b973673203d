#!/bin/sh
# usage: record.sh FILE: saves stdin to FILE and the SOONG_AGENT_* env and argv to FILE.env, then allows
cat > "$1"
{ env | grep "^SOONG_AGENT_" | sort; echo "ARGC=$#"; echo "PWD=$(pwd -P)"; } > "$1.env"
echo "{\"decision\":\"allow\"}"
