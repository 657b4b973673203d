#!/bin/sh
# usage: record-dialect.sh FILE: saves stdin to FILE and the CLAUDE_* / GEMINI_* env to FILE.env; answers nothing
cat > "$1"
env | grep -E "^(CLAUDE|GEMINI)_" | sort > "$1.env"
