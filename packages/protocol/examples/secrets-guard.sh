#!/bin/sh
# secrets-guard: deny write_file / edit_file calls whose path is under a secrets/ directory,
# allow everything else. Needs jq. Logs one line to stderr (it goes to the event log only).
input=$(cat)
event=$(printf '%s' "$input" | jq -r '.event')
tool=$(printf '%s' "$input" | jq -r '.tool.name // ""')
echo "secrets-guard: $event $tool" >&2

if [ "$event" = PreToolUse ] && { [ "$tool" = write_file ] || [ "$tool" = edit_file ]; }; then
  hit=$(printf '%s' "$input" | jq -r '
    [.tool.paths[], .tool.input.path]
    | map(select(type == "string" and (("/" + .) | contains("/secrets/"))))
    | first // ""')
  if [ -n "$hit" ]; then
    jq -cn --arg path "$hit" '{
      decision: "deny",
      reason: "\($path) is under a secrets/ directory; do not write there",
      metadata: { rule: "secrets" }
    }'
    exit 0
  fi
fi
echo '{"decision":"allow"}'
