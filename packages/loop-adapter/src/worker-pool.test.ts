import type { Worker, WorkerExit, WorkerOptions } from '@soong-agent/runner';
import { describe, expect, it } from 'vitest';
import type { HookRunOutcome } from './decide-hook-run.js';
import {
  createWorkerPool,
  WORKER_MAX_STARTS,
  WORKER_RESTART_WINDOW_MS,
  type WorkerPoolTimers,
  type WorkerRecord,
} from './worker-pool.js';

// The pool alone, with fake workers (no processes) and a fake clock (no sleeping): spec §8's
// supervision rules. The end-to-end tests with real workers are in worker-hooks.test.ts.

/** A worker that answers through `reply`; what the pool wrote is in `requests`. */
interface FakeWorker extends Omit<Worker, 'hasExited'> {
  hasExited: boolean;
  options: WorkerOptions;
  requests: { id: number; input: unknown }[];
  reply(line: string): void;
  stderr(line: string): void;
  exit(exit?: Partial<WorkerExit>): void;
  killed: boolean;
  stoppedGracefully: boolean;
  /** Lines "in the pipe": delivered only by readPendingOutput (a worker made with syncReads). */
  pending: string[];
}

function fakeWorkers(
  behaviour: (worker: FakeWorker, request: { id: number }) => void = () => {},
  syncReads = false,
) {
  const started: FakeWorker[] = [];
  let pid = 1000;
  const start = async (options: WorkerOptions): Promise<Worker> => {
    let resolveExit: (exit: WorkerExit) => void = () => {};
    const exited = new Promise<WorkerExit>((resolve) => {
      resolveExit = resolve;
    });
    pid += 1;
    const worker: FakeWorker = {
      options,
      pid,
      exited,
      hasExited: false,
      requests: [],
      killed: false,
      stoppedGracefully: false,
      writeLine(line) {
        if (worker.hasExited) return false;
        const request = JSON.parse(line) as { id: number; input: unknown };
        worker.requests.push(request);
        behaviour(worker, request);
        return true;
      },
      reply: (line) => options.onStdoutLine?.(line),
      pending: [],
      ...(syncReads
        ? {
            readPendingOutput: () => {
              for (const line of worker.pending.splice(0)) options.onStdoutLine?.(line);
              return true;
            },
          }
        : {}),
      stderr: (line) => options.onStderrLine?.(line),
      exit(exit = {}) {
        if (worker.hasExited) return;
        worker.hasExited = true;
        resolveExit({ exitCode: 0, signal: null, durationMs: 1, ...exit });
      },
      async stop() {
        worker.stoppedGracefully = true;
        worker.exit({ exitCode: 0 });
        return exited;
      },
      async kill() {
        worker.killed = true;
        worker.exit({ exitCode: null, signal: 'SIGTERM' });
        return exited;
      },
    };
    started.push(worker);
    return worker;
  };
  return { start, started };
}

function fakeTimers() {
  const pending = new Map<number, { at: number; callback: () => void }>();
  const made = new Map<number, { ms: number; callback: () => void }>();
  let now = 0;
  let next = 0;
  const timers: WorkerPoolTimers = {
    set(callback, ms) {
      next += 1;
      made.set(next, { ms, callback });
      pending.set(next, { at: now + ms, callback });
      return next;
    },
    clear(handle) {
      made.delete(handle as number);
      pending.delete(handle as number);
    },
    // Like Node's Timeout#refresh: runs `ms` from now, also after it ran.
    refresh(handle) {
      const timer = made.get(handle as number);
      if (timer !== undefined)
        pending.set(handle as number, { at: now + timer.ms, callback: timer.callback });
    },
  };
  return {
    timers,
    now: () => now,
    pending: () => pending.size,
    advance(ms: number) {
      now += ms;
      for (const [handle, timer] of [...pending]) {
        if (timer.at <= now) {
          pending.delete(handle);
          timer.callback();
        }
      }
    },
  };
}

const HOOK = { id: 'policy', command: 'fake-worker', timeoutSec: 5 };
const START = { command: 'fake-worker', cwd: '/p', allowedRoots: ['/p'] };

function poolWith(options: {
  behaviour?: Parameters<typeof fakeWorkers>[0];
  maxLineBytes?: number;
  syncReads?: boolean;
}) {
  const workers = fakeWorkers(options.behaviour, options.syncReads);
  const clock = fakeTimers();
  const records: (WorkerRecord & { hook_id: string; call_id?: string })[] = [];
  const pool = createWorkerPool({
    maxLineBytes: options.maxLineBytes ?? 1024,
    stderrTailBytes: 8192,
    emit: (ids, record) => records.push({ ...record, ...ids }),
    start: workers.start,
    now: clock.now,
    timers: clock.timers,
  });
  let calls = 0;
  const call = (signal?: AbortSignal) => {
    calls += 1;
    const ids = { hook_id: HOOK.id, event: 'PreToolUse' as const, call_id: `call_${calls}` };
    return pool.call({
      hook: HOOK,
      ids,
      start: () => START,
      input: '{"event":"PreToolUse"}',
      signal,
      settle: (outcome: HookRunOutcome) => {
        records.push({
          type: 'hook_log',
          source: 'warning',
          message: `settled ${outcome.kind}`,
          ...ids,
        });
        return outcome;
      },
    });
  };
  const types = () => records.map((record) => record.type);
  return { pool, call, records, types, clock, started: workers.started };
}

const answer = (id: number, output: unknown) => JSON.stringify({ id, output });

// A request goes out after two turns of the event loop (the worker's earlier output is read
// first), and a fresh worker's after its start and two more: a few turns cover both.
async function sent(): Promise<void> {
  for (let turn = 0; turn < 8; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('createWorkerPool', () => {
  it('starts one worker lazily and serves every call with it, records in order on one channel', async () => {
    const { pool, call, types, started } = poolWith({
      behaviour: (worker, { id }) => worker.reply(answer(id, { decision: 'allow' })),
    });
    expect(started).toHaveLength(0);
    const first = await call();
    const second = await call();
    expect(first).toMatchObject({ kind: 'answered', output: { decision: 'allow' } });
    expect(second.kind).toBe('answered');
    expect(started).toHaveLength(1);
    expect(started[0]?.requests.map((request) => request.id)).toEqual([1, 2]);
    await pool.close();
    expect(types()).toEqual([
      'worker_started',
      'hook_started',
      'hook_log',
      'hook_started',
      'hook_log',
      'worker_stopped',
    ]);
    expect(started[0]?.stoppedGracefully).toBe(true);
  });

  it('gives every call its whole timeout from one timer per worker, restarted per call', async () => {
    const { pool, call, clock, started } = poolWith({});
    const made = { count: 0 };
    const set = clock.timers.set;
    clock.timers.set = (callback, ms) => {
      made.count += 1;
      return set(callback, ms);
    };
    const first = call();
    await sent();
    // The first call is answered just before its timeout; the second begins at that moment.
    clock.advance(HOOK.timeoutSec * 1000 - 1);
    started[0]?.reply(answer(1, { decision: 'allow' }));
    expect(await first).toMatchObject({ kind: 'answered' });
    const second = call();
    await sent();
    // Past the first call's deadline: the second still has (almost) all of its own.
    clock.advance(HOOK.timeoutSec * 1000 - 2);
    expect(started[0]?.killed).toBe(false);
    started[0]?.reply(answer(2, { decision: 'allow' }));
    expect(await second).toMatchObject({ kind: 'answered' });
    // Idle, the timer may run out: it ends nothing.
    clock.advance(HOOK.timeoutSec * 1000 * 3);
    expect(started[0]?.killed).toBe(false);
    const third = call();
    await sent();
    clock.advance(HOOK.timeoutSec * 1000);
    expect(await third).toMatchObject({ kind: 'failed', failure: 'timeout' });
    expect(started[0]?.killed).toBe(true);
    expect(made.count).toBe(1);
    // The dead worker's timer is gone: nothing pending keeps a session alive.
    expect(clock.pending()).toBe(0);
    await pool.close();
  });

  it('fails a call at its timeout on the fake clock, kills the worker, records worker_stopped after the call', async () => {
    const { pool, call, records, clock, started } = poolWith({});
    const pending = call();
    await sent();
    expect(clock.pending()).toBe(1);
    clock.advance(HOOK.timeoutSec * 1000 - 1);
    expect(started[0]?.killed).toBe(false);
    clock.advance(1);
    const outcome = await pending;
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'timeout', exitCode: null });
    expect(started[0]?.killed).toBe(true);
    const types = records.map((record) => record.type);
    expect(types.slice(-2)).toEqual(['hook_log', 'worker_stopped']);
    expect(records.at(-1)).toMatchObject({ reason: 'timeout', signal: 'SIGTERM' });
    // The next call starts a fresh worker.
    void call();
    await sent();
    expect(started).toHaveLength(2);
    await pool.close();
  });

  it(`gives up after ${WORKER_MAX_STARTS} starts within the window, on the injected clock`, async () => {
    const { pool, call, clock, started } = poolWith({
      behaviour: (worker) => worker.exit({ exitCode: 1 }),
    });
    for (let index = 0; index < WORKER_MAX_STARTS; index += 1) {
      expect(await call()).toMatchObject({ kind: 'failed', failure: 'worker_exited' });
      clock.advance(1000);
    }
    const refused = await call();
    expect(refused).toMatchObject({ kind: 'failed', failure: 'worker_exited' });
    expect((refused as { message: string }).message).toMatch(/not restarted again/);
    expect(started).toHaveLength(WORKER_MAX_STARTS);
    // Once given up, it stays given up in this session, even after the window.
    clock.advance(WORKER_RESTART_WINDOW_MS * 2);
    expect(await call()).toMatchObject({ failure: 'worker_exited' });
    expect(started).toHaveLength(WORKER_MAX_STARTS);
    await pool.close();
  });

  it('says the third crash within the window is the last one: the worker is not restarted', async () => {
    const { pool, call, clock, started } = poolWith({
      behaviour: (worker) => worker.exit({ exitCode: 1 }),
    });
    const texts: string[] = [];
    for (let index = 0; index < WORKER_MAX_STARTS; index += 1) {
      const outcome = (await call()) as HookRunOutcome & { message: string };
      expect(outcome).toMatchObject({ kind: 'failed', failure: 'worker_exited' });
      texts.push(outcome.message);
      clock.advance(1000);
    }
    expect(
      texts.slice(0, -1).every((text) => text.endsWith('the next call starts a fresh one')),
    ).toBe(true);
    expect(texts.at(-1)).toMatch(
      new RegExp(
        `exited with code 1 while serving request 1; it was started ${WORKER_MAX_STARTS} times within ${WORKER_RESTART_WINDOW_MS / 1000} s, so it is not restarted again in this session`,
      ),
    );
    // What it said holds, also after the window.
    clock.advance(WORKER_RESTART_WINDOW_MS * 2);
    expect(await call()).toMatchObject({ failure: 'worker_exited' });
    expect(started).toHaveLength(WORKER_MAX_STARTS);
    await pool.close();
  });

  it('asks whether it is a worker when a call times out before the worker ever answered', async () => {
    const { pool, call, clock, started } = poolWith({});
    const first = call();
    await sent();
    clock.advance(HOOK.timeoutSec * 1000);
    const silent = (await first) as HookRunOutcome & { message: string };
    expect(silent).toMatchObject({ kind: 'failed', failure: 'timeout' });
    expect(silent.message).toContain('the worker never answered a request line: is it a worker?');
    // A fresh worker that answers once and then hangs is a worker that hung: no such hint.
    const answered = call();
    await sent();
    started[1]?.reply(answer(1, { decision: 'allow' }));
    expect(await answered).toMatchObject({ kind: 'answered' });
    const second = call();
    await sent();
    clock.advance(HOOK.timeoutSec * 1000);
    const hung = (await second) as HookRunOutcome & { message: string };
    expect(hung).toMatchObject({ kind: 'failed', failure: 'timeout' });
    expect(hung.message).not.toContain('never answered');
    await pool.close();
  });

  it('restarts again when the earlier starts fell out of the window', async () => {
    const { pool, call, clock, started } = poolWith({
      behaviour: (worker) => worker.exit({ exitCode: 1 }),
    });
    for (let index = 0; index < WORKER_MAX_STARTS - 1; index += 1) await call();
    clock.advance(WORKER_RESTART_WINDOW_MS);
    for (let index = 0; index < WORKER_MAX_STARTS - 1; index += 1) await call();
    expect(started).toHaveLength(2 * (WORKER_MAX_STARTS - 1));
    await pool.close();
  });

  it('fails a call whose response line passes maxLineBytes as output_too_large', async () => {
    const { pool, call, records, started } = poolWith({
      maxLineBytes: 64,
      behaviour: (worker) => worker.options.onStdoutOverflow?.(65),
    });
    const outcome = await call();
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'output_too_large' });
    expect((outcome as { message: string }).message).toContain('64 bytes');
    expect(started[0]?.killed).toBe(true);
    expect(records.at(-1)).toMatchObject({ type: 'worker_stopped', reason: 'output_too_large' });
    await pool.close();
    expect(records.filter((record) => record.type === 'worker_stopped')).toHaveLength(1);
  });

  it('keeps log lines and stderr with their call, and only the current id answers', async () => {
    const { pool, call, started } = poolWith({
      behaviour: (worker, { id }) => {
        worker.stderr('warming up');
        worker.reply('debug: looking');
        worker.reply(answer(id, { decision: 'deny', reason: 'no' }));
      },
    });
    const outcome = await call();
    expect(outcome).toMatchObject({
      kind: 'answered',
      output: { decision: 'deny', reason: 'no' },
      lines: ['debug: looking'],
      stderrTail: 'warming up\n',
    });
    expect(started[0]?.killed).toBe(false);
    await pool.close();
  });

  it('fails a call cut by close as aborted, with one worker_stopped', async () => {
    const { pool, call, records } = poolWith({});
    const pending = call();
    await sent();
    await pool.close();
    expect(await pending).toMatchObject({ kind: 'failed', failure: 'aborted' });
    expect(records.filter((record) => record.type === 'worker_stopped')).toEqual([
      expect.objectContaining({ reason: 'session_end' }),
    ]);
  });

  it('fails a cancelled call as aborted and kills the worker', async () => {
    const { pool, call, records, started } = poolWith({});
    const controller = new AbortController();
    const pending = call(controller.signal);
    await sent();
    controller.abort();
    expect(await pending).toMatchObject({ kind: 'failed', failure: 'aborted' });
    expect(started[0]?.killed).toBe(true);
    expect(records.at(-1)).toMatchObject({ type: 'worker_stopped', reason: 'aborted' });
    await pool.close();
  });

  it('stops a worker that answers between calls, so its line never answers the next call', async () => {
    const { pool, call, records, started } = poolWith({
      behaviour: (worker, { id }) => worker.reply(answer(id, { decision: 'allow' })),
    });
    await call();
    started[0]?.reply(answer(2, { decision: 'allow' }));
    await sent();
    expect(started[0]?.killed).toBe(true);
    expect(records.at(-1)).toMatchObject({ type: 'worker_stopped', reason: 'protocol_error' });
    await call();
    expect(started).toHaveLength(2);
    await pool.close();
  });
  it('takes calls of two callers at once in turns: one request in flight, each call its own answer', async () => {
    const inFlight = { now: 0, most: 0 };
    const { pool, call, started } = poolWith({
      behaviour: (worker, { id }) => {
        inFlight.now += 1;
        inFlight.most = Math.max(inFlight.most, inFlight.now);
        // Answers later, in the order asked, with the request's own id in the reason.
        setImmediate(() => {
          inFlight.now -= 1;
          worker.reply(answer(id, { decision: 'deny', reason: `for ${id}` }));
        });
      },
    });
    const outcomes = await Promise.all([call(), call(), call()]);
    expect(outcomes.map((outcome) => (outcome as { output?: unknown }).output)).toEqual([
      { decision: 'deny', reason: 'for 1' },
      { decision: 'deny', reason: 'for 2' },
      { decision: 'deny', reason: 'for 3' },
    ]);
    expect(inFlight.most).toBe(1);
    expect(started).toHaveLength(1);
    await pool.close();
  });

  it('reads what a worker wrote before the next request synchronously, so a pending stray line stops it', async () => {
    const { pool, call, records, started } = poolWith({
      syncReads: true,
      behaviour: (worker, { id }) =>
        worker.reply(
          answer(id, worker === started[0] ? { decision: 'allow' } : { decision: 'deny' }),
        ),
    });
    const first = await call();
    expect(first).toMatchObject({ output: { decision: 'allow' } });
    // In the pipe, unread, when the next call comes at once: no turn of the event loop between.
    started[0]?.pending.push(answer(2, { decision: 'allow', reason: 'stray' }));
    const second = await call();
    expect(second).toMatchObject({ output: { decision: 'deny' } });
    expect(started[0]?.requests.map((request) => request.id)).toEqual([1]);
    expect(started[0]?.killed).toBe(true);
    expect(records).toContainEqual(
      expect.objectContaining({ type: 'worker_stopped', reason: 'protocol_error' }),
    );
    await pool.close();
  });

  it("never takes a line written before the request for that request's answer", async () => {
    const { pool, call, records, started } = poolWith({
      behaviour: (worker, { id }) => {
        if (worker === started[0]) {
          worker.reply(answer(id, { decision: 'deny' }));
          // The answer to the next request, before that request is sent.
          setImmediate(() => worker.reply(answer(id + 1, { decision: 'allow' })));
        } else worker.reply(answer(id, { decision: 'deny', reason: 'fresh worker' }));
      },
    });
    const first = call();
    // The next call is asked for at once, as a host that does not wait for anything else would.
    const second = first.then(() => call());
    expect(await first).toMatchObject({ output: { decision: 'deny' } });
    expect(await second).toMatchObject({ output: { decision: 'deny', reason: 'fresh worker' } });
    expect(started[0]?.killed).toBe(true);
    expect(started[0]?.requests.map((request) => request.id)).toEqual([1]);
    expect(records).toContainEqual(
      expect.objectContaining({ type: 'worker_stopped', reason: 'protocol_error' }),
    );
    await pool.close();
  });

  it('never sends a call that waits its turn when close cuts it or its signal cancels it', async () => {
    const { pool, call, started } = poolWith({});
    const controller = new AbortController();
    const first = call();
    const cancelled = call(controller.signal);
    const cut = call();
    await sent();
    controller.abort();
    expect(await cancelled).toMatchObject({ kind: 'failed', failure: 'aborted' });
    await pool.close();
    expect(await first).toMatchObject({ kind: 'failed', failure: 'aborted' });
    expect(await cut).toMatchObject({
      kind: 'failed',
      failure: 'aborted',
      message: 'the session ended before the call was sent to the worker',
    });
    expect(started[0]?.requests.map((request) => request.id)).toEqual([1]);
  });
});
