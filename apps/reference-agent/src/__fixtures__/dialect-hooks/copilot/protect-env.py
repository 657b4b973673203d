#!/usr/bin/env python3
# Copilot CLI preToolUse on create|edit: deny a .env file.
import json, os, sys
data = json.load(sys.stdin)
args = json.loads(data.get("toolArgs") or "{}")
path = args.get("path", "")
if path.endswith(".env"):
    print(json.dumps({"permissionDecision": "deny", "permissionDecisionReason": f"{os.path.basename(path)} is a protected file"}))
