import type { HookCommandConfig } from '@soong-agent/config/internal';
import type { Dialect, DialectVerdict } from '@soong-agent/dialects';
import { soongDialect } from '@soong-agent/dialects/internal';
import type { HookEvent } from '@soong-agent/protocol';
import {
  BLOCKING_EVENTS,
  type EventRecordBodyOf,
  type HookFailureKind,
} from '@soong-agent/protocol/internal';
import { RunnerError, type RunResult } from '@soong-agent/runner';
import type { WithoutHookRecordIds } from './hook-record-ids.js';
import { roundMs } from './round-ms.js';
import { summarizeText } from './summarize-text.js';

/**
 * Bytes of the end of a hook's stderr kept in its `hook_log` record, and of each stream's end in
 * {@link HookRunResult} (`stdout`, `stderr`).
 */
export const HOOK_STDERR_LOG_BYTES = 8192;
/** Bytes of one `logs` line kept in its `hook_log` record (head and tail). */
export const HOOK_LOG_LINE_BYTES = 4096;
/**
 * Bytes of a hook's `reason` kept (head and tail, with counts): a reason is copied into several
 * records and, on a deny, reaches the model, so a hook cannot flood either with it.
 */
export const HOOK_REASON_BYTES = 8192;
/** `logs` lines recorded per hook run; the rest are counted in one warning. */
export const HOOK_LOG_LINES_MAX = 100;

/** What one hook run came to. */
export interface HookRunResult {
  /** The hook's id (its `name`, or `<Event>[<rule>][<hook>]`). */
  hookId: string;
  /** `finished`: it produced a decision or none; `failed`: spec §2.2 failure. */
  status: 'finished' | 'failed';
  /**
   * The hook's effective decision: `deny` when its deny stands (also after a failure with a valid
   * deny on stdout, or `on_failure = "deny"`), `none` for no decision or a failure.
   */
  decision: 'allow' | 'deny' | 'none';
  /** The deny (or allow) reason. */
  reason?: string;
  /** `metadata` from the hook's output. */
  metadata?: Record<string, unknown>;
  /** The failure kind, when `status` is `failed`. */
  failure?: HookFailureKind;
  /** What went wrong, when `status` is `failed`. */
  failureMessage?: string;
  /** True when a deny on an observe-only event was recorded as `hook_decision_ignored`. */
  ignored?: boolean;
  /**
   * True when a Claude Code hook answered `permissionDecision: "ask"` on PreToolUse (spec §7): the
   * permission callback is asked even when the risk class is `allow`; `reason` says why.
   */
  ask?: boolean;
  /**
   * The context the hook added for the model (spec §13.1: soong's `context`, Claude Code's
   * `additionalContext`, …), as the hook gave it. The engine delivers it as a hook-context node
   * when `[hooks] deliver_context` is true (see `HookOutcome.context`); otherwise it was dropped,
   * with a warning.
   */
  context?: string;
  /** Exit code, or null (killed by a signal, never started, or a worker hook). */
  exitCode: number | null;
  /** Signal that ended the hook, or null. */
  signal: string | null;
  /** Wall time of the hook, in milliseconds, rounded to 0.1 ms. */
  durationMs: number;
  /** The last {@link HOOK_STDERR_LOG_BYTES} bytes of the hook's stdout ('' when it never ran). */
  stdout: string;
  /** The last {@link HOOK_STDERR_LOG_BYTES} bytes of the hook's stderr ('' when it never ran). */
  stderr: string;
  /** All bytes the hook wrote to stdout (more than `stdout` holds when it was long). */
  stdoutBytes: number;
  /** All bytes the hook wrote to stderr (more than `stderr` holds when it was long). */
  stderrBytes: number;
}

/** What a run left on stderr: its end, and how many bytes it wrote in all. */
interface StderrOf {
  /** The end of stderr (at most {@link HOOK_STDERR_LOG_BYTES}). */
  stderrTail: string;
  /** All bytes written to stderr. */
  stderrBytes: number;
  /** Wall time of the run, in milliseconds. */
  durationMs: number;
}

/**
 * What one hook run came to, the same for a spawned process and a worker call, before anyone
 * decided what it means:
 * - `exited`: a spawned hook ran to its end (its exit code and stdout decide);
 * - `answered`: a worker answered the call with `{"id": N, "output": ...}` (`lines`: the stdout
 *   lines it printed before that were not a response, recorded as `hook_log`);
 * - `failed`: the run failed before anything could decide (never started, timed out, printed too
 *   much, cancelled, a worker that exited or answered with something else). `deny` is a deny the
 *   hook meant that stands despite the failure (spec §2.2).
 */
export type HookRunOutcome =
  | ({
      kind: 'exited';
      exitCode: number | null;
      signal: string | null;
      stdout: string;
      stdoutBytes: number;
    } & StderrOf)
  | ({ kind: 'answered'; output: unknown; lines?: readonly string[] } & StderrOf)
  | ({
      kind: 'failed';
      failure: HookFailureKind;
      message: string;
      exitCode: number | null;
      signal: string | null;
      stdout?: string;
      stdoutBytes?: number;
      lines?: readonly string[];
      deny?: { reason?: string };
    } & StderrOf);

/** Everything {@link decideHookRun} needs: no clock, no I/O. */
export interface DecideHookRunInput {
  /** The hook that ran. */
  hook: Pick<HookCommandConfig, 'id' | 'onFailure'>;
  /** The event it ran for (decides `hook_denied` against `hook_decision_ignored`). */
  event: HookEvent;
  /** What the run came to. */
  outcome: HookRunOutcome;
  /** The dialect the hook speaks. @default soongDialect */
  dialect?: Dialect;
  /**
   * True when this hook's unknown output keys were already reported in this session (they are
   * reported once per hook and session).
   * @default false
   */
  unknownKeysReported?: boolean;
  /**
   * `[hooks] deliver_context`: when false, context the hook added is dropped with one `hook_log`
   * warning that names the config line turning delivery on (spec §13.1).
   * @default false
   */
  deliverContext?: boolean;
}

/** The record types of one hook run after `hook_started`. */
type HookRunRecordType =
  | 'hook_log'
  | 'hook_finished'
  | 'hook_failed'
  | 'hook_denied'
  | 'hook_decision_ignored';

/**
 * A record of one hook run, without the ids (`hook_id`, `event`, `call_id`) the engine adds: the
 * protocol's record schemas, not a copy of them.
 */
export type HookRunRecord = {
  [T in HookRunRecordType]: WithoutHookRecordIds<EventRecordBodyOf<T>>;
}[HookRunRecordType];

/** What {@link decideHookRun} decided. */
export interface HookRunDecision {
  /** The run's result, as `engine.run` returns it. */
  result: HookRunResult;
  /**
   * The records after `hook_started`, in spec §5 order: any `hook_log`, then `hook_finished` or
   * `hook_failed`, then `hook_denied` or `hook_decision_ignored` when a deny stands.
   */
  records: HookRunRecord[];
  /** True when the records report this hook's unknown output keys (remember it for the session). */
  reportedUnknownKeys: boolean;
}

const BLOCKING: ReadonlySet<string> = new Set(BLOCKING_EVENTS);

/** The outcome of a spawned hook from the runner's result (spec §2.2 failures first). */
export function outcomeOfRunResult(
  result: RunResult,
  limits: { timeoutSec: number; maxOutputBytes: number },
): HookRunOutcome {
  const common = {
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdoutTail,
    stdoutBytes: result.stdoutBytes,
    stderrTail: result.stderrTail,
    stderrBytes: result.stderrBytes,
    durationMs: result.durationMs,
  };
  const failed = (failure: HookFailureKind, message: string): HookRunOutcome => ({
    kind: 'failed',
    failure,
    message,
    ...common,
  });
  if (result.aborted) return failed('aborted', 'the run was cancelled');
  if (result.timedOut) return failed('timeout', timeoutMessage(limits.timeoutSec));
  if (result.stdoutLimitExceeded) {
    return failed('output_too_large', outputTooLargeMessage(limits.maxOutputBytes));
  }
  return { kind: 'exited', ...common, stdout: result.stdout };
}

/**
 * The outcome of a hook that never started (the runner rejected, or a check refused it), or whose
 * spawn helper was lost while it ran (`helper_failed`).
 */
export function outcomeOfStartError(error: unknown, durationMs: number): HookRunOutcome {
  const code = RunnerError.isInstance(error) ? error.code : undefined;
  // A spawn helper lost mid-run is not "nothing ran": the hook may have run and its answer is lost.
  const failure: HookFailureKind =
    code === 'CWD_INVALID'
      ? 'cwd_invalid'
      : code === 'HELPER_FAILED'
        ? 'helper_failed'
        : 'spawn_error';
  return {
    kind: 'failed',
    failure,
    message: error instanceof Error ? error.message : String(error),
    exitCode: null,
    signal: null,
    stderrTail: '',
    stderrBytes: 0,
    durationMs,
  };
}

// A dialect that throws (a third party's, or an answer its walk cannot take) fails the hook as a
// protocol error: the run's records still close, and `on_failure` applies.
function guarded(dialect: Dialect, decide: () => DialectVerdict): DialectVerdict {
  try {
    return decide();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      decision: 'none',
      failure: {
        kind: 'protocol_error',
        message: `the "${dialect.name}" dialect could not read the answer: ${reason}`,
      },
      logs: [],
    };
  }
}

/** @internal The `timeout` message (spawn and worker alike). */
export function timeoutMessage(timeoutSec: number): string {
  return `hook ran past its timeout of ${timeoutSec} s; its process group was killed`;
}

/** @internal The `output_too_large` message (spawn and worker alike). */
export function outputTooLargeMessage(maxOutputBytes: number): string {
  return `hook printed more than ${maxOutputBytes} bytes on stdout; it was stopped`;
}

/**
 * Decides what one hook run means (spec §2.2, §2.3, §7, §12) and which records say so (spec §5):
 * the dialect reads what came back, this turns its verdict into records, bounds reasons and log
 * lines, and applies `on_failure`, the same way for every dialect and for spawn and worker runs.
 * Pure: the engine spawns and writes; this only decides.
 */
export function decideHookRun(input: DecideHookRunInput): HookRunDecision {
  const { hook, event, outcome } = input;
  const records: HookRunRecord[] = [];
  if (outcome.stderrBytes > 0) {
    records.push({ type: 'hook_log', source: 'stderr', message: stderrLog(outcome) });
  }
  for (const line of outcome.kind === 'exited' ? [] : (outcome.lines ?? [])) {
    records.push({ type: 'hook_log', source: 'logs', message: boundLine(line) });
  }
  const verdict = verdictOf(outcome, event, input.dialect ?? soongDialect);
  const logs = recordVerdictLogs(verdict, input.unknownKeysReported, records);
  const context = verdict.context === '' ? undefined : verdict.context;
  if (context !== undefined && input.deliverContext !== true) {
    records.push({ type: 'hook_log', source: 'warning', message: contextDroppedMessage(context) });
  }
  if (logs.droppedLines > 0) {
    records.push({
      type: 'hook_log',
      source: 'warning',
      message: `${logs.droppedLines} more logs lines not recorded (at most ${HOOK_LOG_LINES_MAX} per run)`,
    });
  }
  const failureKind: HookFailureKind | undefined =
    outcome.kind === 'failed' ? outcome.failure : verdict.failure?.kind;
  const result =
    failureKind === undefined
      ? finishedResult(input, verdict, context, records)
      : failedResult(input, verdict, failureKind, context, records);
  return settle(hook, event, result, records, logs.reportedUnknownKeys);
}

// What the dialect makes of the run: a failure the runner or the pool saw, an exited process, or a
// worker's answer.
function verdictOf(outcome: HookRunOutcome, event: HookEvent, dialect: Dialect): DialectVerdict {
  if (outcome.kind === 'failed') {
    return {
      decision: outcome.deny === undefined ? 'none' : 'deny',
      ...(outcome.deny?.reason === undefined ? {} : { reason: outcome.deny.reason }),
      failure: { kind: 'exit_code', message: outcome.message },
      logs: [],
    };
  }
  if (outcome.kind === 'exited') {
    return guarded(dialect, () =>
      dialect.decide(event, {
        exitCode: outcome.exitCode,
        signal: outcome.signal,
        stdout: outcome.stdout,
        stderrTail: outcome.stderrTail,
        stderrBytes: outcome.stderrBytes,
      }),
    );
  }
  if (dialect.decideAnswer !== undefined) {
    const decideAnswer = dialect.decideAnswer.bind(dialect);
    return guarded(dialect, () => decideAnswer(event, outcome.output));
  }
  return {
    decision: 'none',
    failure: {
      kind: 'protocol_error',
      message: `hooks of protocol "${dialect.name}" cannot run as workers`,
    },
    logs: [],
  };
}

// The verdict's log lines (at most HOOK_LOG_LINES_MAX) and warnings, with the unknown-keys warning
// before the first warning (once per hook and session): whether it was recorded now, and how many
// log lines were not.
function recordVerdictLogs(
  verdict: DialectVerdict,
  unknownKeysReported: boolean | undefined,
  records: HookRunRecord[],
): { reportedUnknownKeys: boolean; droppedLines: number } {
  let reportedUnknownKeys = false;
  let logLines = 0;
  let unknownPending =
    verdict.unknownKeys !== undefined &&
    verdict.unknownKeys.length > 0 &&
    unknownKeysReported !== true;
  const reportUnknown = () => {
    if (!unknownPending) return;
    unknownPending = false;
    reportedUnknownKeys = true;
    const keys = (verdict.unknownKeys ?? []).map((key) => JSON.stringify(key)).join(', ');
    records.push({
      type: 'hook_log',
      source: 'warning',
      message: `unknown output keys ignored: ${keys} (reported once per hook and session)`,
    });
  };
  for (const log of verdict.logs) {
    if (log.source === 'logs') {
      logLines += 1;
      if (logLines <= HOOK_LOG_LINES_MAX) {
        records.push({ type: 'hook_log', source: 'logs', message: boundLine(log.message) });
      }
      continue;
    }
    reportUnknown();
    records.push({ type: 'hook_log', source: 'warning', message: boundLine(log.message) });
  }
  reportUnknown();
  return { reportedUnknownKeys, droppedLines: Math.max(0, logLines - HOOK_LOG_LINES_MAX) };
}

// The run's exit as a result carries it (a worker's answer has no exit code or stdout).
function exitedFields(outcome: HookRunOutcome) {
  const answered = outcome.kind === 'answered';
  return {
    exitCode: answered ? null : outcome.exitCode,
    signal: answered ? null : outcome.signal,
    stdout: answered ? '' : tail(outcome.stdout ?? ''),
    stderr: outcome.stderrTail,
    stdoutBytes: answered ? 0 : (outcome.stdoutBytes ?? 0),
    stderrBytes: outcome.stderrBytes,
  };
}

// A run that failed: `hook_failed`, and the deny it intended, which stands (spec §2.2).
function failedResult(
  input: DecideHookRunInput,
  verdict: DialectVerdict,
  failureKind: HookFailureKind,
  context: string | undefined,
  records: HookRunRecord[],
): HookRunResult {
  const { hook, outcome } = input;
  const durationMs = roundMs(outcome.durationMs);
  const exited = exitedFields(outcome);
  const message = outcome.kind === 'failed' ? outcome.message : (verdict.failure?.message ?? '');
  records.push({
    type: 'hook_failed',
    failure: failureKind,
    message,
    exit_code: exited.exitCode,
    signal: exited.signal,
    on_failure: hook.onFailure,
    duration_ms: durationMs,
  });
  const result: HookRunResult = {
    hookId: hook.id,
    status: 'failed',
    decision: 'none',
    failure: failureKind,
    failureMessage: message,
    ...exited,
    durationMs,
  };
  if (verdict.decision !== 'deny') return result;
  const reason = verdict.reason === undefined ? undefined : boundReason(verdict.reason);
  const { metadata } = verdict;
  return {
    ...result,
    decision: 'deny',
    reason: reason ?? `denied by hook ${hook.id}`,
    ...(metadata === undefined ? {} : { metadata }),
    ...(context === undefined ? {} : { context }),
  };
}

// A run that finished: `hook_finished` with its decision (`ask` only on PreToolUse).
function finishedResult(
  input: DecideHookRunInput,
  verdict: DialectVerdict,
  context: string | undefined,
  records: HookRunRecord[],
): HookRunResult {
  const { hook, event, outcome } = input;
  const durationMs = roundMs(outcome.durationMs);
  const reason = verdict.reason === undefined ? undefined : boundReason(verdict.reason);
  const { metadata } = verdict;
  const ask = verdict.decision === 'ask' && event === 'PreToolUse';
  const decision = verdict.decision === 'ask' ? 'none' : verdict.decision;
  const finalReason = decision === 'deny' ? (reason ?? `denied by hook ${hook.id}`) : reason;
  records.push({
    type: 'hook_finished',
    decision,
    ...(finalReason === undefined ? {} : { reason: finalReason }),
    ...(metadata === undefined ? {} : { metadata }),
    ...(ask ? { permission_decision: 'ask' as const } : {}),
    duration_ms: durationMs,
    exit_code: verdict.exitCode ?? 0,
  });
  return {
    hookId: hook.id,
    status: 'finished',
    decision,
    ...(finalReason === undefined ? {} : { reason: finalReason }),
    ...(metadata === undefined ? {} : { metadata }),
    ...(ask ? { ask: true } : {}),
    ...(context === undefined ? {} : { context }),
    ...exitedFields(outcome),
    durationMs,
  };
}

// spec §2.2: with on_failure = "deny" a failure counts as a deny; a standing deny is recorded as
// hook_denied on a blocking event, hook_decision_ignored elsewhere (spec §2.3, §5).
function settle(
  hook: Pick<HookCommandConfig, 'id' | 'onFailure'>,
  event: HookEvent,
  decided: HookRunResult,
  records: HookRunRecord[],
  reportedUnknownKeys: boolean,
): HookRunDecision {
  let result = decided;
  if (result.status === 'failed' && result.decision !== 'deny' && hook.onFailure === 'deny') {
    result = { ...result, decision: 'deny', reason: `hook ${hook.id} failed: ${result.failure}` };
  }
  if (result.decision === 'deny') {
    const reason = result.reason ?? `denied by hook ${hook.id}`;
    if (BLOCKING.has(event)) {
      records.push({ type: 'hook_denied', reason });
      result = { ...result, reason };
    } else {
      records.push({ type: 'hook_decision_ignored', reason });
      result = { ...result, reason, ignored: true };
    }
  }
  return { result, records, reportedUnknownKeys };
}

/** @internal The warning when context a hook added is dropped (`deliver_context = false`). */
export function contextDroppedMessage(context: string): string {
  return `context the hook added (${Buffer.byteLength(context)} bytes) was dropped, not given to the model: context delivery is off. To deliver it, put deliver_context = true under [hooks] in config.toml (spec §13.1)`;
}

function boundLine(line: string): string {
  const half = HOOK_LOG_LINE_BYTES / 2;
  return summarizeText(line, { headBytes: half, tailBytes: half });
}

function tail(text: string): string {
  if (text.length <= HOOK_STDERR_LOG_BYTES / 4) return text;
  return utf8Tail(text, HOOK_STDERR_LOG_BYTES);
}

/**
 * @internal The end of `text` in at most `maxBytes` UTF-8 bytes, starting at a whole character:
 * a character cut by the window is left out, never turned into U+FFFD.
 */
export function utf8Tail(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - maxBytes;
  // Continuation bytes (10xxxxxx) at the cut belong to a character that starts before it.
  while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start).toString('utf8');
}

/** @internal A reason bounded to {@link HOOK_REASON_BYTES}. */
export function boundReason(reason: string): string {
  if (Buffer.byteLength(reason) <= HOOK_REASON_BYTES) return reason;
  return summarizeText(reason, {
    headBytes: HOOK_REASON_BYTES / 2,
    tailBytes: HOOK_REASON_BYTES / 4,
  });
}

// The tail is the real end of stderr, also after a flood past max_output_bytes.
function stderrLog(outcome: { stderrTail: string; stderrBytes: number }): string {
  const dropped = outcome.stderrBytes - Buffer.byteLength(outcome.stderrTail);
  return dropped > 0
    ? `[... ${dropped} bytes of stderr not kept ...]\n${outcome.stderrTail}`
    : outcome.stderrTail;
}
