#!/usr/bin/env python3
# Cursor preToolUse on Write: permission deny for a .env file.
import json, os, sys
data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
if path.endswith(".env"):
    print(json.dumps({"permission": "deny", "agent_message": f"{os.path.basename(path)} is a protected file"}))
else:
    print(json.dumps({"permission": "allow"}))
