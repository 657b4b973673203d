#!/usr/bin/env bash
# Codex PreToolUse on Bash: exit 2 with the reason on stderr blocks.
cmd=$(jq -r '.tool_input.command // ""')
if printf '%s' "$cmd" | grep -q 'rm -rf'; then
  echo "Blocked: rm -rf is not allowed ($cmd)" >&2
  exit 2
fi
exit 0
