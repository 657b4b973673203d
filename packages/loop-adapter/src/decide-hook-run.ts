import type { HookCommandConfig } from '@soong-agent/config';
import {
  BLOCKING_EVENTS,
  type HookEvent,
  type HookFailureKind,
  type HookOutput,
  safeParseHookOutput,
} from '@soong-agent/protocol';
import { RunnerError, type RunResult } from '@soong-agent/runner';
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
  /** `finished`: it produced a decision or none; `failed`: SPEC §2.2 failure. */
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
   * True when a Claude Code hook answered `permissionDecision: "ask"` on PreToolUse (SPEC §7): the
   * permission callback is asked even when the risk class is `allow`; `reason` says why.
   */
  ask?: boolean;
  /** Exit code, or null (killed by a signal, or never started). */
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

/** What the runner gave back for one hook: its result, or what it rejected with (nothing ran). */
export type HookRunnerOutcome =
  | { result: RunResult }
  | { error: unknown /** Wall time until the rejection. */; durationMs: number }
  | { failed: FailedHookRun };

/**
 * A run that failed in a way only a worker hook can (SPEC §8): the worker exited while serving the
 * call or cannot be restarted (`worker_exited`), or it answered with a line that is not a response
 * to the call (`protocol_error`).
 */
export interface FailedHookRun {
  failure: HookFailureKind;
  message: string;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  /** The worker's stderr since the previous call (its end). */
  stderr: string;
  /** All bytes of that stderr. */
  stderrBytes: number;
}

/** Everything {@link decideHookRun} needs: no clock, no I/O. */
export interface DecideHookRunInput {
  /** The hook that ran. */
  hook: Pick<HookCommandConfig, 'id' | 'timeoutSec' | 'onFailure'>;
  /** The event it ran for (decides `hook_denied` against `hook_decision_ignored`). */
  event: HookEvent;
  /** What the runner gave back. */
  ran: HookRunnerOutcome;
  /** `runner.max_output_bytes`, named in the `output_too_large` message. */
  maxOutputBytes: number;
  /**
   * True when this hook's unknown output keys were already reported in this session (they are
   * reported once per hook and session).
   * @default false
   */
  unknownKeysReported?: boolean;
}

/** A record of one hook run, without the ids (`hook_id`, `event`, `call_id`) the engine adds. */
export type HookRunRecord =
  | { type: 'hook_log'; source: 'stderr' | 'logs' | 'warning'; message: string }
  | {
      type: 'hook_finished';
      decision: 'allow' | 'deny' | 'none';
      reason?: string;
      metadata?: Record<string, unknown>;
      /** `"ask"`: a Claude Code hook asked for the permission prompt (SPEC §7). */
      permission_decision?: 'ask';
      duration_ms: number;
      /** 0, or 2 for a Claude Code hook's exit-2 block (SPEC §7). */
      exit_code: number;
    }
  | {
      type: 'hook_failed';
      failure: HookFailureKind;
      message: string;
      exit_code: number | null;
      signal: string | null;
      on_failure: 'ignore' | 'deny';
      duration_ms: number;
    }
  | { type: 'hook_denied'; reason: string }
  | { type: 'hook_decision_ignored'; reason: string };

/** What {@link decideHookRun} decided. */
export interface HookRunDecision {
  /** The run's result, as `engine.run` returns it. */
  result: HookRunResult;
  /**
   * The records after `hook_started`, in SPEC §5 order: any `hook_log`, then `hook_finished` or
   * `hook_failed`, then `hook_denied` or `hook_decision_ignored` when a deny stands.
   */
  records: HookRunRecord[];
  /** True when the records report this hook's unknown output keys (remember it for the session). */
  reportedUnknownKeys: boolean;
}

// What the hook process left behind, copied into its HookRunResult.
/** @internal */
export type Exited = Pick<
  HookRunResult,
  'exitCode' | 'signal' | 'stdout' | 'stderr' | 'stdoutBytes' | 'stderrBytes'
>;
const NOT_RUN: Exited = Object.freeze({
  exitCode: null,
  signal: null,
  stdout: '',
  stderr: '',
  stdoutBytes: 0,
  stderrBytes: 0,
});
const BLOCKING: ReadonlySet<string> = new Set(BLOCKING_EVENTS);

/**
 * Decides what one hook run means (SPEC §2.2, §2.3) and which records say so (SPEC §5), from the
 * runner's result alone. A pure function: the engine spawns and writes; this only decides.
 */
export function decideHookRun(input: DecideHookRunInput): HookRunDecision {
  const records: HookRunRecord[] = [];
  return settleHookRun(input, decideOutcome(input, records), records);
}

/**
 * The part of a decision every protocol shares: `on_failure = "deny"` turns a failure into a deny,
 * and a standing deny is recorded as `hook_denied` on a blocking event, `hook_decision_ignored`
 * elsewhere (SPEC §2.2, §2.3, §5). `records` are the run's records so far, in order.
 */
export function settleHookRun(
  input: Pick<DecideHookRunInput, 'hook' | 'event'>,
  decided: { result: HookRunResult; reportedUnknownKeys: boolean },
  records: HookRunRecord[],
): HookRunDecision {
  const { hook, event } = input;
  let result = decided.result;
  // SPEC §2.2: with on_failure = "deny" a failure counts as a deny; on an observe-only event that
  // deny changes nothing and is recorded as hook_decision_ignored (SPEC §2.3, §5).
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
  return { result, records, reportedUnknownKeys: decided.reportedUnknownKeys };
}

function decideOutcome(
  input: DecideHookRunInput,
  records: HookRunRecord[],
): { result: HookRunResult; reportedUnknownKeys: boolean } {
  const { hook, ran } = input;
  const fail = (
    failure: HookFailureKind,
    message: string,
    exited: Exited,
    durationMs: number,
  ): HookRunResult => {
    records.push({
      type: 'hook_failed',
      failure,
      message,
      exit_code: exited.exitCode,
      signal: exited.signal,
      on_failure: hook.onFailure,
      duration_ms: durationMs,
    });
    return {
      hookId: hook.id,
      status: 'failed',
      decision: 'none',
      failure,
      failureMessage: message,
      ...exited,
      durationMs,
    };
  };
  // hook_log order: stderr, then the logs lines, then warnings about the output.
  const warnings: HookRunRecord[] = [];
  const warn = (message: string) => {
    warnings.push({ type: 'hook_log', source: 'warning', message });
  };

  if ('failed' in ran) {
    const { failed } = ran;
    if (failed.stderrBytes > 0) {
      records.push({ type: 'hook_log', source: 'stderr', message: stderrLog(failed) });
    }
    const exited: Exited = {
      exitCode: failed.exitCode,
      signal: failed.signal,
      stdout: '',
      stderr: failed.stderr,
      stdoutBytes: 0,
      stderrBytes: failed.stderrBytes,
    };
    return {
      result: fail(failed.failure, failed.message, exited, roundMs(failed.durationMs)),
      reportedUnknownKeys: false,
    };
  }
  if (!('result' in ran)) {
    const kind: HookFailureKind =
      RunnerError.isInstance(ran.error) && ran.error.code === 'CWD_INVALID'
        ? 'cwd_invalid'
        : 'spawn_error';
    const message = ran.error instanceof Error ? ran.error.message : String(ran.error);
    return {
      result: fail(kind, message, NOT_RUN, roundMs(ran.durationMs)),
      reportedUnknownKeys: false,
    };
  }

  const { result } = ran;
  if (result.stderrBytes > 0) {
    records.push({ type: 'hook_log', source: 'stderr', message: stderrLog(result) });
  }
  // The runner rounds already; a custom runner (tests, benchmarks) may not.
  const durationMs = roundMs(result.durationMs);
  const exited = exitedOf(result);
  const failed = (failure: HookFailureKind, message: string) => ({
    result: fail(failure, message, exited, durationMs),
    reportedUnknownKeys: false,
  });
  if (result.aborted) return failed('aborted', 'the run was cancelled');
  if (result.timedOut) {
    return failed(
      'timeout',
      `hook ran past its timeout of ${hook.timeoutSec} s; its process group was killed`,
    );
  }
  if (result.stdoutLimitExceeded) {
    return failed(
      'output_too_large',
      `hook printed more than ${input.maxOutputBytes} bytes on stdout; it was stopped`,
    );
  }

  const parsed = safeParseHookOutput(result.stdout);
  let output: HookOutput | null | undefined;
  let reportedUnknownKeys = false;
  if (parsed.success) {
    output = parsed.output;
    if (parsed.unknownKeys.length > 0 && input.unknownKeysReported !== true) {
      reportedUnknownKeys = true;
      const keys = parsed.unknownKeys.map((key) => JSON.stringify(key)).join(', ');
      warn(`unknown output keys ignored: ${keys} (reported once per hook and session)`);
    }
  } else if (parsed.deny) {
    output = parsed.deny;
    warn(`${parsed.error.message}; ${parsed.denyNote ?? 'the deny stands'}`);
  }
  if (output?.reason !== undefined) output = { ...output, reason: boundReason(output.reason) };
  if (output) recordLogs(records, output.logs, warn);
  records.push(...warnings);

  if (result.exitCode !== 0) {
    const failure = fail('exit_code', exitMessage(result), exited, durationMs);
    if (output?.decision !== 'deny') return { result: failure, reportedUnknownKeys };
    return {
      result: { ...failure, decision: 'deny', ...reasonOf(hook, output) },
      reportedUnknownKeys,
    };
  }
  if (output === undefined) {
    const message = parsed.success ? 'invalid hook output' : parsed.error.message;
    return { result: fail('protocol_error', message, exited, durationMs), reportedUnknownKeys };
  }
  const decision = output?.decision ?? 'none';
  records.push({
    type: 'hook_finished',
    decision,
    ...optional('reason', output?.reason),
    ...optional('metadata', output?.metadata),
    duration_ms: durationMs,
    exit_code: 0,
  });
  const finished: HookRunResult = {
    hookId: hook.id,
    status: 'finished',
    decision,
    ...optional('reason', output?.reason),
    ...optional('metadata', output?.metadata),
    ...exited,
    durationMs,
  };
  return {
    result: output?.decision === 'deny' ? { ...finished, ...reasonOf(hook, output) } : finished,
    reportedUnknownKeys,
  };
}

function recordLogs(
  records: HookRunRecord[],
  logs: readonly string[] | undefined,
  warn: (message: string) => void,
): void {
  if (!logs) return;
  const half = HOOK_LOG_LINE_BYTES / 2;
  for (const line of logs.slice(0, HOOK_LOG_LINES_MAX)) {
    const message = summarizeText(line, { headBytes: half, tailBytes: half });
    records.push({ type: 'hook_log', source: 'logs', message });
  }
  if (logs.length > HOOK_LOG_LINES_MAX) {
    warn(
      `${logs.length - HOOK_LOG_LINES_MAX} more logs lines not recorded (at most ${HOOK_LOG_LINES_MAX} per run)`,
    );
  }
}

/** @internal What the hook process left behind (shared with the Claude Code protocol). */
export function exitedOf(result: RunResult): Exited {
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdoutTail,
    stderr: result.stderrTail,
    stdoutBytes: result.stdoutBytes,
    stderrBytes: result.stderrBytes,
  };
}

/** @internal shared with the Claude Code protocol. */
export function boundReason(reason: string): string {
  if (Buffer.byteLength(reason) <= HOOK_REASON_BYTES) return reason;
  return summarizeText(reason, {
    headBytes: HOOK_REASON_BYTES / 2,
    tailBytes: HOOK_REASON_BYTES / 4,
  });
}

/** Why a hook that exited non-zero failed (for exit 2, how to write a deny instead). */
function exitMessage(result: RunResult): string {
  if (result.exitCode === null) return `hook was killed by ${result.signal ?? 'a signal'}`;
  const base = `hook exited with code ${result.exitCode}`;
  if (result.exitCode !== 2) return base;
  return (
    `${base}. Claude Code treats exit 2 as a block; here a deny is printed as JSON on stdout, ` +
    `e.g. {"decision":"deny","reason":"..."} (exit 0), or a Claude Code hook declares ` +
    `"protocol": "claude-code" in hooks.json`
  );
}

// The runner's tail is the real end of stderr, also after a flood past max_output_bytes.
/** @internal shared with the Claude Code protocol. */
export function stderrLog(
  result: { stderrTail: string; stderrBytes: number } | FailedHookRun,
): string {
  const tail = 'stderrTail' in result ? result.stderrTail : result.stderr;
  const dropped = result.stderrBytes - Buffer.byteLength(tail);
  return dropped > 0 ? `[... ${dropped} bytes of stderr not kept ...]\n${tail}` : tail;
}

function reasonOf(
  hook: Pick<HookCommandConfig, 'id'>,
  output: HookOutput,
): { reason: string; metadata?: Record<string, unknown> } {
  return {
    reason: output.reason ?? `denied by hook ${hook.id}`,
    ...optional('metadata', output.metadata),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
