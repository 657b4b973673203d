import {
  type HookEvent,
  type HookOutput,
  type SafeParseHookOutputResult,
  safeParseHookOutput,
} from '@soong-agent/protocol';
import type { Dialect, DialectLog, DialectRun, DialectVerdict } from './dialect.js';
import { OUR_EVENT_NAMES } from './tool-names.js';

/**
 * The message of a soong hook that exited non-zero: for exit 2, first what to print instead, then
 * the Claude Code spelling (spec §2.2).
 */
export function soongExitMessage(run: Pick<DialectRun, 'exitCode' | 'signal'>): string {
  if (run.exitCode === null) return `hook was killed by ${run.signal ?? 'a signal'}`;
  const base = `hook exited with code ${run.exitCode}`;
  if (run.exitCode !== 2) return base;
  return (
    `${base}. To deny, print {"decision":"deny","reason":"..."} on stdout and exit 0. ` +
    `(Claude Code treats exit 2 as a block: a Claude Code hook declares "protocol": "claude-code" in hooks.json)`
  );
}

/**
 * What a parsed stdout means: the output (or the rescued deny), its log lines and warnings, and the
 * failure when nothing valid came back (spec §2.2).
 */
function verdictOfParsed(
  parsed: SafeParseHookOutputResult,
  exit: Pick<DialectRun, 'exitCode' | 'signal'> | undefined,
): DialectVerdict {
  const logs: DialectLog[] = [];
  let output: HookOutput | null | undefined;
  let unknownKeys: string[] | undefined;
  let warning: string | undefined;
  if (parsed.success) {
    output = parsed.output;
    if (parsed.unknownKeys.length > 0) unknownKeys = parsed.unknownKeys;
  } else if (parsed.deny) {
    output = parsed.deny;
    warning = `${parsed.error.message}; ${parsed.denyNote ?? 'the deny stands'}`;
  }
  for (const line of output?.logs ?? []) logs.push({ source: 'logs', message: line });
  if (warning !== undefined) logs.push({ source: 'warning', message: warning });
  const extra = {
    ...(unknownKeys === undefined ? {} : { unknownKeys }),
    ...(output?.reason === undefined ? {} : { reason: output.reason }),
    ...(output?.metadata === undefined ? {} : { metadata: output.metadata }),
  };
  const context =
    output?.context === undefined || output.context === '' ? {} : { context: output.context };
  if (exit !== undefined && exit.exitCode !== 0) {
    const failure = { kind: 'exit_code' as const, message: soongExitMessage(exit) };
    if (output?.decision === 'deny')
      return { decision: 'deny', failure, logs, ...extra, ...context };
    return {
      decision: 'none',
      failure,
      logs,
      ...(unknownKeys === undefined ? {} : { unknownKeys }),
    };
  }
  if (output === undefined) {
    const message = parsed.success ? 'invalid hook output' : parsed.error.message;
    return { decision: 'none', failure: { kind: 'protocol_error', message }, logs };
  }
  return { decision: output?.decision ?? 'none', exitCode: 0, logs, ...extra, ...context };
}

function decide(_event: HookEvent, run: DialectRun): DialectVerdict {
  return verdictOfParsed(safeParseHookOutput(run.stdout), run);
}

// A worker's answer is the `output` value of its response line: null or absent is "no decision",
// like empty stdout; anything else goes through the ordinary output rules (spec §8, §2.2).
function decideAnswer(_event: HookEvent, output: unknown): DialectVerdict {
  if (output === undefined || output === null) return verdictOfParsed(NO_DECISION, undefined);
  // The common answer, {"decision": "allow" | "deny", "reason"?: string} and nothing else, needs no
  // schema: the same verdict the full rules give, without serialising it again to check it.
  const plain = plainAnswer(output);
  if (plain !== undefined) return plain;
  let text: string;
  try {
    text = JSON.stringify(output);
  } catch {
    return {
      decision: 'none',
      failure: { kind: 'protocol_error', message: 'a worker output too deeply nested to read' },
      logs: [],
    };
  }
  return verdictOfParsed(safeParseHookOutput(text), undefined);
}

function plainAnswer(output: unknown): DialectVerdict | undefined {
  if (typeof output !== 'object' || Array.isArray(output)) return undefined;
  const { decision, reason } = output as { decision?: unknown; reason?: unknown };
  if (decision !== 'allow' && decision !== 'deny') return undefined;
  let keys = 0;
  for (const key in output) {
    if (!Object.hasOwn(output, key)) continue;
    if (key !== 'decision' && key !== 'reason') return undefined;
    keys += 1;
  }
  if (reason === undefined) return keys === 1 ? { decision, exitCode: 0, logs: [] } : undefined;
  if (typeof reason !== 'string') return undefined;
  return { decision, exitCode: 0, logs: [], reason };
}

const NO_DECISION: SafeParseHookOutputResult = Object.freeze({
  success: true,
  output: null,
  unknownKeys: [],
}) as SafeParseHookOutputResult;

/**
 * Our own protocol (spec §2): the §2.1 input as it is, the §2.2 output rules; the only dialect whose
 * hooks may run as workers (spec §8).
 */
export const soongDialect: Dialect = Object.freeze({
  name: 'soong',
  toolNames: Object.freeze({}),
  events: OUR_EVENT_NAMES,
  encodeInput: (_event: HookEvent, input: Readonly<Record<string, unknown>>) => input,
  env: () => ({}),
  contextEvents: Object.freeze(Object.values(OUR_EVENT_NAMES)),
  decide,
  decideAnswer,
});
