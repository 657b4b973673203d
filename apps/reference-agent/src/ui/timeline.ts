import path from 'node:path';
import { findGitRoot, gitRootHint } from '@soong-agent/paths';
import type { EventRecord, EventRecordOf } from '@soong-agent/protocol';
import picocolors from 'picocolors';
import { createCoalescedWriter } from './coalesced-writer.js';
import { formatDuration, formatSeconds } from './format-duration.js';

type Colors = ReturnType<typeof picocolors.createColors>;

/** Delay before the live indicator appears for a hook or tool still running. */
export const LIVE_INDICATOR_DELAY_MS = 300;
const LIVE_REDRAW_MS = 100;

/**
 * Whether to colour output on `stream`: `FORCE_COLOR` (other than `0`) forces colour, a non-empty
 * `NO_COLOR` turns it off, otherwise colour when the stream is a TTY.
 */
export function colorEnabled(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  // FORCE_COLOR=0 (or false) means "no colour", as in chalk and Node's own util.inspect.
  if (force === '0' || force === 'false') return false;
  if (force !== undefined && force !== '') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true;
}

/** `1.2 KB`-style byte count. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

// The end of `text` on one line: what a hook's stderr says last is what matters (a Python
// traceback ends with its error line, a test run with its summary).
function oneLineTail(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `…${flat.slice(flat.length - (max - 1))}` : flat;
}

interface RenderState {
  /** Hook id → its protocol, when known (the session's config). */
  protocols?: ReadonlyMap<string, string>;
  projectDir?: string;
  inputs: Map<string, string>;
}

function shortInput(input: unknown, state: RenderState): string {
  if (typeof input !== 'object' || input === null) return '';
  const record = input as Record<string, unknown>;
  for (const key of ['path', 'command', 'pattern']) {
    const value = record[key];
    if (typeof value !== 'string') continue;
    if (key === 'path' && state.projectDir !== undefined && path.isAbsolute(value)) {
      const relative = path.relative(state.projectDir, value);
      if (!relative.startsWith('..')) return relative === '' ? '.' : relative;
    }
    return oneLine(value, 60);
  }
  const json = JSON.stringify(record);
  return json === '{}' ? '' : oneLine(json, 60);
}

function toolLabel(record: { call_id: string; tool: string }, state: RenderState): string {
  const input = state.inputs.get(record.call_id) ?? '';
  return input === '' ? record.tool : `${record.tool} ${input}`;
}

function hookLine(
  record: EventRecordOf<'hook_finished'> | EventRecordOf<'hook_failed'>,
  c: Colors,
  protocols: ReadonlyMap<string, string> | undefined,
): string {
  const head = `  ${c.dim('hook')} ${c.bold(record.hook_id)} ${c.dim(record.event)}`;
  if (record.type === 'hook_failed') {
    // A failing hook of another agent's dialect says which (its answer is read the way that agent reads it).
    const protocol = protocols?.get(record.hook_id);
    const dialect =
      protocol === undefined || protocol === 'soong' ? '' : ` ${c.dim(`(${protocol} hook)`)}`;
    const onFailure =
      record.on_failure === 'deny' ? c.red(' (on_failure=deny)') : c.dim(' (ignored)');
    return `${head}${dialect} ${c.yellow(`failed:${record.failure}`)} ${c.dim(formatDuration(record.duration_ms))}${onFailure} ${oneLine(record.message, 160)}`;
  }
  const decision =
    record.decision === 'deny'
      ? c.red('deny')
      : record.decision === 'allow'
        ? c.green('allow')
        : record.permission_decision === 'ask'
          ? c.yellow('ask')
          : c.dim('none');
  const reason = record.reason === undefined ? '' : ` ${oneLine(record.reason, 160)}`;
  return `${head} ${decision} ${c.dim(formatDuration(record.duration_ms))}${reason}`;
}

// Line breaks and tabs (the timeline is one line per record) and every other C0 control, DEL,
// C1 controls and bidi overrides. A hook's reason or stderr, a tool input or the model's text
// would otherwise reach the terminal raw: clear the screen, retitle it, fake a timeline line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /[\t\n\v\f\r]/;

/** `text` with terminal control characters shown as `\x1b`-style escapes (whitespace as a space). */
export function printable(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (character) =>
    LINE_BREAKS.test(character) ? ' ' : escapeCharacter(character),
  );
}

/**
 * Multi-line `text` for a terminal (the final answer): newlines and tabs kept, every other control
 * character escaped as {@link printable} does, so the model cannot write escape sequences
 * (OSC 52 clipboard writes, screen clears) to the user's terminal.
 */
export function printableLines(text: string): string {
  return text
    .replaceAll('\r\n', '\n')
    .replace(CONTROL_CHARACTERS, (character) =>
      character === '\n' || character === '\t' ? character : escapeCharacter(character),
    );
}

function escapeCharacter(character: string): string {
  const code = character.charCodeAt(0);
  return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`;
}

function printableValue<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map(printableValue) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, printableValue(item)]),
    ) as T;
  }
  return value;
}

/** How a message carries a hint for the user on a line of its own (`gitRootHint`'s). */
export const HINT_PREFIX = 'hint: ';

/**
 * `text` without its hint line, and the hint, when the hint is the one the agent words for
 * `projectDir` (`gitRootHint` of `@soong-agent/paths`: the git root above it and `--project`).
 * Only that text gets a line of its own, never cut: a tool's output or a hook's message that
 * merely contains `hint: …` (an attempt to fake one) stays in the one-line text, where it is seen
 * as what it is.
 */
export function splitHints(
  text: string,
  projectDir: string | undefined,
): { text: string; hints: string[] } {
  const marker = `\n${HINT_PREFIX}`;
  const at = text.lastIndexOf(marker);
  if (at === -1 || projectDir === undefined) return { text, hints: [] };
  const hint = text.slice(at + marker.length);
  const root = findGitRoot(projectDir);
  const genuine = root === undefined ? undefined : gitRootHint({ target: root, projectDir });
  return hint === genuine ? { text: text.slice(0, at), hints: [hint] } : { text, hints: [] };
}

// The text of a record that may end with a hint line: a failed tool's result, a hook's failure.
function withoutHints(
  record: EventRecord,
  projectDir: string | undefined,
): { record: EventRecord; hints: string[] } {
  if (record.type === 'tool_finished' && record.error_text !== undefined) {
    const { text, hints } = splitHints(record.error_text, projectDir);
    return { record: { ...record, error_text: text }, hints };
  }
  if (record.type === 'hook_failed') {
    const { text, hints } = splitHints(record.message, projectDir);
    return { record: { ...record, message: text }, hints };
  }
  return { record, hints: [] };
}

/**
 * Renders one event record as a timeline line (without newline), or undefined for records the
 * timeline folds into others (`hook_started`, `hook_denied`, `permission_denied`, `tool_started`).
 * Control characters in the record's strings are shown escaped ({@link printable}). The agent's
 * hint at the end of an error (a path refused outside a project dir below a git root) follows in
 * full on a line of its own ({@link splitHints}).
 */
export function formatRecord(
  record: EventRecord,
  c: Colors,
  state: RenderState,
): string | undefined {
  const { record: main, hints } = withoutHints(
    record,
    record.type === 'session_started' ? record.project_dir : state.projectDir,
  );
  const line = formatPrintableRecord(printableValue(main), c, state);
  if (line === undefined || hints.length === 0) return line;
  return [line, ...hints.map((hint) => `    ${c.yellow('hint')} ${printable(hint)}`)].join('\n');
}

function formatPrintableRecord(
  record: EventRecord,
  c: Colors,
  state: RenderState,
): string | undefined {
  switch (record.type) {
    case 'session_started':
      state.projectDir = record.project_dir;
      return `${c.cyan('session')} ${record.session_id} ${c.dim(`project ${record.project_dir} · home ${record.agent_home}`)}`;
    case 'config_loaded': {
      const hooks = record.hooks_enabled
        ? record.hooks_fingerprint === null
          ? 'no hooks.json: no hooks'
          : `${record.rules} hook rule${record.rules === 1 ? '' : 's'} · hooks.json sha256:${record.hooks_fingerprint.slice(0, 12)}`
        : `hooks disabled${record.no_hooks === true ? ' (--no-hooks)' : ' (hooks.enabled = false)'}`;
      const warnings = record.warnings.map(
        (warning) =>
          `\n  ${c.yellow('warning')} ${typeof warning === 'string' ? warning : warning.message}`,
      );
      return `${c.cyan('config')} ${hooks}${warnings.join('')}`;
    }
    case 'user_prompt_submitted':
      return `${c.cyan('prompt')} ${oneLine(record.prompt, 120)}`;
    case 'model_turn': {
      const calls =
        record.tool_calls === 0
          ? 'no tool calls'
          : `${record.tool_calls} tool call${record.tool_calls === 1 ? '' : 's'}`;
      const text =
        record.text === '' ? '' : ` ${c.dim('“')}${oneLine(record.text, 100)}${c.dim('”')}`;
      return `${c.magenta('model')} turn ${record.turn} → ${calls}${text}`;
    }
    case 'tool_started':
      state.inputs.set(record.call_id, shortInput(record.input, state));
      return undefined;
    case 'tool_finished': {
      const artifact =
        record.artifact_ref === undefined ? '' : c.dim(` → artifact ${record.artifact_ref.path}`);
      const status = record.is_error ? c.yellow('error') : c.green('ok');
      const duration =
        typeof record.duration_ms === 'number' ? ` ${formatDuration(record.duration_ms)}` : '';
      // The head of an error result, so the timeline (and `events`) says why a call failed.
      const why =
        record.is_error && record.error_text !== undefined && record.error_text.trim() !== ''
          ? `: ${oneLine(record.error_text, 160)}`
          : '';
      return `${c.blue('tool')} ${c.bold(toolLabel(record, state))} ${status} ${c.dim(`${formatBytes(record.bytes)}${duration}`)}${artifact}${why}`;
    }
    case 'tool_denied': {
      const by = record.source === 'hook' ? `hook ${record.hook_id ?? '?'}` : 'permission';
      return `${c.blue('tool')} ${c.bold(toolLabel(record, state))} ${c.red(`denied by ${by}`)}: ${oneLine(record.reason, 160)}`;
    }
    case 'tool_skipped':
      return `${c.blue('tool')} ${c.bold(record.tool)} ${c.dim(`skipped (${record.denied_call_id} was denied; batch halted)`)}`;
    case 'hook_finished':
    case 'hook_failed':
      return hookLine(record, c, state.protocols);
    case 'hook_log': {
      const message =
        record.source === 'stderr'
          ? oneLineTail(record.message, 160)
          : oneLine(record.message, 160);
      return `    ${c.dim(`${record.source}: ${message}`)}`;
    }
    case 'hook_decision_ignored':
      return `    ${c.dim(`deny ignored: ${record.event} is observe-only`)}`;
    case 'stop_hook_prevented':
      return `${c.yellow('stop')} prevented by ${c.bold(record.hook_id)} (${record.prevented_count}): ${oneLine(record.reason, 160)}`;
    case 'hook_context_added': {
      // spec §13.1: context a hook gave the model with its next request.
      const stored =
        record.artifact_ref === undefined ? '' : c.dim(` → artifact ${record.artifact_ref.path}`);
      const text =
        record.text === undefined ? '' : ` ${c.dim('“')}${oneLine(record.text, 100)}${c.dim('”')}`;
      return `    ${c.cyan('context')} from ${c.bold(record.hook_id)} (${record.event}) ${c.dim(formatBytes(record.bytes))}${stored}${text}`;
    }
    case 'stop_hook_limit_reached':
      return `${c.yellow('stop')} limit of ${record.limit} prevented stops reached; stopping without Stop hooks`;
    case 'loop_ended': {
      const reason = record.reason === 'completed' ? c.green(record.reason) : c.red(record.reason);
      return `${c.cyan('end')} ${reason}`;
    }
    case 'worker_started':
      return `  ${c.dim(`worker ${record.hook_id} started (pid ${record.pid})`)}`;
    case 'worker_stopped': {
      const how =
        record.signal != null
          ? `, ${record.signal}`
          : record.exit_code != null
            ? `, exit ${record.exit_code}`
            : '';
      const text = `worker ${record.hook_id} stopped: ${record.reason}${how}`;
      return `  ${record.reason === 'session_end' ? c.dim(text) : c.yellow(text)}`;
    }
    default:
      return undefined;
  }
}

/** What drives the timeline: feed it every record (e.g. from the event sink's `onRecord`). */
export interface Timeline {
  onRecord(record: EventRecord): void;
  /** Clears the live indicator and stops redrawing it, e.g. while a permission prompt is up. */
  suspend<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Shows model text as it streams in: a `model` line that grows until the next record starts a
   * new line. Control characters are escaped as in the final answer ({@link printableLines}).
   */
  text(chunk: string): void;
  close(): void;
}

/**
 * A timeline on a stream (stderr for `run`, stdout for `events`): one line per hook run, tool call,
 * model turn and Stop prevention, coloured when `colors` is true; while a hook or tool runs longer
 * than {@link LIVE_INDICATOR_DELAY_MS}, a redrawn `… running <id> (1.2s)` line when `live` is true.
 */
export function createTimeline(options: {
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  /** @default colorEnabled(stream) */
  colors?: boolean;
  /** Draw the live indicator (only sensible on a TTY). @default stream.isTTY === true */
  live?: boolean;
  /** The clock of the live indicator, in milliseconds. @default Date.now */
  now?: () => number;
  /** Hook id → protocol (`hookProtocols(config)`): a failing hook's line names its dialect. */
  protocols?: ReadonlyMap<string, string>;
  /**
   * Write each event-loop turn's output as one write on the next turn ({@link createCoalescedWriter}),
   * off the run loop's path (a hook's line leaves while its tool runs); `suspend` and `close`
   * flush. @default false (each line written at once)
   */
  coalesce?: boolean;
}): Timeline {
  const now = options.now ?? Date.now;
  const coalesced = options.coalesce === true ? createCoalescedWriter(options.stream) : undefined;
  const out =
    coalesced === undefined
      ? (text: string) => {
          options.stream.write(text);
        }
      : coalesced.write;
  const c = picocolors.createColors(options.colors ?? colorEnabled(options.stream));
  const live = options.live ?? options.stream.isTTY === true;
  const state: RenderState = {
    inputs: new Map(),
    ...(options.protocols === undefined ? {} : { protocols: options.protocols }),
  };
  const running: { key: string; label: string; startedAt: number }[] = [];
  let drawn = false;
  let suspended = false;
  // A streamed model text line is open (no newline written after it yet).
  let streaming = false;
  let timer: NodeJS.Timeout | undefined;

  const clear = () => {
    if (drawn) out('\r\x1b[K');
    drawn = false;
  };
  const draw = () => {
    const top = running[running.length - 1];
    if (top === undefined || suspended) return;
    const elapsed = now() - top.startedAt;
    if (elapsed < LIVE_INDICATOR_DELAY_MS) return;
    out(`\r\x1b[K${c.dim(`… running ${top.label} (${formatSeconds(elapsed)})`)}`);
    drawn = true;
  };
  const sync = () => {
    if (!live) return;
    if (running.length > 0 && timer === undefined) {
      timer = setInterval(draw, LIVE_REDRAW_MS);
      timer.unref();
    } else if (running.length === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
      clear();
    }
  };
  // A hook's log lines arrive before its outcome; show them under its line instead.
  const pendingLogs = new Map<string, string[]>();
  const endStream = () => {
    if (streaming) out('\n');
    streaming = false;
  };
  const write = (line: string) => {
    clear();
    endStream();
    out(`${line}\n`);
  };
  const finish = (key: string) => {
    const index = running.findIndex((item) => item.key === key);
    if (index !== -1) running.splice(index, 1);
  };

  return {
    onRecord(record) {
      if (record.type === 'hook_started') {
        running.push({
          key: `hook:${record.hook_id}`,
          label: record.hook_id,
          startedAt: now(),
        });
      } else if (record.type === 'hook_finished' || record.type === 'hook_failed') {
        finish(`hook:${record.hook_id}`);
        // The tool itself runs only after its PreToolUse hooks: time it from there.
        const tool = running.find((item) => item.key === `tool:${record.call_id}`);
        if (tool !== undefined) tool.startedAt = now();
      } else if (record.type === 'tool_started') {
        running.push({
          key: `tool:${record.call_id}`,
          label: `${record.tool} (${record.call_id})`,
          startedAt: now(),
        });
      } else if (record.type === 'tool_finished' || record.type === 'tool_denied') {
        finish(`tool:${record.call_id}`);
      }
      const line = formatRecord(record, c, state);
      if (line !== undefined) {
        if (record.type === 'hook_log') {
          const logs = pendingLogs.get(record.hook_id) ?? [];
          logs.push(line);
          pendingLogs.set(record.hook_id, logs);
        } else {
          write(line);
        }
      }
      if (record.type === 'hook_finished' || record.type === 'hook_failed') {
        for (const log of pendingLogs.get(record.hook_id) ?? []) write(log);
        pendingLogs.delete(record.hook_id);
      }
      sync();
    },
    text(chunk) {
      const shown = printableLines(chunk.replaceAll('\r', '')).replaceAll('\n', '\n      ');
      if (shown === '') return;
      clear();
      if (!streaming) out(`${c.magenta('model')} `);
      streaming = true;
      out(c.dim(shown));
    },
    async suspend(work) {
      suspended = true;
      clear();
      endStream();
      // The question goes to the same terminal: every line before it must be there first.
      coalesced?.flush();
      try {
        return await work();
      } finally {
        suspended = false;
      }
    },
    close() {
      for (const logs of pendingLogs.values()) for (const log of logs) write(log);
      pendingLogs.clear();
      running.length = 0;
      sync();
      clear();
      endStream();
      coalesced?.close();
    },
  };
}

/** Hook id → protocol of every hook of a config (for {@link createTimeline}'s `protocols`). */
export function hookProtocols(config: {
  hooks: { rules: readonly { hooks: readonly { id: string; protocol: string }[] }[] };
}): Map<string, string> {
  const protocols = new Map<string, string>();
  for (const rule of config.hooks.rules)
    for (const hook of rule.hooks) protocols.set(hook.id, hook.protocol);
  return protocols;
}
