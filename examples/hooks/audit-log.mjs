#!/usr/bin/env node
// audit-log.mjs: a soong-agent observe-only hook that appends one JSON line per event to an audit log.
//
// What it does
//   Appends to `$SOONG_AGENT_HOME/audit.jsonl` (created with mode 0600; a file found with another
//   mode is set back to 0600) one line per hook event:
//     { "ts", "event", "session_id", "hook_id", "project_dir", "event_timestamp", ... }
//   plus what matters for that event, every string cut at 500 characters and every list at 20 items:
//     SessionStart       source
//     UserPromptSubmit   prompt
//     PreToolUse         tool: { name, call_id, risk, tags, paths, input, input_truncated }
//     PostToolUse        tool (as above), result: { is_error, bytes, artifact_ref }, duration_ms
//     Stop               stop_hook_active, prevented_count, previous_reasons, last_assistant_message
//   Each line is written with one write() on a file opened with O_APPEND (and O_NOFOLLOW), so
//   concurrent sessions append whole lines without a lock.
//   It never fails the hook on its own errors: it writes a note to stderr (recorded as hook_log)
//   and answers no decision. It never takes a decision. (Input that is not a hook input, which
//   the agent never sends, fails the hook: exit 1, recorded, ignored.)
//
// Usage
//   audit-log.mjs [FILE]     FILE: another log file (default: $SOONG_AGENT_HOME/audit.jsonl,
//                            or the input's agent_home when the variable is missing)
//
// Events
//   All five: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop.
//
// Configure (hooks.json in the agent home; needs node >= 18 on PATH and soong-hook.mjs next to it)
//   Put it first in each event's list: hooks of a blocking event run in order and stop at the first
//   deny, so a hook placed after a guard would not see the calls the guard denied.
//     "PreToolUse": [ { "hooks": [ { "type": "command", "name": "audit-log",
//                                    "command": "~/.soong-agent/hooks/audit-log.mjs", "timeout": 5 } ] },
//                     ... your guards ... ]
//   and the same rule (without a matcher) under SessionStart, UserPromptSubmit, PostToolUse, Stop.
//
// Limits
//   - It records what the hook input carries, not the final outcome of a call: the decision of
//     later hooks and the permission check are in the session's own event log
//     (`soong-agent events`).
//   - Prompts and tool inputs may contain secrets; the file is 0600, but it is plain text.
//   - It never rotates the file. Lines up to a few KiB append atomically on local file systems;
//     network file systems (NFS) may interleave concurrent appends.
//   - One node start per event (about 40 ms), unless it runs as a worker (below).
//
// Worker mode
//   Add "mode": "worker" to each of its hooks.json entries: one node process per entry then serves
//   the whole session (one JSON line per event, well under a millisecond) instead of one start per
//   event. Each entry (audit-session-start, audit-pre-tool-use, ...) is its own hook id, so its
//   own worker. The lines it writes are the same.

import fs from 'node:fs';
import path from 'node:path';
import { defineHook } from './soong-hook.mjs';

const HOOK_NAME = 'audit-log';
const LOG_FILE = 'audit.jsonl';
const MAX_STRING_CHARS = 500;
const MAX_ITEMS = 20;
const MAX_DEPTH = 3;
const MAX_LINE_BYTES = 16 * 1024;

function clip(text) {
  return text.length <= MAX_STRING_CHARS
    ? text
    : `${text.slice(0, MAX_STRING_CHARS)}...[${text.length - MAX_STRING_CHARS} more chars]`;
}

/** A copy of `value` with strings, lists and nesting bounded. */
function bound(value, depth = 0) {
  if (typeof value === 'string') return clip(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return clip(JSON.stringify(value));
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => bound(item, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`...[${value.length - MAX_ITEMS} more items]`);
    return items;
  }
  const entries = Object.entries(value);
  const copy = Object.fromEntries(
    entries.slice(0, MAX_ITEMS).map(([key, item]) => [key, bound(item, depth + 1)]),
  );
  if (entries.length > MAX_ITEMS) copy['...'] = `${entries.length - MAX_ITEMS} more keys`;
  return copy;
}

function pick(source, keys) {
  const picked = {};
  for (const key of keys) {
    if (source !== null && typeof source === 'object' && source[key] !== undefined) {
      picked[key] = source[key];
    }
  }
  return picked;
}

const EVENT_FIELDS = {
  SessionStart: ['source'],
  UserPromptSubmit: ['prompt'],
  PreToolUse: [],
  PostToolUse: ['duration_ms'],
  Stop: ['stop_hook_active', 'prevented_count', 'previous_reasons', 'last_assistant_message'],
};

function recordFor(input, ts) {
  const record = {
    ts,
    event: input.event,
    session_id: input.session_id,
    hook_id: input.hook_id,
    project_dir: input.project_dir,
    event_timestamp: input.timestamp,
    ...pick(input, EVENT_FIELDS[input.event] ?? []),
  };
  if (input.tool !== undefined) {
    record.tool = pick(input.tool, [
      'name',
      'call_id',
      'risk',
      'tags',
      'paths',
      'input',
      'input_truncated',
    ]);
  }
  if (input.result !== undefined) {
    record.result = pick(input.result, ['is_error', 'bytes', 'artifact_ref']);
  }
  return bound(record);
}

function serialise(record) {
  let line = JSON.stringify(record);
  if (Buffer.byteLength(line) > MAX_LINE_BYTES && record.tool?.input !== undefined) {
    record.tool.input = clip(JSON.stringify(record.tool.input));
    line = JSON.stringify(record);
  }
  return `${line}\n`;
}

function appendLine(file, line) {
  const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0o600);
  try {
    if ((fs.fstatSync(fd).mode & 0o777) !== 0o600) fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, Buffer.from(line, 'utf8')); // one write(2): whole lines, no lock needed
  } finally {
    fs.closeSync(fd);
  }
}

function audit(input) {
  const record = recordFor(input, new Date().toISOString());
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by the agent for the hook, not a build input
  const home = process.env.SOONG_AGENT_HOME || input.agent_home;
  const file =
    process.argv[2] ??
    (typeof home === 'string' && home !== '' ? path.join(home, LOG_FILE) : undefined);
  if (file === undefined)
    throw new Error('SOONG_AGENT_HOME is not set and the input has no agent_home');
  appendLine(file, serialise(record));
}

await defineHook((input) => {
  try {
    audit(input);
  } catch (error) {
    // Observe-only: a broken audit log must never turn into a failed hook.
    process.stderr.write(`${HOOK_NAME}: not logged: ${error?.message ?? String(error)}\n`);
  }
  return undefined;
});
