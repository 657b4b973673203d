#!/usr/bin/env bash
# A Claude Code PreToolUse guard in the common public style: bash + jq, exit 2 blocks and stderr
# is the reason Claude sees. Written from the public hooks reference; it knows nothing of soong-agent.
set -euo pipefail
input=$(cat)
tool_name=$(echo "$input" | jq -r '.tool_name')
command=$(echo "$input" | jq -r '.tool_input.command // empty')
if [[ "$tool_name" != "Bash" ]]; then
  exit 0
fi
if echo "$command" | grep -Eq 'rm[[:space:]]+-[a-zA-Z]*r[a-zA-Z]*f|rm[[:space:]]+-[a-zA-Z]*f[a-zA-Z]*r'; then
  echo "Blocked: recursive force delete ($command) is not allowed" >&2
  exit 2
fi
exit 0
