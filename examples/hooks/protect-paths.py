#!/usr/bin/env python3
"""protect-paths.py: a soong-agent PreToolUse hook that keeps write tools away from protected paths.

What it does
  Denies a tool call when one of its paths (`tool.paths`, absolute) is a protected path or lies
  under one, and allows it otherwise. The reason names the path and the rule; `metadata` carries
  both ({"path", "rule"}).

  Rules, one per line, come from `protect-paths.txt` next to this script (`#` starts a comment);
  without that file the defaults below apply (the file replaces them, it does not add to them):
    .env  .git/  secrets/  ~/.ssh/  package-lock.json  npm-shrinkwrap.json  pnpm-lock.yaml  yarn.lock
    bun.lockb  bun.lock  Cargo.lock  Gemfile.lock  poetry.lock  uv.lock  composer.lock  go.sum

  A rule is one of:
    NAME        one path segment (a trailing `/` is allowed): protects every file or directory with
                that name inside the project, at any depth (`.env` protects `.env` and
                `apps/web/.env`; `.git/` protects everything in any `.git` directory)
    a/b, ./a    a path relative to the project dir: protects it and everything under it
    /abs, ~/x   an absolute path (or one under your OS home): protects it and everything under it
  Comparison is by whole path segments and case-sensitive: `secrets/` protects `secrets/key.pem`,
  never `secrets2/key.pem` or `my.secrets/x`; `.env` does not protect `.env.example`. Every path and
  every rule is compared in two forms, as written (made absolute, `.` and `..` removed) and with
  symlinks resolved (`os.path.realpath`), and any form under any form counts, so neither a symlink
  nor a `..` can dodge a rule.

Events
  PreToolUse, for the write tools: `"matcher": { "tag": "write" }` (every tool's tags include its
  risk class), or `{ "tool": ["write_file", "edit_file"] }`. On other events, or a call without
  paths, it allows (only PreToolUse can block).

Configure (hooks.json in the agent home; needs python3 on PATH)
  "PreToolUse": [
    { "matcher": { "tag": "write" },
      "hooks": [ { "type": "command", "name": "protect-paths",
                   "command": "~/.soong-agent/hooks/protect-paths.py",
                   "timeout": 10, "on_failure": "deny" } ] }
  ]
  No environment variable is read: the rules live in a file next to the script, in the agent home,
  where the agent's own write tools cannot change them.

Limits
  - It sees the paths the agent declares for a tool call. A `bash` command that writes a file has
    no paths (`echo x > .env`): pair it with a bash guard, or deny `bash` where that matters.
  - NAME rules apply inside the project dir only; protect paths outside it with absolute rules.
  - A protect-paths.txt that cannot be read denies every call that has paths (fail closed), with
    the reason saying why. Input that is not a hook input exits 1 (the hook failed; with
    `on_failure: "deny"` the call is denied).
  - Needs soong_hook.py next to it (the helper that speaks both modes).

Worker mode
  Add `"mode": "worker"` to its hooks.json entry and one python3 process serves the whole session
  (one JSON line per call) instead of one start per call; decisions are the same. The rules file is
  still read on every call, so an edit to protect-paths.txt applies to the next call.
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the agent home
from soong_hook import run_hook  # noqa: E402 - next to this script

HOOK_NAME = "protect-paths"
RULES_FILE = "protect-paths.txt"
DEFAULT_RULES = [
    ".env",
    ".git/",
    "secrets/",
    "~/.ssh/",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "pnpm-lock.yaml",
    "yarn.lock",
    "bun.lockb",
    "bun.lock",
    "Cargo.lock",
    "Gemfile.lock",
    "poetry.lock",
    "uv.lock",
    "composer.lock",
    "go.sum",
]


def answer(decision, reason=None, metadata=None):
    output = {"decision": decision}
    if reason is not None:
        output["reason"] = reason
    if metadata is not None:
        output["metadata"] = metadata
    return output


def load_rules():
    """The rules and where they came from; raises OSError/UnicodeError when the file is unreadable."""
    rules_path = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), RULES_FILE)
    if not os.path.lexists(rules_path):
        return DEFAULT_RULES, "the default rules"
    with open(rules_path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    rules = []
    for line in lines:
        rule = line.split("#", 1)[0].strip()
        if rule:
            rules.append(rule)
    return rules, rules_path


def forms(path):
    """The path as written (absolute, normalised) and with symlinks resolved."""
    written = os.path.normpath(path)
    return {written, os.path.realpath(written)}


def segments_under(path, root):
    """The segments of `path` below `root`, or None when `path` is not at or under `root`."""
    if path == root:
        return []
    prefix = root if root.endswith(os.sep) else root + os.sep
    if not path.startswith(prefix):
        return None
    return path[len(prefix):].split(os.sep)


def compile_rule(rule, project_dir):
    """(kind, value): ("name", "segment") or ("prefix", set of absolute forms)."""
    stripped = rule.rstrip("/") or "/"
    if stripped.startswith("~"):
        return "prefix", forms(os.path.expanduser(stripped))
    if os.path.isabs(stripped):
        return "prefix", forms(stripped)
    if "/" not in stripped and stripped not in (".", ".."):
        return "name", stripped
    return "prefix", forms(os.path.join(project_dir, stripped))


def rule_matches(compiled, path_forms, project_forms):
    kind, value = compiled
    if kind == "prefix":
        return any(segments_under(path, prefix) is not None for path in path_forms for prefix in value)
    for path in path_forms:
        for project in project_forms:
            below = segments_under(path, project)
            if below is not None and value in below:
                return True
    return False


def decide(payload):
    """The decision on one hook input (a dict, checked by run_hook)."""
    tool = payload.get("tool")
    paths = tool.get("paths") if isinstance(tool, dict) else None
    if payload.get("event") != "PreToolUse" or not isinstance(paths, list) or not paths:
        return answer("allow")

    project_dir = payload.get("project_dir")
    if not isinstance(project_dir, str) or not os.path.isabs(project_dir):
        project_dir = os.getcwd()
    try:
        rules, source = load_rules()
    except (OSError, UnicodeError) as error:
        return answer(
            "deny",
            f"{HOOK_NAME}: cannot read the rules file, so every write is denied: {error}",
            {"rule": None, "path": None},
        )
    compiled = [(rule, compile_rule(rule, project_dir)) for rule in rules]
    project_forms = forms(project_dir)

    for path in paths:
        if not isinstance(path, str) or not path:
            continue
        path_forms = forms(os.path.join(project_dir, path))
        for rule, rule_compiled in compiled:
            if rule_matches(rule_compiled, path_forms, project_forms):
                return answer(
                    "deny",
                    f"{HOOK_NAME}: {path} is protected by the rule '{rule}' ({source})",
                    {"path": path, "rule": rule},
                )
    return answer("allow")


if __name__ == "__main__":
    run_hook(decide, HOOK_NAME)
