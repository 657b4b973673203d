#!/usr/bin/env python3
# A worker hook in Python for the engine tests (spec §8): denies a tool input with act "deny",
# allows the rest, and names its pid in the reason.
import json
import os
import sys

for line in sys.stdin:
    request = json.loads(line)
    act = request["input"].get("tool", {}).get("input", {}).get("act", "allow")
    decision = "deny" if act == "deny" else "allow"
    print(f"python saw {request['input']['event']}", file=sys.stderr, flush=True)
    output = {"decision": decision, "reason": f"{act} from {os.getpid()}"}
    print(json.dumps({"id": request["id"], "output": output}), flush=True)
