#!/usr/bin/env python3
"""secrets-guard: deny write_file / edit_file calls whose path is under a secrets/ directory,
allow everything else. Standard library only. Logs one line to stderr (event log only)."""
import json
import sys

hook_input = json.load(sys.stdin)
event = hook_input["event"]
tool = hook_input.get("tool", {})
print(f"secrets-guard: {event} {tool.get('name', '')}", file=sys.stderr)

output = {"decision": "allow"}
if event == "PreToolUse" and tool["name"] in ("write_file", "edit_file"):
    for path in tool["paths"] + [tool["input"].get("path")]:
        if isinstance(path, str) and "/secrets/" in "/" + path:
            output = {
                "decision": "deny",
                "reason": f"{path} is under a secrets/ directory; do not write there",
                "metadata": {"rule": "secrets"},
            }
            break
print(json.dumps(output))
