import path from 'node:path';
import { type HookEvent, MAX_JSON_DEPTH } from '@soong-agent/protocol';
import { jsonTextDepth, jsonTextWithByteEscapes } from '@soong-agent/protocol/internal';
import type { DialectContext, DialectLog, DialectRun, DialectVerdict } from './dialect.js';

/** Helpers the agent dialect files share: reading our input, building their payloads, verdicts. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Our §2.1 tool object, as the engine passes it (already bounded). */
export interface OurTool {
  name: string;
  call_id: string;
  input: unknown;
  paths?: string[];
}

/** The call's tool in our input (PreToolUse, PostToolUse). */
export function toolOf(input: Readonly<Record<string, unknown>>): OurTool {
  const tool = isRecord(input.tool) ? input.tool : {};
  return {
    name: typeof tool.name === 'string' ? tool.name : '',
    call_id: typeof tool.call_id === 'string' ? tool.call_id : '',
    input: tool.input,
  };
}

/**
 * The name and input one dialect shows for the call's tool. The host's view (`context.tool`, spec
 * §11) gives the name and the input in our canonical tool's shape; a declared name that is one of
 * the dialect's own tools gets that tool's input conversion. Default: the dialect's own mapping of
 * our canonical name and input.
 */
export function viewOf(
  tool: OurTool,
  context: DialectContext,
  names: Readonly<Record<string, string>>,
  mapInput: (ours: string, input: unknown) => unknown,
): { name: string; input: unknown } {
  const declared = context.tool?.name;
  const name =
    declared ?? (Object.hasOwn(names, tool.name) ? (names[tool.name] as string) : tool.name);
  const inverse = invert(names);
  const kind =
    declared !== undefined && Object.hasOwn(inverse, declared)
      ? (inverse[declared] as string)
      : tool.name;
  const raw = context.tool?.input !== undefined ? context.tool.input : tool.input;
  return { name, input: mapInput(kind, raw) };
}

/** A path argument made absolute against the project dir (hooks of every agent see absolute paths). */
export function absolutePath(value: unknown, projectDir: string): unknown {
  return typeof value === 'string' ? path.resolve(projectDir, value) : value;
}

/** The text of our PostToolUse result: the content, or the summary with the artifact's path. */
export function resultText(input: Readonly<Record<string, unknown>>): {
  text: string;
  isError: boolean;
} {
  const result = isRecord(input.result) ? input.result : {};
  const isError = result.is_error === true;
  if (typeof result.content === 'string') return { text: result.content, isError };
  const ref = isRecord(result.artifact_ref) ? result.artifact_ref : {};
  const summary = typeof result.summary === 'string' ? result.summary : '';
  return {
    text: `${summary}\n[full result (${String(result.bytes)} bytes): ${String(ref.path)}]`,
    isError,
  };
}

/** Stop's input: a Stop hook already prevented this loop's end. */
export function stopHookActive(input: Readonly<Record<string, unknown>>): boolean {
  return Number(input.prevented_count ?? 0) > 0 || input.stop_hook_active === true;
}

export function stringField(input: Readonly<Record<string, unknown>>, key: string): string {
  const value = input[key];
  return typeof value === 'string' ? value : '';
}

/** What {@link parseBoundedJson} gives back. */
export type BoundedJson =
  | { ok: true; value: unknown }
  | {
      ok: false;
      /**
       * The text nests arrays or objects more than `MAX_JSON_DEPTH` levels deep. `shallow` is the
       * value with every array or object deeper than that replaced by `null` (undefined when even
       * that is no JSON).
       */
      tooDeep: true;
      shallow: unknown;
    }
  | { ok: false; tooDeep: false };

/**
 * `JSON.parse` of hook output behind the nesting bound (spec §2.2): text nesting deeper than
 * `MAX_JSON_DEPTH` (protocol's linear scan, brackets in strings not counted) is never parsed as it
 * is, since the recursive walks after parsing (zod, key lists, `JSON.stringify` in a message)
 * would overflow the stack. Every parse of hook stdout in the dialects goes through here.
 */
export function parseBoundedJson(written: string): BoundedJson {
  // A raw invalid byte in a JSON string reached us as the runner's \xHH escape: keep it as text.
  const text = jsonTextWithByteEscapes(written);
  if (jsonTextDepth(text) > MAX_JSON_DEPTH) {
    const pruned = pruneDeep(text, MAX_JSON_DEPTH);
    let shallow: unknown;
    if (pruned !== undefined && jsonTextDepth(pruned) <= MAX_JSON_DEPTH) {
      try {
        shallow = JSON.parse(pruned);
      } catch {
        // Not JSON even without its deep values: nothing to read from it.
      }
    }
    return { ok: false, tooDeep: true, shallow };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, tooDeep: false };
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

// `text` with every array or object opening deeper than `limit` replaced by `null`, in one pass
// (strings skipped as jsonTextDepth skips them); undefined when such a value never closes.
function pruneDeep(text: string, limit: number): string | undefined {
  let out = '';
  let from = 0;
  let depth = 0;
  let cut = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
      if (depth === limit + 1) cut = index;
    } else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && depth > 0) {
      if (depth === limit + 1) {
        out += `${text.slice(from, cut)}null`;
        from = index + 1;
      }
      depth--;
    }
  }
  return depth > limit ? undefined : out + text.slice(from);
}

/** A JSON object read from hook output within the nesting bound. */
export interface StdoutAnswer {
  /**
   * The object the dialect reads; with `tooDeep`, the object with its values nested deeper than
   * `MAX_JSON_DEPTH` replaced by `null` (undefined when even that is no JSON object).
   */
  json: Record<string, unknown> | undefined;
  /** The answer nests deeper than `MAX_JSON_DEPTH`: a protocol error, whatever it says. */
  tooDeep: boolean;
  /** `json` is stdout as a whole (not a deny rescued from its end). @default false */
  whole?: boolean;
}

/**
 * The JSON object `text` is, when its first non-blank character is `{` and it parses (the Claude
 * Code rule the other agents copied), or when it is one nested too deep; undefined for anything
 * else.
 */
export function parseJsonObject(text: string): StdoutAnswer | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  const parsed = parseBoundedJson(trimmed);
  if (parsed.ok) return isRecord(parsed.value) ? { json: parsed.value, tooDeep: false } : undefined;
  if (!parsed.tooDeep) return undefined;
  return { json: isRecord(parsed.shallow) ? parsed.shallow : undefined, tooDeep: true };
}

/** What {@link findStdoutJson} found. */
export interface FoundStdoutJson extends StdoutAnswer {
  /** The object (or the over-deep text) is the whole of stdout. */
  whole: boolean;
  /** The text before the object, trimmed ('' when `whole`; all of stdout when nothing was found). */
  before: string;
  /** The object spans more than one line (a pretty-printed answer). */
  multiLine: boolean;
}

/**
 * The JSON answer on stdout, found the one way every dialect shares (spec §13.2): stdout as a
 * whole; else the object that ends it, when that object starts a line — its last non-empty line,
 * or a multi-line object at its end (`jq .` output after a log line). A dialect then asks its own
 * rule whether a trailing object denies: only a deny is read from it. Linear in stdout: the
 * trailing object's start is found by one backward scan for the `{` matching the final `}`, then
 * parsed once.
 */
export function findStdoutJson(stdout: string): FoundStdoutJson {
  const whole = parseJsonObject(stdout);
  if (whole !== undefined && !whole.tooDeep) {
    return { ...whole, whole: true, before: '', multiLine: false };
  }
  const start = trailingObjectStart(stdout);
  const before = start === undefined ? '' : stdout.slice(0, start).trim();
  const trailing =
    start === undefined || before === '' ? undefined : parseJsonObject(stdout.slice(start));
  if (trailing !== undefined) {
    return {
      json: trailing.json,
      // An over-deep start of stdout is not skipped for an object after it.
      tooDeep: trailing.tooDeep || whole !== undefined,
      whole: false,
      before,
      multiLine: stdout.slice(start).trim().includes('\n'),
    };
  }
  if (whole !== undefined) return { ...whole, whole: true, before: '', multiLine: false };
  return { json: undefined, tooDeep: false, whole: false, before: stdout.trim(), multiLine: false };
}

// Where the object that ends `text` starts: the `{` matching its final `}`, scanned backwards
// (in a valid JSON text a quote after an odd run of backslashes is inside a string), when that
// `{` starts a line; undefined otherwise.
function trailingObjectStart(text: string): number | undefined {
  const end = text.trimEnd().length - 1;
  if (end < 0 || text.charCodeAt(end) !== CLOSE_BRACE) return undefined;
  let depth = 0;
  let inString = false;
  for (let index = end; index >= 0; index--) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      let backslashes = 0;
      while (index - backslashes - 1 >= 0 && text.charCodeAt(index - backslashes - 1) === BACKSLASH)
        backslashes++;
      if (backslashes % 2 === 0) inString = !inString;
    } else if (!inString && (code === CLOSE_BRACE || code === CLOSE_BRACKET)) depth++;
    else if (!inString && (code === OPEN_BRACE || code === OPEN_BRACKET)) {
      depth--;
      if (depth === 0) return code === OPEN_BRACE && startsLine(text, index) ? index : undefined;
    }
  }
  return undefined;
}

function startsLine(text: string, index: number): boolean {
  for (let back = index - 1; back >= 0; back--) {
    const previous = text.charCodeAt(back);
    if (previous === 0x0a || previous === 0x0d) return true;
    if (previous !== 0x20 && previous !== 0x09 && previous !== 0xfeff) return false;
  }
  return true;
}

/** The logs entry for plain stdout (not JSON): the hook's own log lines, never sent to the model. */
export function plainStdoutLogs(stdout: string): DialectLog[] {
  const text = stdout.trim();
  return text === '' ? [] : [{ source: 'logs', message: text }];
}

/** Options of {@link answerKeepingDeny} and {@link keepDeny}. */
export interface KeepDenyOptions {
  /** Said in the rescue warning after "stdout held more than the JSON answer". */
  why?: string;
  /** The text is stdout, so its plain text is the hook's log lines. @default true */
  plainIsLog?: boolean;
}

/**
 * The JSON answer of an agent that reads stdout as one JSON object. When stdout is not one, its
 * text goes to `logs`, and the object that ends it still answers when `denies` says it denies
 * (spec §2.2, §13.2: an intended deny is never lost; only a deny is rescued): the text before it
 * is the log, and one warning says so. An answer nested too deep comes back `tooDeep`, its
 * shallow part kept only when it denies.
 */
export function answerKeepingDeny(
  stdout: string,
  logs: DialectLog[],
  denies: (json: Record<string, unknown>) => boolean,
  options: KeepDenyOptions = {},
): StdoutAnswer {
  const found = findStdoutJson(stdout);
  if (found.whole && !found.tooDeep) return { json: found.json, tooDeep: false, whole: true };
  return keepDeny(stdout, found, logs, denies, options);
}

/**
 * What {@link answerKeepingDeny} does once `found` is not stdout's whole, valid answer: the deny
 * it holds stands (with a warning), anything else is no answer; stdout's text is logged.
 */
export function keepDeny(
  stdout: string,
  found: FoundStdoutJson,
  logs: DialectLog[],
  denies: (json: Record<string, unknown>) => boolean,
  { why = '', plainIsLog = true }: KeepDenyOptions = {},
): StdoutAnswer {
  const deny = found.json !== undefined && denies(found.json);
  if (plainIsLog) logs.push(...plainStdoutLogs(deny || found.tooDeep ? found.before : stdout));
  if (deny && found.tooDeep) {
    logs.push({
      source: 'warning',
      message: `stdout nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep: the values deeper were dropped; the answer denies, and the deny stands`,
    });
  } else if (deny) {
    logs.push({
      source: 'warning',
      message: `stdout held more than the JSON answer${why}; ${found.multiLine ? 'the JSON object that ends it' : 'its last line'} denies, and the deny stands`,
    });
  }
  return { json: deny ? found.json : undefined, tooDeep: found.tooDeep };
}

/** The failure message of an answer nested deeper than the bound. */
export const TOO_DEEP_MESSAGE = `stdout nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; it was not read`;

/**
 * A verdict once the answer's depth is known. An answer nested too deep makes the run a
 * `protocol_error`, unless it denies: a deny read from its shallow part (values deeper than the
 * bound dropped, as the soong parser does) or from the exit code stands, with a warning. A run
 * that already failed (a non-zero exit) keeps its failure and gets a warning.
 */
export function depthChecked(verdict: DialectVerdict, answer: StdoutAnswer): DialectVerdict {
  if (!answer.tooDeep) return verdict;
  if (verdict.failure !== undefined || verdict.decision === 'deny') {
    // keepDeny already said why a deny read from the answer stands.
    if (verdict.failure !== undefined || answer.json === undefined) {
      verdict.logs.push({ source: 'warning', message: TOO_DEEP_MESSAGE });
    }
    return verdict;
  }
  return {
    decision: 'none',
    failure: { kind: 'protocol_error', message: TOO_DEEP_MESSAGE },
    logs: verdict.logs,
  };
}

/**
 * The failed verdict for a stdout that starts like JSON but gave no JSON object; undefined
 * otherwise (and for an answer nested too deep, which {@link depthChecked} fails). `why` says
 * more.
 */
export function brokenJsonVerdict(
  stdout: string,
  answer: StdoutAnswer,
  logs: DialectLog[],
  why = '',
): DialectVerdict | undefined {
  if (answer.json !== undefined || answer.tooDeep || !stdout.trim().startsWith('{')) {
    return undefined;
  }
  return {
    decision: 'none',
    failure: {
      kind: 'protocol_error',
      message: `stdout starts like JSON but is not a JSON object${why}`,
    },
    logs,
  };
}

/** Case-insensitive compare of a decision word, so `"Deny"` and `"BLOCK"` are never lost. */
export function word(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim().toLowerCase() : undefined;
}

export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The warning for output keys a hook printed that do nothing here (one per run, spec §12). */
export function ignoredKeysWarning(agent: string, keys: readonly string[]): DialectLog[] {
  if (keys.length === 0) return [];
  return [
    {
      source: 'warning',
      message: `${agent} output keys ignored: ${keys.map((key) => JSON.stringify(key)).join(', ')} (hooks here can block, allow or add context, never rewrite input or results or show messages)`,
    },
  ];
}

/**
 * Events on which Claude Code (and Codex, which copies it) gives the model
 * `hookSpecificOutput.additionalContext` (spec §13.1).
 */
export const CLAUDE_CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  // Claude Code's own event for a failed tool: its additionalContext goes with the failed result.
  'PostToolUseFailure',
]);

/** Events whose plain stdout (exit 0, not a JSON object) Claude Code and Codex give the model. */
export const PLAIN_STDOUT_CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  'SessionStart',
  'UserPromptSubmit',
]);

/** `hookSpecificOutput[key]` of a JSON answer, when it is non-blank text. */
export function specificText(
  json: Record<string, unknown> | undefined,
  key = 'additionalContext',
): string | undefined {
  const specific = json === undefined ? undefined : json.hookSpecificOutput;
  return isRecord(specific) ? textOf(specific[key]) : undefined;
}

/** Plain stdout as context: non-blank text that is not (and does not start like) a JSON object. */
export function plainStdoutContext(stdout: string): string | undefined {
  const text = stdout.trim();
  return text === '' || text.startsWith('{') ? undefined : text;
}

/**
 * What Claude Code (and Codex) give the model from one run (spec §13.1): a PostToolUse block
 * reason (`decision: "block"`, or exit 2's stderr: shown next to the tool result, which is kept);
 * `additionalContext` on the events that take it; the plain stdout of a SessionStart or
 * UserPromptSubmit hook that exited 0. Nothing from a run that failed without a deny.
 */
export function claudeContext(
  event: HookEvent,
  run: Pick<DialectRun, 'exitCode' | 'stdout'>,
  json: Record<string, unknown> | undefined,
  verdict: Pick<DialectVerdict, 'decision' | 'reason' | 'failure'>,
): { context?: string } {
  if (verdict.failure !== undefined && verdict.decision !== 'deny') return {};
  return contextOf(
    event === 'PostToolUse' && verdict.decision === 'deny' ? verdict.reason : undefined,
    CLAUDE_CONTEXT_EVENTS.has(event) ? specificText(json) : undefined,
    json === undefined && run.exitCode === 0 && PLAIN_STDOUT_CONTEXT_EVENTS.has(event)
      ? plainStdoutContext(run.stdout)
      : undefined,
  );
}

/** The pieces of context of one run, in order, joined by a blank line; `{}` when there are none. */
export function contextOf(...pieces: (string | undefined)[]): { context?: string } {
  const present = pieces.filter((piece): piece is string => piece !== undefined && piece !== '');
  return present.length === 0 ? {} : { context: present.join('\n\n') };
}

/** Keys of `json` (one level into `nested` objects, as `outer.inner`) that are not in `known`. */
export function unknownKeysOf(
  json: Record<string, unknown>,
  known: ReadonlySet<string>,
  nested: Readonly<Record<string, ReadonlySet<string>>> = {},
): string[] {
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(json)) {
    const inner = nested[key];
    if (inner !== undefined && isRecord(value)) {
      for (const innerKey of Object.keys(value)) {
        if (!inner.has(innerKey)) ignored.push(`${key}.${innerKey}`);
      }
    } else if (!known.has(key)) ignored.push(key);
  }
  return ignored;
}

/** A verdict for a non-zero exit that is not a block: failed, with an intended deny kept. */
export function failedExit(
  run: DialectRun,
  logs: DialectLog[],
  deny: { reason?: string } | undefined,
): DialectVerdict {
  const message =
    run.exitCode === null
      ? `hook was killed by ${run.signal ?? 'a signal'}`
      : `hook exited with code ${run.exitCode}`;
  const failure = { kind: 'exit_code' as const, message };
  if (deny !== undefined) {
    return { decision: 'deny', ...optionalReason(deny.reason), failure, logs };
  }
  return { decision: 'none', failure, logs };
}

export function optionalReason(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason };
}

/** ISO timestamp of our input, or now. */
export function timestampOf(input: Readonly<Record<string, unknown>>): string {
  return typeof input.timestamp === 'string' ? input.timestamp : new Date().toISOString();
}

/** Inverts a frozen ours → theirs table (first wins), for converters. */
export function invert(table: Readonly<Record<string, string>>): Record<string, string> {
  const inverted: Record<string, string> = {};
  for (const [ours, theirs] of Object.entries(table)) inverted[theirs] ??= ours;
  return inverted;
}
