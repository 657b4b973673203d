#!/usr/bin/env python3
"""A Claude Code PreToolUse hook in the current JSON style: it prints
hookSpecificOutput.permissionDecision. Written from the public hooks reference."""
import json
import os
import sys

data = json.load(sys.stdin)
tool_input = data.get("tool_input", {})
file_path = tool_input.get("file_path", "")
protected = [".env", ".git/", "secrets"]

if data.get("tool_name") in ("Write", "Edit", "MultiEdit") and any(p in file_path for p in protected):
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": f"{os.path.basename(file_path)} is a protected file",
        }
    }))
    sys.exit(0)

if file_path and not os.path.isabs(file_path):
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "expected an absolute file_path",
        }
    }))
    sys.exit(0)

sys.exit(0)
