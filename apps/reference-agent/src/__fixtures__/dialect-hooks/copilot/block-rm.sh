#!/usr/bin/env bash
# Copilot CLI preToolUse on bash: toolArgs is a JSON string.
cmd=$(jq -r '.toolArgs' | jq -r '.command // ""')
if printf '%s' "$cmd" | grep -q 'rm -rf'; then
  jq -n --arg cmd "$cmd" '{permissionDecision: "deny", permissionDecisionReason: ("Blocked: rm -rf is not allowed (" + $cmd + ")")}'
fi
