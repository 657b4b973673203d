import { z } from 'zod';
import { jsonTextWithByteEscapes } from './byte-escapes.js';
import { jsonTextDepth, MAX_JSON_DEPTH, scanBrackets } from './json-depth.js';
import {
  describeIssues,
  ProtocolError,
  type ProtocolIssue,
  toProtocolIssues,
} from './protocol-error.js';

/** A hook's decision: `allow` or `deny`. */
export const HookDecisionSchema = z.enum(['allow', 'deny']);
/** A hook's decision. */
export type HookDecision = z.infer<typeof HookDecisionSchema>;

/**
 * What a hook prints on stdout: one JSON object. Unknown keys are accepted (the parser reports them
 * in `unknownKeys` and drops them); a known key with the wrong type makes the whole output invalid.
 */
export const HookOutputSchema = z
  .object({
    decision: HookDecisionSchema.describe(
      '`allow` or `deny`. Only `PreToolUse` and `Stop` can block; elsewhere a deny is recorded and ignored.',
    ),
    reason: z
      .string()
      .optional()
      .describe(
        'Why. On a deny the model sees it; without one the reason is `denied by hook <id>`.',
      ),
    metadata: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Free-form data, recorded with the decision in the event log (never shown to the model).',
      ),
    logs: z
      .array(z.string())
      .optional()
      .describe('Lines for the event log (never shown to the model).'),
    context: z
      .string()
      .optional()
      .describe(
        'Text for the model, on any event: with `[hooks] deliver_context = true` in config.toml it reaches the model with its next request as a user message (spec §13.1); otherwise it is dropped with a warning.',
      ),
  })
  .meta({
    title: 'HookOutput',
    description:
      'What a soong-agent hook command prints on stdout (or nothing, for no decision). Unknown keys are ignored and reported in the event log.',
  });
/** A valid hook output. */
export type HookOutput = z.infer<typeof HookOutputSchema>;

/** Result of {@link safeParseHookOutput}. */
export type SafeParseHookOutputResult =
  | {
      success: true;
      /** The decision, or `null` when stdout was empty or whitespace ("no decision", counts as allow). */
      output: HookOutput | null;
      /** Top-level keys other than `decision`, `reason`, `metadata`, `logs` and `context`, in order of appearance. */
      unknownKeys: string[];
    }
  | {
      success: false;
      /** `ProtocolError` with code `INVALID_HOOK_OUTPUT`; its message shows the start of stdout. */
      error: ProtocolError;
      /**
       * Set when stdout holds a JSON object whose `decision` says deny, even written slightly wrong
       * (`"DENY"`, Claude Code's `"block"`, a `reason` that is not a string, other text or objects
       * around it): an intended deny is never lost. Fields of the wrong type are dropped.
       */
      deny?: HookOutput;
      /** With `deny`: what was wrong with the deny and how it was read, for a warning. */
      denyNote?: string;
    };

const KNOWN_KEYS: ReadonlySet<string> = new Set(Object.keys(HookOutputSchema.shape));
const CLAUDE_CODE_HINT =
  ` (this looks like Claude Code's hook output: set "protocol": "claude-code" on this hook (spec §7),` +
  ` or print {"decision":"deny","reason":"..."})`;
const LOGS_HINT =
  'stdout holds other text besides the JSON answer: send logs to stderr (`>&2`) and print only the JSON object on stdout';
const PREVIEW_CHARS = 200;

type Attempt =
  | { ok: true; output: HookOutput; unknownKeys: string[] }
  | { ok: false; problem: string; cause?: unknown; issues?: ProtocolIssue[] };

function attempt(text: string): Attempt {
  if (jsonTextDepth(text) > MAX_JSON_DEPTH) {
    return {
      ok: false,
      problem: `stdout nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(
      jsonTextWithByteEscapes(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text),
    );
  } catch (cause) {
    return { ok: false, problem: `stdout is not valid JSON (${(cause as Error).message})`, cause };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind =
      value === null
        ? 'JSON null'
        : Array.isArray(value)
          ? 'a JSON array'
          : `a JSON ${typeof value}`;
    return { ok: false, problem: `stdout is ${kind}, not an object` };
  }
  const result = HookOutputSchema.safeParse(value);
  if (!result.success) {
    const issues = toProtocolIssues(result.error);
    const decision = (value as { decision?: unknown }).decision;
    const hint =
      'hookSpecificOutput' in value
        ? CLAUDE_CODE_HINT
        : decision === 'block' || decision === 'approve'
          ? ` ("${decision}" is Claude Code's word: write "${decision === 'block' ? 'deny' : 'allow'}")`
          : '';
    return { ok: false, problem: describeIssues(issues) + hint, cause: result.error, issues };
  }
  const unknownKeys = Object.keys(value).filter((key) => !KNOWN_KEYS.has(key));
  const output = result.data;
  // zod copies records key by key, which turns an own "__proto__" key into a prototype; keep
  // the object JSON.parse built (validated above, and nothing in it is transformed).
  if (output.metadata !== undefined) output.metadata = (value as HookOutput).metadata;
  return { ok: true, output, unknownKeys };
}

function preview(stdout: string): string {
  if (stdout.length <= PREVIEW_CHARS) return `stdout was ${JSON.stringify(stdout)}`;
  const head = JSON.stringify(stdout.slice(0, PREVIEW_CHARS));
  return `stdout began with ${head}… (${stdout.length} characters in all)`;
}

/**
 * The top-level `{...}` spans of `text`; quotes outside them are text. A span nested more than
 * MAX_JSON_DEPTH deep comes back shallow, each value of its own that is an object or array replaced
 * by `null`: its `decision` and `reason` are still read, so over-deep metadata cannot hide a deny.
 */
function objectSpans(text: string): { text: string; shallowed: boolean }[] {
  const spans: { text: string; shallowed: boolean }[] = [];
  let start = -1;
  let tooDeep = false;
  // The [open, close] index pairs of the values nested directly in the current top-level object.
  let inner: [number, number][] = [];
  let innerStart = -1;
  scanBrackets(text, false, (index, opening, depth) => {
    if (opening && depth === 1) {
      start = text.charCodeAt(index) === 0x7b /* { */ ? index : -1; // only objects can decide
      tooDeep = false;
      inner = [];
    } else if (opening && depth === 2) {
      innerStart = index;
    } else if (!opening && depth === 1) {
      inner.push([innerStart, index]);
    }
    if (opening && depth > MAX_JSON_DEPTH) tooDeep = true;
    if (!opening && depth === 0 && start >= 0) {
      if (!tooDeep) spans.push({ text: text.slice(start, index + 1), shallowed: false });
      else spans.push({ text: shallow(text, start, index, inner), shallowed: true });
    }
    return true;
  });
  return spans;
}

function shallow(text: string, start: number, end: number, inner: [number, number][]): string {
  let out = '';
  let from = start;
  for (const [open, close] of inner) {
    out += `${text.slice(from, open)}null`;
    from = close + 1;
  }
  return out + text.slice(from, end + 1);
}

const DENY_WORDS: ReadonlySet<string> = new Set(['deny', 'block']);

/**
 * `object` read as a deny when its `decision` says deny in any spelling, or when it is Claude Code's
 * answer `hookSpecificOutput.permissionDecision: "deny"` printed by a hook of ours; `null` otherwise.
 */
function readDeny(object: Record<string, unknown>): { output: HookOutput; notes: string[] } | null {
  const { decision, metadata, logs } = object;
  let { reason } = object;
  const notes: string[] = [];
  const claude = typeof decision === 'string' ? null : claudeCodeDeny(object);
  if (claude !== null) {
    notes.push(
      'hookSpecificOutput.permissionDecision "deny" is Claude Code\'s answer: set "protocol": "claude-code" on this hook, or print {"decision":"deny","reason":"..."}',
    );
    reason = claude.reason;
  } else if (typeof decision !== 'string' || !DENY_WORDS.has(decision.trim().toLowerCase())) {
    return null;
  } else if (decision.trim().toLowerCase() === 'block') {
    notes.push(`"decision" is ${JSON.stringify(decision)}, Claude Code's word: write "deny"`);
  } else if (decision !== 'deny') {
    notes.push(`"decision" is ${JSON.stringify(decision)}: write "deny" (lower case)`);
  }
  const output: HookOutput = { decision: 'deny' };
  if (typeof reason === 'string') output.reason = reason;
  else if (reason !== undefined) notes.push(`"reason" is ${kindOf(reason)}, not a string: dropped`);
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
    output.metadata = metadata as Record<string, unknown>;
  } else if (metadata !== undefined) {
    notes.push(`"metadata" is ${kindOf(metadata)}, not an object: dropped`);
  }
  if (Array.isArray(logs) && logs.every((line) => typeof line === 'string')) output.logs = logs;
  else if (logs !== undefined) notes.push(`"logs" is not an array of strings: dropped`);
  return { output, notes };
}

function claudeCodeDeny(object: Record<string, unknown>): { reason: unknown } | null {
  const specific = object.hookSpecificOutput;
  if (typeof specific !== 'object' || specific === null) return null;
  const { permissionDecision, permissionDecisionReason } = specific as Record<string, unknown>;
  if (typeof permissionDecision !== 'string') return null;
  if (permissionDecision.trim().toLowerCase() !== 'deny') return null;
  return { reason: permissionDecisionReason };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** The first JSON object among `spans` whose decision says deny, read as a deny. */
function firstDeny(
  spans: readonly { text: string; shallowed: boolean }[],
): { output: HookOutput; notes: string[] } | null {
  for (const span of spans) {
    let value: unknown;
    try {
      value = JSON.parse(jsonTextWithByteEscapes(span.text));
    } catch {
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const read = readDeny(value as Record<string, unknown>);
    if (!read) continue;
    if (span.shallowed) {
      delete read.output.metadata;
      read.notes.push(
        `values nested more than ${MAX_JSON_DEPTH} levels deep were dropped (metadata and logs included)`,
      );
    }
    return read;
  }
  return null;
}

/**
 * spec §2.2, "an intended deny is never lost": a JSON object on stdout whose `decision` says deny,
 * however slightly wrong, stands as a deny. Spans of the whole stdout are tried first; then each
 * line alone (a stray quote in a log line must not hide a deny on a later line).
 */
function rescueDeny(stdout: string): { output: HookOutput; note: string } | null {
  const trimmed = stdout.trim();
  const whole = objectSpans(stdout);
  let found = firstDeny(whole);
  let spans = whole;
  if (!found) {
    for (const line of stdout.split(/\r\n|\r|\n/)) {
      const lineSpans = objectSpans(line);
      found = firstDeny(lineSpans);
      if (found) {
        spans = lineSpans;
        break;
      }
    }
  }
  if (!found) return null;
  const notes = [...found.notes];
  if (spans.length > 1) notes.push(`stdout holds ${spans.length} JSON objects: print exactly one`);
  else if (spans[0]?.text.trim() !== trimmed && spans[0]?.shallowed !== true)
    notes.push('stdout holds other text besides the JSON object');
  const issues = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  return { output: found.output, note: `the deny stands${issues}` };
}

/**
 * True when stdout holds a valid output (as one object, or alone on a line) and other text: the
 * hook logged on stdout around its answer.
 */
function answeredAmongText(stdout: string): boolean {
  const trimmed = stdout.trim();
  const valid = (text: string) => text.trim() !== trimmed && attempt(text).ok;
  return (
    objectSpans(stdout).some((span) => valid(span.text)) || stdout.split(/\r\n|\r|\n/).some(valid)
  );
}

/**
 * Parses a hook's stdout (spec §2.2) without throwing. Empty or whitespace-only stdout means
 * "no decision" (`output: null`). Anything else must be one JSON object with a valid `decision`;
 * otherwise the result is a failure whose error says what was wrong and shows the start of stdout,
 * and carries `deny` (with `denyNote`) when some JSON object on stdout says deny, even written
 * slightly wrong (an intended deny is never lost). Input nested more than {@link MAX_JSON_DEPTH}
 * levels deep is a failure, checked before parsing.
 */
export function safeParseHookOutput(stdout: string): SafeParseHookOutputResult {
  if (stdout.trim() === '') return { success: true, output: null, unknownKeys: [] };
  const whole = attempt(stdout);
  if (whole.ok) return { success: true, output: whole.output, unknownKeys: whole.unknownKeys };

  const problem = answeredAmongText(stdout) ? `${whole.problem}; ${LOGS_HINT}` : whole.problem;
  const error = new ProtocolError({
    code: 'INVALID_HOOK_OUTPUT',
    message:
      `invalid hook output: ${problem}; expected one JSON object such as ` +
      `{"decision":"allow"} or {"decision":"deny","reason":"..."}; ${preview(stdout)}`,
    cause: whole.cause,
    issues: whole.issues ?? [],
  });
  const rescued = rescueDeny(stdout);
  if (rescued) return { success: false, error, deny: rescued.output, denyNote: rescued.note };
  return { success: false, error };
}

/**
 * Parses a hook's stdout (spec §2.2): the output, or `null` for "no decision" (empty or whitespace).
 * Unknown keys are dropped; use {@link safeParseHookOutput} to learn them or to rescue a deny.
 * @throws {ProtocolError} code `INVALID_HOOK_OUTPUT` when stdout is not a valid hook output.
 */
export function parseHookOutput(stdout: string): HookOutput | null {
  const result = safeParseHookOutput(stdout);
  if (!result.success) throw result.error;
  return result.output;
}
