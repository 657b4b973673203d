"""soong_hook.py: one handler for both ways soong-agent runs a hook. Python 3, standard library only.

Copy it next to your hook and use it:

    import sys
    sys.dont_write_bytecode = True  # no __pycache__ next to your hooks
    from soong_hook import run_hook

    def handler(hook_input):
        if hook_input["event"] == "PreToolUse" and hook_input["tool"]["name"] == "bash":
            return {"decision": "deny", "reason": "no shell here"}
        return None  # no decision

    run_hook(handler)

`run_hook` reads SOONG_AGENT_HOOK_MODE and behaves as `defineHook` of `@soong-agent/protocol/hook`
and `soong-hook.mjs` do:

  spawn (unset or "spawn")   reads stdin to its end, calls the handler once, prints its output as
                             one JSON line (nothing for None), exits 0
  worker ("worker")          reads one request per line, {"id":N,"input":{...}}, calls the handler
                             for each, one at a time, answers {"id":N,"output":...} (null for no
                             decision), exits 0 at the end of stdin; module state lives on
  invalid input, a handler   a line on stderr (the traceback) and exit 1, in both modes: the call
  that raises, an output     fails (spawn: exit_code; worker: worker_exited, and the agent starts a
  JSON cannot hold           fresh worker for the next call), so "on_failure": "deny" fails closed

The input check is light (a JSON object with `protocol_version` 1 and a known `event`); the output
is not checked here: the agent applies its usual rules to it, identically in both modes.
"""

import json
import os
import sys
import traceback

HOOK_EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")
# "worker" when the agent runs this hook once per session, else "spawn" (also when run by hand).
HOOK_MODE = "worker" if os.environ.get("SOONG_AGENT_HOOK_MODE") == "worker" else "spawn"


def run_hook(handler, name=None):
    """Runs handler(hook_input) -> dict | None as a soong-agent hook; never returns (exits)."""
    if not callable(handler):
        raise TypeError(f"run_hook(handler): handler must be callable, got {type(handler).__name__}")
    name = name or os.path.basename(sys.argv[0]) or "hook"

    def fail(what, with_traceback=False):
        detail = ":\n" + traceback.format_exc().rstrip() if with_traceback else ""
        sys.stderr.write(f"{name}: {what}{detail}\n")
        sys.stderr.flush()
        sys.exit(1)

    def decide(hook_input, where):
        problem = _check_input(hook_input)
        if problem is not None:
            fail(f"{where} is not a hook input (spec §2.1): {problem}")
        try:
            output = handler(hook_input)
        except Exception:  # noqa: BLE001 - any error of the handler fails the call
            fail(f"the handler raised on {hook_input['event']}", with_traceback=True)
        try:
            return json.dumps(output, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError):
            fail(f"the handler's output for {hook_input['event']} is not JSON", with_traceback=True)

    if HOOK_MODE == "worker":
        _serve_worker(decide, fail)
    else:
        _serve_spawn(decide, fail)
    sys.exit(0)


def _check_input(hook_input):
    if not isinstance(hook_input, dict):
        return "a JSON object was expected"
    if hook_input.get("protocol_version") != 1:
        return f"protocol_version is {json.dumps(hook_input.get('protocol_version'))}, expected 1"
    if hook_input.get("event") not in HOOK_EVENTS:
        return f"event is {json.dumps(hook_input.get('event'))}, not a hook event"
    return None


def _serve_spawn(decide, fail):
    text = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    try:
        hook_input = json.loads(text.lstrip("\ufeff"))
    except ValueError:
        fail("stdin is not JSON", with_traceback=True)
    output = decide(hook_input, "stdin")
    if output != "null":
        sys.stdout.write(output + "\n")
        sys.stdout.flush()


def _serve_worker(decide, fail):
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline()
        if not raw:
            return
        line = raw.decode("utf-8", errors="replace")
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            fail("a request line is not JSON", with_traceback=True)
        request_id = request.get("id") if isinstance(request, dict) else None
        if not isinstance(request_id, int) or isinstance(request_id, bool):
            fail('a request line is not {"id":N,"input":{...}} (spec §8)')
        output = decide(request.get("input"), f"the input of request {request_id}")
        sys.stdout.write(f'{{"id":{request_id},"output":{output}}}\n')
        sys.stdout.flush()
