import type { HookCommandConfig } from '@soong-agent/config';
import type { HookEvent, WorkerStopReason } from '@soong-agent/protocol';
import {
  type RunResult,
  startWorker,
  type Worker,
  type WorkerExit,
  type WorkerOptions,
} from '@soong-agent/runner';
import type { HookRunnerOutcome } from './decide-hook-run.js';
import { roundMs } from './round-ms.js';

/** Starts of one worker hook allowed within {@link WORKER_RESTART_WINDOW_MS} (SPEC §8). */
export const WORKER_MAX_STARTS = 3;
/** The window of {@link WORKER_MAX_STARTS}, in milliseconds. */
export const WORKER_RESTART_WINDOW_MS = 60_000;

/** A `worker_started` or `worker_stopped` record, without `hook_id` and `event`. */
export type WorkerRecord =
  | { type: 'worker_started'; pid: number }
  | {
      type: 'worker_stopped';
      reason: WorkerStopReason;
      exit_code?: number | null;
      signal?: string | null;
    }
  | { type: 'hook_log'; source: 'stderr'; message: string };

/** What one call to a worker hook came to. */
export interface WorkerCall {
  /** The runner outcome the engine decides on, as for a spawn hook. */
  ran: HookRunnerOutcome;
  /** Records to write after the call's own records (the worker was stopped by this call). */
  after: WorkerRecord[];
}

/** What the engine gives the pool to start a worker: the runner options of a spawn hook. */
export type WorkerStartOptions = Omit<
  WorkerOptions,
  'onStdoutLine' | 'onStderrLine' | 'onStdoutOverflow' | 'maxLineBytes'
>;

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /** Bytes of one response line (`runner.max_output_bytes`); a longer one is `output_too_large`. */
  maxLineBytes: number;
  /** Bytes of stderr kept per call for its `hook_log` (the end of it). */
  stderrTailBytes: number;
  /** Writes records the pool produces outside a call (a worker that exits while idle). */
  emit(hookId: string, event: HookEvent, record: WorkerRecord): void;
  /** @default startWorker (tests) */
  start?: typeof startWorker;
}

/** The worker hooks of one session: at most one live process per hook. */
export interface WorkerPool {
  /**
   * Makes sure the hook has a live worker (starting one: `onStarted` gets its `worker_started`
   * record before the call's own records), then sends it one request and waits for the answer.
   */
  call(request: {
    hook: HookCommandConfig;
    event: HookEvent;
    start: WorkerStartOptions;
    input: string;
    signal: AbortSignal | undefined;
    onStarted: (record: WorkerRecord) => void;
    /** Called once the call begins (after any `onStarted`), before its request or its failure. */
    onReady: () => void;
  }): Promise<WorkerCall>;
  /** Stops every worker (`session_end`); resolves when they are gone. Idempotent. */
  close(): Promise<void>;
}

interface Slot {
  worker: Worker;
  event: HookEvent;
  nextId: number;
  /** The stderr lines since the last call ended, bounded to stderrTailBytes (the end). */
  stderr: string[];
  stderrBytes: number;
  stderrKept: number;
  /** The call in flight's handlers; undefined when idle. */
  pending: ((line: string) => void) | undefined;
  overflow: ((bytes: number) => void) | undefined;
  /** The call in flight's exit handler (one `exited` subscription per worker, not one per call). */
  exit: ((exit: WorkerExit) => void) | undefined;
  /** Set once the pool decided why this worker stops (so `exited` does not record it again). */
  stopReason: WorkerStopReason | undefined;
}

/**
 * The supervision of SPEC §8: lazy start, one request in flight, a per-call timeout that kills the
 * worker (the next call starts a fresh one), a restart budget, and the records around it.
 */
export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const start = options.start ?? startWorker;
  const slots = new Map<string, Slot>();
  const starts = new Map<string, number[]>();
  const exhausted = new Set<string>();
  let closing: Promise<void> | undefined;

  const stopRecord = (reason: WorkerStopReason, exit: WorkerExit): WorkerRecord => ({
    type: 'worker_stopped',
    reason,
    exit_code: exit.exitCode,
    signal: exit.signal,
  });

  async function ensure(
    hook: HookCommandConfig,
    event: HookEvent,
    startOptions: WorkerStartOptions,
    onStarted: (record: WorkerRecord) => void,
  ): Promise<Slot | { error: unknown } | { budget: string }> {
    const live = slots.get(hook.id);
    if (live !== undefined && !live.worker.hasExited) return live;
    if (exhausted.has(hook.id)) return { budget: budgetMessage(hook.id) };
    const now = Date.now();
    const recent = (starts.get(hook.id) ?? []).filter((at) => now - at < WORKER_RESTART_WINDOW_MS);
    if (recent.length >= WORKER_MAX_STARTS) {
      exhausted.add(hook.id);
      return { budget: budgetMessage(hook.id) };
    }
    const slot: Slot = {
      worker: undefined as unknown as Worker,
      event,
      nextId: 1,
      stderr: [],
      stderrBytes: 0,
      stderrKept: 0,
      pending: undefined,
      overflow: undefined,
      exit: undefined,
      stopReason: undefined,
    };
    try {
      slot.worker = await start({
        ...startOptions,
        maxLineBytes: options.maxLineBytes,
        onStdoutLine: (line) => slot.pending?.(line),
        onStdoutOverflow: (bytes) => slot.overflow?.(bytes),
        onStderrLine: (line) => keepStderr(slot, line, options.stderrTailBytes),
      });
    } catch (error) {
      return { error };
    }
    recent.push(now);
    starts.set(hook.id, recent);
    slots.set(hook.id, slot);
    onStarted({ type: 'worker_started', pid: slot.worker.pid });
    void slot.worker.exited.then((exit) => {
      // Exited while serving a call: that call records it with its own result.
      if (slot.pending !== undefined) {
        slot.exit?.(exit);
        return;
      }
      // Exited while idle: record it once, now.
      if (slot.stopReason !== undefined) return;
      slot.stopReason = 'exited';
      const log = takeStderr(slot);
      if (log !== undefined) options.emit(hook.id, slot.event, log);
      options.emit(hook.id, slot.event, stopRecord('exited', exit));
    });
    return slot;
  }

  return {
    async call({ hook, event, start: startOptions, input, signal, onStarted, onReady }) {
      if (closing !== undefined) throw new Error('the worker pool is closed');
      const startedAt = performance.now();
      const ensured = await ensure(hook, event, startOptions, onStarted);
      onReady();
      if ('budget' in ensured) {
        return {
          ran: {
            failed: {
              failure: 'worker_exited',
              message: ensured.budget,
              exitCode: null,
              signal: null,
              durationMs: roundMs(performance.now() - startedAt),
              stderr: '',
              stderrBytes: 0,
            },
          },
          after: [],
        };
      }
      if ('error' in ensured) {
        return {
          ran: { error: ensured.error, durationMs: performance.now() - startedAt },
          after: [],
        };
      }
      return serve(ensured, hook, input, signal, startedAt);
    },
    close() {
      closing ??= Promise.all(
        [...slots.entries()].map(async ([hookId, slot]) => {
          if (slot.stopReason !== undefined) return;
          slot.stopReason = 'session_end';
          const exit = await slot.worker.stop();
          const log = takeStderr(slot);
          if (log !== undefined) options.emit(hookId, slot.event, log);
          options.emit(hookId, slot.event, stopRecord('session_end', exit));
        }),
      ).then(() => undefined);
      return closing;
    },
  };

  function serve(
    slot: Slot,
    hook: HookCommandConfig,
    input: string,
    signal: AbortSignal | undefined,
    startedAt: number,
  ): Promise<WorkerCall> {
    const id = slot.nextId++;
    return new Promise<WorkerCall>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let done = false;
      const finish = (
        outcome:
          | { output: string }
          | {
              kill: 'timeout' | 'output_too_large' | 'protocol_error' | 'aborted';
              message?: string;
            }
          | { exited: WorkerExit },
      ): void => {
        if (done) return;
        done = true;
        slot.pending = undefined;
        slot.overflow = undefined;
        slot.exit = undefined;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        void settle(outcome).then(resolve);
      };
      const settle = async (outcome: Parameters<typeof finish>[0]): Promise<WorkerCall> => {
        const durationMs = roundMs(performance.now() - startedAt);
        if ('exited' in outcome) {
          slot.stopReason ??= 'exited';
          const { message: stderr, bytes: stderrBytes } = joinStderr(slot);
          const exit = outcome.exited;
          const how =
            exit.exitCode === null
              ? `was killed by ${exit.signal ?? 'a signal'}`
              : `exited with code ${exit.exitCode}`;
          return {
            ran: {
              failed: {
                failure: 'worker_exited',
                message: `worker of hook ${hook.id} ${how} while serving request ${id}; the next call starts a fresh one`,
                exitCode: exit.exitCode,
                signal: exit.signal,
                durationMs,
                stderr,
                stderrBytes,
              },
            },
            after: [stopRecord('exited', exit)],
          };
        }
        const { message: stderr, bytes: stderrBytes } = joinStderr(slot);
        const result: RunResult = {
          exitCode: 0,
          signal: null,
          timedOut: false,
          aborted: false,
          stdout: '',
          stderr,
          stdoutTail: '',
          stderrTail: stderr,
          stdoutBytes: 0,
          stderrBytes,
          stdoutTruncated: false,
          stderrTruncated: false,
          stdoutLimitExceeded: false,
          durationMs,
        };
        if ('output' in outcome) {
          const bytes = Buffer.byteLength(outcome.output);
          return {
            ran: {
              result: {
                ...result,
                stdout: outcome.output,
                stdoutTail: outcome.output,
                stdoutBytes: bytes,
              },
            },
            after: [],
          };
        }
        // The worker cannot be trusted with the next request: kill it, record why.
        slot.stopReason ??= outcome.kill;
        const exit = await slot.worker.kill();
        const after = [stopRecord(outcome.kill, exit)];
        if (outcome.kill === 'timeout')
          return { ran: { result: { ...result, timedOut: true } }, after };
        if (outcome.kill === 'aborted')
          return { ran: { result: { ...result, aborted: true } }, after };
        if (outcome.kill === 'output_too_large') {
          return { ran: { result: { ...result, stdoutLimitExceeded: true } }, after };
        }
        return {
          ran: {
            failed: {
              failure: 'protocol_error',
              message: outcome.message ?? 'invalid worker response',
              exitCode: null,
              signal: null,
              durationMs,
              stderr,
              stderrBytes,
            },
          },
          after,
        };
      };
      const onAbort = (): void => finish({ kill: 'aborted' });

      slot.pending = (line) => {
        const response = parseResponse(line, id);
        if ('invalid' in response) {
          finish({ kill: 'protocol_error', message: response.invalid });
          return;
        }
        // stderr is another pipe: one more turn lets a line the worker wrote before its answer
        // arrive, so it is recorded with this call rather than the next.
        slot.pending = undefined;
        setImmediate(() => finish({ output: response.output }));
      };
      slot.overflow = () => finish({ kill: 'output_too_large' });
      slot.exit = (exit) => finish({ exited: exit });
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(() => finish({ kill: 'timeout' }), hook.timeoutSec * 1000);
      if (!slot.worker.writeLine(`{"id":${id},"input":${input}}`)) {
        // Its stdin is gone: the call ends with the worker, not at its timeout.
        void slot.worker.exited.then((exit) => finish({ exited: exit }));
      }
    });
  }
}

// A response is one JSON object per line, {"id": N, "output": <hook output>} (SPEC §8). A missing
// or null output is "no decision", like empty stdout; the output itself then goes through the
// ordinary output rules (SPEC §2.2). Anything else fails the call as a protocol_error.
function parseResponse(line: string, id: number): { output: string } | { invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { invalid: notAResponse(`a line that is not JSON: ${clip(line)}`, id) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { invalid: notAResponse(`${clip(line)}, which is not a JSON object`, id) };
  }
  const response = value as { id?: unknown; output?: unknown };
  if (response.id !== id) {
    return {
      invalid: notAResponse(`a response with id ${clip(JSON.stringify(response.id))}`, id),
    };
  }
  if (response.output === undefined || response.output === null) return { output: '' };
  try {
    return { output: JSON.stringify(response.output) };
  } catch {
    return { invalid: notAResponse('an output too deeply nested to read', id) };
  }
}

function notAResponse(what: string, id: number): string {
  return `worker answered request ${id} with ${what}; expected {"id":${id},"output":{...}} on one line`;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function budgetMessage(hookId: string): string {
  return `worker of hook ${hookId} was started ${WORKER_MAX_STARTS} times within ${WORKER_RESTART_WINDOW_MS / 1000} s; it is not restarted again in this session`;
}

function keepStderr(slot: Slot, whole: string, limit: number): void {
  const bytes = Buffer.byteLength(whole) + 1;
  // One line longer than the window keeps its end, like a spawn hook's stderr tail.
  const line =
    bytes > limit
      ? Buffer.from(whole)
          .subarray(-limit + 1)
          .toString('utf8')
      : whole;
  slot.stderr.push(line);
  slot.stderrBytes += bytes;
  slot.stderrKept += Buffer.byteLength(line) + 1;
  while (slot.stderrKept > limit && slot.stderr.length > 1) {
    slot.stderrKept -= Buffer.byteLength(slot.stderr.shift() as string) + 1;
  }
}

function joinStderr(slot: Slot): { message: string; bytes: number } {
  const message = slot.stderr.length === 0 ? '' : `${slot.stderr.join('\n')}\n`;
  const bytes = slot.stderrBytes;
  slot.stderr = [];
  slot.stderrBytes = 0;
  slot.stderrKept = 0;
  return { message, bytes };
}

function takeStderr(slot: Slot): WorkerRecord | undefined {
  const { message, bytes } = joinStderr(slot);
  if (bytes === 0) return undefined;
  const dropped = bytes - Buffer.byteLength(message);
  return {
    type: 'hook_log',
    source: 'stderr',
    message: dropped > 0 ? `[... ${dropped} bytes of stderr not kept ...]\n${message}` : message,
  };
}
