#!/usr/bin/env python3
# Gemini CLI BeforeTool on write_file|replace: decision deny for a .env file.
import json, os, sys
data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
if path.endswith(".env"):
    print(json.dumps({"decision": "deny", "reason": f"{os.path.basename(path)} is a protected file"}))
else:
    print(json.dumps({"decision": "allow"}))
