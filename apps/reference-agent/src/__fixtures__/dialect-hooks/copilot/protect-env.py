#!/usr/bin/env python3
# Copilot CLI preToolUse on create|edit: deny a .env file.
import json, os, sys
data = json.load(sys.stdin)
args = data.get("toolArgs") or {}  # a JSON object (Copilot CLI 1.0.102)
path = args.get("path", "")
if path.endswith(".env"):
    print(json.dumps({"permissionDecision": "deny", "permissionDecisionReason": f"{os.path.basename(path)} is a protected file"}))
