#!/usr/bin/env python3
# Codex PreToolUse on apply_patch: deny a patch that adds or updates a .env file.
import json, re, sys
data = json.load(sys.stdin)
patch = data.get("tool_input", {}).get("command", "")
for path in re.findall(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", patch, re.M):
    if path.endswith(".env"):
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                                 "permissionDecisionReason": f"{path} is a protected file"}}))
        break
