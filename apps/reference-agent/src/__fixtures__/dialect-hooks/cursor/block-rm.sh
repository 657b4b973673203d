#!/usr/bin/env bash
# Cursor beforeShellExecution: permission deny for rm -rf.
cmd=$(jq -r '.command // ""')
if printf '%s' "$cmd" | grep -q 'rm -rf'; then
  jq -n --arg cmd "$cmd" '{permission: "deny", user_message: "blocked", agent_message: ("Blocked: rm -rf is not allowed (" + $cmd + ")")}'
else
  echo '{"permission": "allow"}'
fi
