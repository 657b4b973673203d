import type { HookCommandConfig } from '@soong-agent/config/internal';
import { safeParseHookOutput } from '@soong-agent/protocol';
import {
  type EventRecordBodyOf,
  jsonTextWithByteEscapes,
  type WorkerStopReason,
} from '@soong-agent/protocol/internal';
import { startWorker, type Worker, type WorkerExit, type WorkerOptions } from '@soong-agent/runner';
import {
  HOOK_LOG_LINES_MAX,
  type HookRunOutcome,
  outcomeOfStartError,
  outputTooLargeMessage,
  timeoutMessage,
  utf8Tail,
} from './decide-hook-run.js';
import type { HookRecordIds, WithoutHookRecordIds } from './hook-record-ids.js';

/** Starts of one worker hook allowed within {@link WORKER_RESTART_WINDOW_MS} (spec §8). */
export const WORKER_MAX_STARTS = 3;
/** The window of {@link WORKER_MAX_STARTS}, in milliseconds. */
export const WORKER_RESTART_WINDOW_MS = 60_000;

type Ids = HookRecordIds;
type Body<T extends 'worker_started' | 'worker_stopped' | 'hook_started' | 'hook_log'> =
  WithoutHookRecordIds<EventRecordBodyOf<T>>;

/**
 * A record the pool writes, without the ids: the protocol's schemas for `worker_started`,
 * `worker_stopped`, `hook_started` (a worker call's) and `hook_log` (a worker's stderr, or a
 * stdout line between calls).
 */
export type WorkerRecord =
  | Body<'worker_started'>
  | Body<'worker_stopped'>
  | Body<'hook_started'>
  | Body<'hook_log'>;

/** What the engine gives the pool to start a worker: the runner options of a spawn hook. */
export type WorkerStartOptions = Omit<
  WorkerOptions,
  'onStdoutLine' | 'onStderrLine' | 'onStdoutOverflow' | 'maxLineBytes'
>;

/** The timers a pool uses for call timeouts (injectable, for tests with a fake clock). */
export interface WorkerPoolTimers {
  /** Calls `callback` after `ms` milliseconds; returns a handle for `clear` and `refresh`. */
  set(callback: () => void, ms: number): unknown;
  /** Cancels a timer of `set`. */
  clear(handle: unknown): void;
  /**
   * Starts a timer of `set` over: its callback runs `ms` from now, also when it already ran (one
   * timer per worker, restarted for each call, instead of one made and cancelled per call).
   */
  refresh(handle: unknown): void;
}

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /** Bytes of one response line (`runner.max_output_bytes`); a longer one is `output_too_large`. */
  maxLineBytes: number;
  /** Bytes of stderr kept per call for its `hook_log` (the end of it). */
  stderrTailBytes: number;
  /**
   * The one channel for every record the pool writes, in order: `worker_started`, the call's
   * `hook_started`, `worker_stopped` after the call's own records, and what a worker writes
   * between calls. `ids` carry the call id when the record belongs to a call.
   */
  emit(ids: Ids, record: WorkerRecord): void;
  /** Starts a worker. @default startWorker */
  start?: (options: WorkerOptions) => Promise<Worker>;
  /** The clock of the restart budget, in milliseconds. @default Date.now */
  now?: () => number;
  /** Timers of the call timeouts. @default setTimeout / clearTimeout */
  timers?: WorkerPoolTimers;
}

/** One call to a worker hook. */
export interface WorkerCallRequest<T> {
  hook: Pick<HookCommandConfig, 'id' | 'command' | 'timeoutSec'>;
  /** The ids of the call's records. */
  ids: Ids;
  /** How to start the worker when the hook has none (called only then). */
  start(): WorkerStartOptions;
  /** The request's `input`, already serialised (the §2.1 input JSON). */
  input: string;
  signal: AbortSignal | undefined;
  /**
   * Decides and records what the call came to; called once, after `hook_started` and before the
   * `worker_stopped` this call caused.
   */
  settle(outcome: HookRunOutcome): T;
}

/** The worker hooks of one session: at most one live process per hook. */
export interface WorkerPool {
  /**
   * Makes sure the hook has a live worker, sends it one request, waits for the answer and lets
   * `settle` decide: `worker_started`, `hook_started`, the call's records, `worker_stopped`. Calls of
   * one hook take turns (one request in flight per worker, whoever the callers are); a call's
   * timeout runs from its request. A call cancelled or cut by `close` while it waits is never sent
   * (`aborted`).
   */
  call<T>(request: WorkerCallRequest<T>): Promise<T>;
  /**
   * Stops every worker (`session_end`): a call in flight fails as `aborted`. Resolves when they are
   * gone. Idempotent.
   */
  close(): Promise<void>;
}

// The calls of one hook: the one being served, and those waiting for their turn.
interface Queue {
  current: Promise<unknown> | undefined;
  waiting: Job[];
}

interface Job {
  request: WorkerCallRequest<unknown>;
  startedAt: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onAbort?: (() => void) | undefined;
}

// Two turns of the event loop: the second comes after a poll phase that began after this call,
// so a line the worker wrote before now has been read (and handled) by then.
function pendingOutputRead(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

interface InFlight {
  id: number;
  /** stdout lines of this call that were not a response (hook_log records), at most HOOK_LOG_LINES_MAX. */
  lines: string[];
  droppedLines: number;
  finish(ended: Ended): void;
}

type Ended =
  | { output: unknown }
  | {
      kill: 'timeout' | 'output_too_large' | 'protocol_error' | 'aborted' | 'session_end';
      message?: string;
      deny?: { reason?: string };
    }
  | { exited: WorkerExit };

interface Slot {
  worker: Worker;
  /** The ids of the hook's records between calls. */
  ids: Ids;
  nextId: number;
  /** The stderr lines since the last call ended, bounded to stderrTailBytes (the end). */
  stderr: string[];
  stderrBytes: number;
  stderrKept: number;
  call: InFlight | undefined;
  /** Set once, by whoever decided why this worker stops: only that one records `worker_stopped`. */
  stopReason: WorkerStopReason | undefined;
  /** The call timeout (the hook's, fixed): made for the first call, restarted for each one after. */
  timer: unknown;
  /** True once this worker answered a request (a timeout before that suggests it is no worker). */
  answered: boolean;
  /**
   * Settles two turns of the event loop after the last answer was read (see
   * {@link pendingOutputRead}): the next request waits for it, not for two turns of its own.
   */
  readAfterAnswer: Promise<void> | undefined;
}

const REAL_TIMERS: WorkerPoolTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
  refresh: (handle) => {
    (handle as NodeJS.Timeout).refresh();
  },
};

/**
 * The supervision of spec §8: lazy start, one request in flight, a per-call timeout that kills the
 * worker (the next call starts a fresh one), a restart budget, and the records around it.
 */
export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  return new SupervisedWorkers(options);
}

// A call's end as serve() hands it on: how it ended, its log lines, its request id.
interface EndedCall {
  ended: Ended;
  lines: string[];
  id: number;
}

// The pool's state is shared by every step of a call (the slot of each hook, the queues, the restart
// budget, closing), so the steps are the methods of one object rather than closures of a factory.
class SupervisedWorkers implements WorkerPool {
  private readonly options: WorkerPoolOptions;
  private readonly start: (options: WorkerOptions) => Promise<Worker>;
  private readonly now: () => number;
  private readonly timers: WorkerPoolTimers;
  private readonly emit: WorkerPoolOptions['emit'];
  private readonly slots = new Map<string, Slot>();
  private readonly queues = new Map<string, Queue>();
  // Kills of workers that misbehaved between calls, still under way.
  private readonly killing = new Set<Promise<void>>();
  private readonly starts = new Map<string, number[]>();
  private readonly exhausted = new Set<string>();
  private closing: Promise<void> | undefined;

  constructor(options: WorkerPoolOptions) {
    this.options = options;
    this.start = options.start ?? startWorker;
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? REAL_TIMERS;
    this.emit = options.emit;
  }

  call<T>(request: WorkerCallRequest<T>): Promise<T> {
    if (this.closing !== undefined) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise<T>((resolve, reject) => {
      const queue = this.queueOf(request.hook.id);
      const job: Job = {
        request: request as WorkerCallRequest<unknown>,
        startedAt: performance.now(),
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      queue.waiting.push(job);
      if (queue.current === undefined) this.runNext(queue);
      else this.watchWhileWaiting(queue, job);
    });
  }

  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    // Calls still waiting for their turn are never sent.
    for (const queue of this.queues.values()) {
      for (const job of queue.waiting.splice(0)) {
        unwatch(job);
        this.settleUnsent(job, 'the session ended before the call was sent to the worker');
      }
    }
    await Promise.all(
      [...this.slots.values()].map(async (slot) => {
        if (!claimStop(slot, 'session_end')) return;
        slot.call?.finish({ kill: 'session_end' });
        const exit = await slot.worker.stop();
        this.stopped(slot, 'session_end', exit);
      }),
    );
    // A call between its turn and its request (reading the worker's earlier output) ends too,
    // and so does the kill of a worker that wrote between calls.
    await Promise.all([
      ...[...this.queues.values()].map((queue) => queue.current?.catch(() => undefined)),
      ...this.killing,
    ]);
  }

  // Called when a call stops its worker: true when the hook has had its starts within the window,
  // so it is given up now (spec §8) and the call's message can say it is not restarted.
  private giveUpWhenSpent(hookId: string): boolean {
    if (this.recentStarts(hookId, this.now()).length < WORKER_MAX_STARTS) return false;
    this.exhausted.add(hookId);
    return true;
  }

  private recentStarts(hookId: string, at: number): number[] {
    return (this.starts.get(hookId) ?? []).filter((time) => at - time < WORKER_RESTART_WINDOW_MS);
  }

  private stopped(slot: Slot, reason: WorkerStopReason, exit: WorkerExit): void {
    this.flushStderr(slot, slot.ids);
    this.emit(slot.ids, {
      type: 'worker_stopped',
      reason,
      exit_code: exit.exitCode,
      signal: exit.signal,
    });
  }

  private flushStderr(slot: Slot, ids: Ids): void {
    const { message, bytes } = joinStderr(slot);
    if (bytes === 0) return;
    const dropped = bytes - Buffer.byteLength(message);
    this.emit(ids, {
      type: 'hook_log',
      source: 'stderr',
      message: dropped > 0 ? `[... ${dropped} bytes of stderr not kept ...]\n${message}` : message,
    });
  }

  // A stdout line: the answer to the call in flight, a log line, or (between calls) stray output.
  private onLine(slot: Slot, line: string): void {
    const { call } = slot;
    // The pool is closing: what a stopping worker still prints between calls is not recorded (the
    // session's log closes when the pool has closed).
    if (call === undefined && this.closing !== undefined) return;
    const parsed = parseLine(line);
    if (call === undefined) this.onLineBetweenCalls(slot, line, parsed);
    else if (parsed.kind === 'text') {
      if (call.lines.length < HOOK_LOG_LINES_MAX) call.lines.push(line);
      else call.droppedLines += 1;
    } else if (parsed.kind === 'object' && parsed.value.id === call.id) {
      slot.answered = true;
      call.finish({ output: parsed.value.output });
    } else call.finish(wrongAnswer(call.id, line, parsed));
  }

  private onLineBetweenCalls(slot: Slot, line: string, parsed: ParsedLine): void {
    if (parsed.kind === 'text') {
      this.emit(slot.ids, { type: 'hook_log', source: 'logs', message: line });
      return;
    }
    // A response nobody asked for: the worker cannot be trusted with the next request (its line
    // must never be taken as the next call's answer). Stop it; the next call starts a fresh one.
    this.emit(slot.ids, {
      type: 'hook_log',
      source: 'warning',
      message: `worker wrote ${clip(line)} between requests; it is stopped and the next call starts a fresh one`,
    });
    if (claimStop(slot, 'protocol_error')) {
      const stopping = slot.worker
        .kill()
        .then((exit) => this.stopped(slot, 'protocol_error', exit));
      // close() waits for it: its worker_stopped goes in before the log closes.
      this.killing.add(stopping);
      void stopping.finally(() => this.killing.delete(stopping));
    }
  }

  // The hook's worker when it is alive and trusted with the next request.
  private liveSlot(hook: WorkerCallRequest<unknown>['hook'], ids: Ids): Slot | undefined {
    const live = this.slots.get(hook.id);
    if (live === undefined || live.worker.hasExited || live.stopReason !== undefined)
      return undefined;
    if (live.ids.event !== ids.event || live.ids.hook_id !== ids.hook_id) {
      live.ids = { hook_id: ids.hook_id, event: ids.event };
    }
    return live;
  }

  private async ensure(
    hook: WorkerCallRequest<unknown>['hook'],
    ids: Ids,
    startOptions: () => WorkerStartOptions,
  ): Promise<Slot | { error: unknown } | { budget: string }> {
    const live = this.liveSlot(hook, ids);
    if (live !== undefined) return live;
    if (this.exhausted.has(hook.id)) return { budget: budgetMessage(hook.id) };
    const at = this.now();
    const recent = this.recentStarts(hook.id, at);
    if (recent.length >= WORKER_MAX_STARTS) {
      this.exhausted.add(hook.id);
      return { budget: budgetMessage(hook.id) };
    }
    const slot = newSlot(ids);
    try {
      slot.worker = await this.start({
        ...startOptions(),
        maxLineBytes: this.options.maxLineBytes,
        onStdoutLine: (line) => this.onLine(slot, line),
        onStdoutOverflow: () => slot.call?.finish({ kill: 'output_too_large' }),
        onStderrLine: (line) => keepStderr(slot, line, this.options.stderrTailBytes),
      });
    } catch (error) {
      return { error };
    }
    recent.push(at);
    this.starts.set(hook.id, recent);
    this.slots.set(hook.id, slot);
    this.emit(ids, { type: 'worker_started', pid: slot.worker.pid });
    void slot.worker.exited.then((exit) => this.onExited(slot, exit));
    return slot;
  }

  private onExited(slot: Slot, exit: WorkerExit): void {
    // A dead worker's timer must not keep the event loop alive.
    if (slot.timer !== undefined) this.timers.clear(slot.timer);
    // Exited while serving a call: that call records it after its own records.
    if (slot.call !== undefined) {
      slot.call.finish({ exited: exit });
      return;
    }
    if (claimStop(slot, 'exited')) this.stopped(slot, 'exited', exit);
  }

  private queueOf(hookId: string): Queue {
    let queue = this.queues.get(hookId);
    if (queue === undefined) {
      queue = { current: undefined, waiting: [] };
      this.queues.set(hookId, queue);
    }
    return queue;
  }

  // One request in flight per worker (spec §8), also for callers that do not wait for each other
  // (two gates of one session, two proxies sharing it): calls of one hook take turns.
  private runNext(queue: Queue): void {
    const job = queue.waiting.shift();
    if (job === undefined) {
      queue.current = undefined;
      return;
    }
    unwatch(job);
    const current = this.runJob(job);
    queue.current = current;
    current.then(job.resolve, job.reject).finally(() => this.runNext(queue));
  }

  // A waiting call cancelled before its turn: recorded and settled as aborted, never sent.
  private watchWhileWaiting(queue: Queue, job: Job): void {
    const { signal } = job.request;
    if (signal === undefined) return;
    job.onAbort = () => {
      const at = queue.waiting.indexOf(job);
      if (at === -1) return;
      queue.waiting.splice(at, 1);
      this.settleUnsent(job, 'the run was cancelled before the call was sent to the worker');
    };
    signal.addEventListener('abort', job.onAbort, { once: true });
  }

  private settleUnsent(job: Job, message: string): void {
    this.hookStarted(job.request);
    try {
      job.resolve(
        job.request.settle(unanswered('aborted', message, performance.now() - job.startedAt)),
      );
    } catch (error) {
      job.reject(error);
    }
  }

  private async runJob(job: Job): Promise<unknown> {
    const { request, startedAt } = job;
    const { hook, ids } = request;
    for (;;) {
      // What the worker wrote before this request is read first: a line that came while no
      // request was in flight stops the worker, and can never pass for this call's answer.
      const waiting = this.liveSlot(hook, ids);
      if (!readPendingOutputNow(waiting)) await outputReadBeforeRequest(waiting);
      if (this.closing !== undefined || request.signal?.aborted === true) {
        this.hookStarted(request);
        const message =
          this.closing !== undefined
            ? 'the session ended before the call was sent to the worker'
            : 'the run was cancelled before the call was sent to the worker';
        return request.settle(unanswered('aborted', message, performance.now() - startedAt));
      }
      const live = this.liveSlot(hook, ids);
      if (live !== undefined) return this.callSlot(live, request, startedAt);
      const ensured = await this.ensure(hook, ids, request.start);
      if ('budget' in ensured) {
        this.hookStarted(request);
        return request.settle(
          unanswered('worker_exited', ensured.budget, performance.now() - startedAt),
        );
      }
      if ('error' in ensured) {
        this.hookStarted(request);
        return request.settle(outcomeOfStartError(ensured.error, performance.now() - startedAt));
      }
      // A fresh worker: the loop reads what it printed at start before the first request goes out
      // (and takes it when it is still trusted, or starts another within the restart budget).
    }
  }

  private hookStarted(request: WorkerCallRequest<unknown>): void {
    this.emit(request.ids, { type: 'hook_started', command: request.hook.command });
  }

  // One call to a live worker: settled where its end is seen (the answer's line, the timer, the
  // abort, the exit), with no promise between that and `settle` when the worker answered.
  private callSlot<T>(slot: Slot, request: WorkerCallRequest<T>, startedAt: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.serve(slot, request, (ended) => {
        try {
          if ('output' in ended.ended)
            resolve(settleAnswer(slot, ended.ended, ended.lines, startedAt, request.settle));
          else resolve(this.finishFailedCall(slot, request, ended, startedAt));
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  // A call that ended without an answer: the worker exited, or must be killed (recorded once).
  private async finishFailedCall<T>(
    slot: Slot,
    request: WorkerCallRequest<T>,
    ended: EndedCall,
    startedAt: number,
  ): Promise<T> {
    const outcome = ended.ended as Exclude<Ended, { output: unknown }>;
    const { message: stderrTail, bytes: stderrBytes } = joinStderr(slot);
    const base = {
      stderrTail,
      stderrBytes,
      ...(ended.lines.length > 0 ? { lines: ended.lines } : {}),
    };
    const { hook } = request;
    let stop: { reason: WorkerStopReason; exit: Promise<WorkerExit> } | undefined;
    let result: HookRunOutcome;
    if ('exited' in outcome) {
      if (claimStop(slot, 'exited'))
        stop = { reason: 'exited', exit: Promise.resolve(outcome.exited) };
      const spent = stop !== undefined && this.giveUpWhenSpent(hook.id);
      result = exitedOutcome(hook.id, ended.id, outcome.exited, spent, base, startedAt);
    } else {
      // The worker cannot be trusted with the next request: kill it, record why (once).
      if (outcome.kill !== 'session_end' && claimStop(slot, outcome.kill)) {
        stop = { reason: outcome.kill, exit: slot.worker.kill() };
      }
      const exit = stop === undefined ? undefined : await stop.exit;
      const reason = this.killReason(slot, hook, outcome);
      // The worker this call killed was the last its restart budget allows: say so.
      const message =
        stop !== undefined && this.giveUpWhenSpent(hook.id)
          ? `${reason}; ${notRestartedNote()}`
          : reason;
      result = {
        kind: 'failed',
        failure: outcome.kill === 'session_end' ? 'aborted' : outcome.kill,
        message,
        exitCode: null,
        signal: exit?.signal ?? null,
        ...base,
        ...('deny' in outcome && outcome.deny !== undefined ? { deny: outcome.deny } : {}),
        durationMs: performance.now() - startedAt,
      };
    }
    const settled = request.settle(result);
    if (stop !== undefined) this.stopped(slot, stop.reason, await stop.exit);
    return settled;
  }

  private killReason(
    slot: Slot,
    hook: WorkerCallRequest<unknown>['hook'],
    outcome: Extract<Ended, { kill: unknown }>,
  ): string {
    switch (outcome.kill) {
      case 'timeout':
        return `${timeoutMessage(hook.timeoutSec)}${slot.answered ? '' : NEVER_ANSWERED_HINT}`;
      case 'output_too_large':
        return outputTooLargeMessage(this.options.maxLineBytes);
      case 'session_end':
        return 'the session ended while the call was in flight; its worker was stopped';
      case 'aborted':
        return 'the run was cancelled';
      default:
        return outcome.message ?? 'invalid worker response';
    }
  }

  private serve(
    slot: Slot,
    request: WorkerCallRequest<unknown>,
    onEnded: (ended: EndedCall) => void,
  ): void {
    const { hook, signal } = request;
    const id = slot.nextId++;
    let done = false;
    let sending = true;
    let endedWhileSending: EndedCall | undefined;
    const call: InFlight = {
      id,
      lines: [],
      droppedLines: 0,
      finish: (ended) => {
        if (done) return;
        done = true;
        slot.call = undefined;
        signal?.removeEventListener('abort', onAbort);
        const lines =
          call.droppedLines > 0
            ? [...call.lines, `[${call.droppedLines} more lines not recorded]`]
            : call.lines;
        const result = { ended, lines, id };
        if ('output' in ended) slot.readAfterAnswer = pendingOutputRead();
        // Answered within writeLine (a fake worker in a test): settled after hook_started.
        if (sending) endedWhileSending = result;
        // stderr is another pipe: one more turn lets a line the worker wrote before its answer
        // arrive, so it is recorded with this call rather than the next.
        else if ('output' in ended) setImmediate(onEnded, result);
        else onEnded(result);
      },
    };
    const onAbort = (): void => call.finish({ kill: 'aborted' });
    slot.call = call;
    if (signal?.aborted) {
      this.hookStarted(request);
      sending = false;
      onAbort();
      return;
    }
    // The request goes out first and hook_started is written while the worker reads it (the
    // answer is read on a later turn of the event loop, so the records keep their order).
    const sent = slot.worker.writeLine(`{"id":${id},"input":${request.input}}`);
    this.hookStarted(request);
    sending = false;
    if (endedWhileSending !== undefined) {
      onEnded(endedWhileSending);
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    this.startCallTimer(slot, hook.timeoutSec);
    if (!sent) {
      // Its stdin is gone: the call ends with the worker, not at its timeout.
      void slot.worker.exited.then((exit) => call.finish({ exited: exit }));
    }
  }

  // One timer per worker, restarted for each call: when it fires, the call in flight (if any)
  // has run its whole timeout, since the timer was restarted when that call began.
  private startCallTimer(slot: Slot, timeoutSec: number): void {
    if (slot.timer !== undefined) this.timers.refresh(slot.timer);
    else
      slot.timer = this.timers.set(() => slot.call?.finish({ kill: 'timeout' }), timeoutSec * 1000);
  }
}

function newSlot(ids: Ids): Slot {
  return {
    worker: undefined as unknown as Worker,
    ids: { hook_id: ids.hook_id, event: ids.event },
    nextId: 1,
    stderr: [],
    stderrBytes: 0,
    stderrKept: 0,
    call: undefined,
    stopReason: undefined,
    timer: undefined,
    answered: false,
    readAfterAnswer: undefined,
  };
}

// Claims the right to record why the worker stops; false when someone already did.
function claimStop(slot: Slot, reason: WorkerStopReason): boolean {
  if (slot.stopReason !== undefined) return false;
  slot.stopReason = reason;
  return true;
}

function unwatch(job: Job): void {
  if (job.onAbort !== undefined) job.request.signal?.removeEventListener('abort', job.onAbort);
  job.onAbort = undefined;
}

// A worker that answered before is read synchronously, now (no turn of the event loop: a host
// that asks again at once pays nothing): true when that is done.
function readPendingOutputNow(slot: Slot | undefined): boolean {
  return slot?.readAfterAnswer !== undefined && slot.worker.readPendingOutput?.() === true;
}

// Failing that, the wait began at its last answer (a poll phase after it has read what followed
// it). A fresh worker gets two turns to print at start.
function outputReadBeforeRequest(slot: Slot | undefined): Promise<void> {
  return slot?.readAfterAnswer ?? pendingOutputRead();
}

// A call that never reached the worker's answer: closed or aborted while queued, or a worker that
// is out of restarts.
function unanswered(
  failure: 'aborted' | 'worker_exited',
  message: string,
  durationMs: number,
): HookRunOutcome {
  return {
    kind: 'failed',
    failure,
    message,
    exitCode: null,
    signal: null,
    stderrTail: '',
    stderrBytes: 0,
    durationMs,
  };
}

// The worker answered: settled at once.
function settleAnswer<T>(
  slot: Slot,
  answer: Extract<Ended, { output: unknown }>,
  lines: string[],
  startedAt: number,
  settle: (outcome: HookRunOutcome) => T,
): T {
  const { message: stderrTail, bytes: stderrBytes } = joinStderr(slot);
  return settle({
    kind: 'answered',
    output: answer.output,
    stderrTail,
    stderrBytes,
    ...(lines.length > 0 ? { lines } : {}),
    durationMs: performance.now() - startedAt,
  });
}

// The worker exited while serving request `id`.
function exitedOutcome(
  hookId: string,
  id: number,
  exit: WorkerExit,
  spent: boolean,
  base: { stderrTail: string; stderrBytes: number; lines?: string[] },
  startedAt: number,
): HookRunOutcome {
  const how =
    exit.exitCode === null
      ? `was killed by ${exit.signal ?? 'a signal'}`
      : `exited with code ${exit.exitCode}`;
  const next = spent ? notRestartedNote() : 'the next call starts a fresh one';
  return {
    kind: 'failed',
    failure: 'worker_exited',
    message: `worker of hook ${hookId} ${how} while serving request ${id}; ${next}`,
    exitCode: exit.exitCode,
    signal: exit.signal,
    ...base,
    durationMs: performance.now() - startedAt,
  };
}

// A line in flight that is not this call's answer: a protocol error, and a deny when it says one.
function wrongAnswer(id: number, line: string, parsed: ParsedLine): Ended {
  const deny = parsed.kind === 'object' ? intendedDeny(line, parsed.value) : undefined;
  const what =
    parsed.kind === 'object' && 'id' in parsed.value
      ? `a response with id ${clip(JSON.stringify(parsed.value.id))}`
      : `${clip(line)}, which is not a response`;
  return {
    kill: 'protocol_error',
    message: `worker answered request ${id} with ${what}; expected {"id":${id},"output":{...}} on one line`,
    ...(deny === undefined ? {} : { deny }),
  };
}

type ParsedLine =
  | { kind: 'text' }
  | { kind: 'object'; value: { id?: unknown; output?: unknown } }
  | { kind: 'other' };

// Only a JSON object can be a response; any other line is the worker's log output (spec §8: a
// debug line before the answer must not lose the answer).
function parseLine(line: string): ParsedLine {
  const text = line.trim();
  if (!text.startsWith('{')) return { kind: 'text' };
  let value: unknown;
  try {
    value = JSON.parse(jsonTextWithByteEscapes(text));
  } catch {
    return { kind: 'text' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'other' };
  return { kind: 'object', value: value as { id?: unknown; output?: unknown } };
}

// An intended deny is never lost (spec §2.2): a JSON object that is not the response but says deny
// (printed without the {"id","output"} wrapper, or wrapped with the wrong id) still denies.
function intendedDeny(
  line: string,
  value: { id?: unknown; output?: unknown },
): { reason?: string } | undefined {
  const candidates =
    typeof value.output === 'object' && value.output !== null
      ? [JSON.stringify(value.output)]
      : [line];
  for (const text of candidates) {
    const parsed = safeParseHookOutput(text);
    const deny = parsed.success ? parsed.output : parsed.deny;
    if (deny?.decision === 'deny') return deny.reason === undefined ? {} : { reason: deny.reason };
  }
  return undefined;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

// A timeout before the worker ever answered: most likely a spawn hook marked "mode": "worker" (it
// waits for the end of stdin, which a worker's stdin never reaches).
const NEVER_ANSWERED_HINT =
  '; the worker never answered a request line: is it a worker? A worker answers each {"id":N,"input":...} line on its stdin with one {"id":N,"output":...} line on stdout; a hook that reads stdin to its end is a spawn hook (remove "mode": "worker")';

function notRestartedNote(): string {
  return `it was started ${WORKER_MAX_STARTS} times within ${WORKER_RESTART_WINDOW_MS / 1000} s, so it is not restarted again in this session (its later calls fail at once)`;
}

function budgetMessage(hookId: string): string {
  return `worker of hook ${hookId} was started ${WORKER_MAX_STARTS} times within ${WORKER_RESTART_WINDOW_MS / 1000} s; it is not restarted again in this session`;
}

function keepStderr(slot: Slot, whole: string, limit: number): void {
  const bytes = Buffer.byteLength(whole) + 1;
  // One line longer than the window keeps its end, like a spawn hook's stderr tail.
  const line = bytes > limit ? utf8Tail(whole, limit - 1) : whole;
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
