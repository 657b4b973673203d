#!/usr/bin/env bash
# Copilot CLI preToolUse on bash: toolArgs is a JSON object (measured against Copilot CLI 1.0.102).
cmd=$(jq -r '.toolArgs.command // ""')
if printf '%s' "$cmd" | grep -q 'rm -rf'; then
  jq -n --arg cmd "$cmd" '{permissionDecision: "deny", permissionDecisionReason: ("Blocked: rm -rf is not allowed (" + $cmd + ")")}'
fi
