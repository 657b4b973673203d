import { z } from 'zod';
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
      /** Top-level keys other than `decision`, `reason`, `metadata` and `logs`, in order of appearance. */
      unknownKeys: string[];
    }
  | {
      success: false;
      /** `ProtocolError` with code `INVALID_HOOK_OUTPUT`; its message shows the start of stdout. */
      error: ProtocolError;
      /** Set when the last non-empty line of stdout alone is a valid output with `decision: "deny"`. */
      deny?: HookOutput;
    };

const KNOWN_KEYS: ReadonlySet<string> = new Set(Object.keys(HookOutputSchema.shape));
const PREVIEW_CHARS = 200;

type Attempt =
  | { ok: true; output: HookOutput; unknownKeys: string[] }
  | { ok: false; problem: string; cause?: unknown; issues?: ProtocolIssue[] };

function attempt(text: string): Attempt {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
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
      decision === 'block' || decision === 'approve'
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

function lastNonEmptyLine(stdout: string): string | undefined {
  const lines = stdout.split(/\r\n|\r|\n/);
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] as string;
    if (line.trim() !== '') return line;
  }
  return undefined;
}

/**
 * Parses a hook's stdout (SPEC §2.2) without throwing. Empty or whitespace-only stdout means
 * "no decision" (`output: null`). Anything else must be one JSON object with a valid `decision`;
 * otherwise the result is a failure whose error says what was wrong and shows the start of stdout,
 * and carries `deny` when the last non-empty line alone is a valid deny (an intended deny is never lost).
 */
export function safeParseHookOutput(stdout: string): SafeParseHookOutputResult {
  if (stdout.trim() === '') return { success: true, output: null, unknownKeys: [] };
  const whole = attempt(stdout);
  if (whole.ok) return { success: true, output: whole.output, unknownKeys: whole.unknownKeys };

  const error = new ProtocolError({
    code: 'INVALID_HOOK_OUTPUT',
    message:
      `invalid hook output: ${whole.problem}; expected one JSON object such as ` +
      `{"decision":"allow"} or {"decision":"deny","reason":"..."}; ${preview(stdout)}`,
    cause: whole.cause,
    issues: whole.issues ?? [],
  });
  const line = lastNonEmptyLine(stdout);
  if (line !== undefined && line.trim() !== stdout.trim()) {
    const last = attempt(line);
    if (last.ok && last.output.decision === 'deny')
      return { success: false, error, deny: last.output };
  }
  return { success: false, error };
}

/**
 * Parses a hook's stdout (SPEC §2.2): the output, or `null` for "no decision" (empty or whitespace).
 * Unknown keys are dropped; use {@link safeParseHookOutput} to learn them or to rescue a deny.
 * @throws {ProtocolError} code `INVALID_HOOK_OUTPUT` when stdout is not a valid hook output.
 */
export function parseHookOutput(stdout: string): HookOutput | null {
  const result = safeParseHookOutput(stdout);
  if (!result.success) throw result.error;
  return result.output;
}
