import fs from 'node:fs';
import path from 'node:path';
import type { ToolCallInfo } from '@soong-agent/protocol';
import { eventually, isAlive, makeTempDir, quietPeriod } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { LoopAdapterError } from './loop-adapter-error.js';
import { recordsOf, recordTypes, setup, WORKERS_DIR } from './test-helpers/setup.js';
import { WORKER_MAX_STARTS } from './worker-pool.js';

// Real worker processes (Node and Python) behind a real engine: spec §8.
const tempDir = () => makeTempDir();
const TIMEOUT = 60_000;
const NODE_WORKER = `node '${path.join(WORKERS_DIR, 'worker.mjs')}'`;
const PYTHON_WORKER = `python3 '${path.join(WORKERS_DIR, 'worker.py')}'`;

function call(act: string, extra: Record<string, unknown> = {}, callId = 'call_1') {
  const tool: ToolCallInfo = {
    name: 'bash',
    call_id: callId,
    input: { act, ...extra },
    risk: 'dangerous',
    tags: ['dangerous'],
    paths: [],
  };
  return { tool };
}

function workerSetup(command: string, hook: Record<string, unknown> = {}, configToml = '') {
  return setup(
    tempDir(),
    { PreToolUse: [{ hooks: [{ name: 'policy', command, mode: 'worker', ...hook }] }] },
    configToml,
  );
}

describe('createHookEngine with worker hooks', () => {
  it(
    'starts one Node worker for the session and lets it decide every call when mode is worker',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER);
      const first = await engine.run('PreToolUse', call('allow'));
      const second = await engine.run('PreToolUse', call('deny', {}, 'call_2'));
      const third = await engine.run('PreToolUse', call('log', {}, 'call_3'));
      expect(first.decision).toBe('allow');
      expect(second).toMatchObject({ decision: 'deny', hookId: 'policy' });
      expect(third.decision).toBe('allow');
      const pids = [first, second].map((outcome) => outcome.results[0]?.metadata?.pid);
      expect(pids[0]).toBe(pids[1]);
      await engine.close();
      // The stderr line travels on another pipe: it is recorded with its call or, at the latest,
      // before worker_stopped.
      expect(recordTypes(sink.records).filter((type) => type !== 'hook_log')).toEqual([
        'worker_started',
        'hook_started',
        'hook_finished',
        'hook_started',
        'hook_finished',
        'hook_denied',
        'hook_started',
        'hook_finished',
        'worker_stopped',
      ]);
      expect(sink.records.findIndex((record) => record.type === 'hook_log')).toBeGreaterThan(6);
      expect(recordsOf(sink.records, 'worker_started')[0]).toMatchObject({
        hook_id: 'policy',
        event: 'PreToolUse',
      });
      expect(recordsOf(sink.records, 'hook_log')[0]?.message).toMatch(/saw PreToolUse/);
      expect(recordsOf(sink.records, 'worker_stopped')[0]).toMatchObject({
        reason: 'session_end',
        exit_code: 0,
      });
      expect(isAlive(recordsOf(sink.records, 'worker_started')[0]?.pid ?? 0)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'records a stderr line the worker wrote before its answer with that call, call after call',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER);
      const calls = 30;
      for (let index = 1; index <= calls; index++) {
        expect((await engine.run('PreToolUse', call('log', {}, `call_${index}`))).decision).toBe(
          'allow',
        );
        // Read before the next call: the line is there when its call's outcome is.
        const ofCall = sink.records.filter((record) => record.call_id === `call_${index}`);
        expect(ofCall.map((record) => record.type)).toEqual([
          ...(index === 1 ? ['worker_started'] : []),
          'hook_started',
          'hook_log',
          'hook_finished',
        ]);
        expect(ofCall.at(-2)).toMatchObject({
          source: 'stderr',
          message: expect.stringMatching(/saw PreToolUse/),
        });
      }
      await engine.close();
    },
    TIMEOUT,
  );

  it(
    'decides with a Python worker as with a spawn hook when the worker is stdlib Python',
    async () => {
      const { engine, sink } = workerSetup(PYTHON_WORKER);
      const allowed = await engine.run('PreToolUse', call('allow'));
      const denied = await engine.run('PreToolUse', call('deny', {}, 'call_2'));
      await engine.close();
      expect(allowed.decision).toBe('allow');
      expect(denied).toMatchObject({
        decision: 'deny',
        reason: expect.stringMatching(/^deny from \d+$/),
      });
      expect(recordsOf(sink.records, 'worker_started')).toHaveLength(1);
      expect(recordsOf(sink.records, 'hook_log').map((r) => r.message)).toEqual([
        'python saw PreToolUse\n',
        'python saw PreToolUse\n',
      ]);
    },
    TIMEOUT,
  );

  it(
    'passes SOONG_AGENT_HOOK_MODE=worker and no SOONG_AGENT_HOOK_EVENT when it starts a worker',
    async () => {
      const { engine } = workerSetup(NODE_WORKER);
      const outcome = await engine.run('PreToolUse', call('env'));
      await engine.close();
      expect(outcome.results[0]?.reason).toBe(
        'SOONG_AGENT_HOME,SOONG_AGENT_HOOK_MODE,SOONG_AGENT_PROJECT_DIR,SOONG_AGENT_SESSION_ID mode=worker',
      );
    },
    TIMEOUT,
  );

  it(
    'kills a worker that hangs on a request and answers the next call from a fresh one',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER, { timeout: 0.5 });
      const hung = await engine.run('PreToolUse', call('hang'));
      const next = await engine.run('PreToolUse', call('allow', {}, 'call_2'));
      await engine.close();
      expect(hung.results[0]).toMatchObject({ status: 'failed', failure: 'timeout' });
      expect(next.results[0]).toMatchObject({ status: 'finished', decision: 'allow' });
      expect(recordTypes(sink.records)).toEqual([
        'worker_started',
        'hook_started',
        'hook_failed',
        'worker_stopped',
        'worker_started',
        'hook_started',
        'hook_finished',
        'worker_stopped',
      ]);
      const [killed, ended] = recordsOf(sink.records, 'worker_stopped');
      expect(killed?.reason).toBe('timeout');
      expect(ended?.reason).toBe('session_end');
      const [a, b] = recordsOf(sink.records, 'worker_started');
      expect(a?.pid).not.toBe(b?.pid);
      expect(isAlive(a?.pid ?? 0)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'times out a call that hangs after the worker sat idle past its timeout (the one timer starts over)',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER, { timeout: 0.3 });
      expect((await engine.run('PreToolUse', call('allow'))).decision).toBe('allow');
      // Idle longer than the timeout: the worker's timer has run out and ended nothing. A bounded
      // wait on purpose: the timer runs in the real worker process, which takes no injected clock.
      await quietPeriod(600);
      expect((await engine.run('PreToolUse', call('allow', {}, 'call_2'))).decision).toBe('allow');
      const hung = await engine.run('PreToolUse', call('hang', {}, 'call_3'));
      await engine.close();
      expect(hung.results[0]).toMatchObject({ status: 'failed', failure: 'timeout' });
      expect(recordsOf(sink.records, 'worker_started')).toHaveLength(1);
      expect(recordsOf(sink.records, 'worker_stopped')[0]?.reason).toBe('timeout');
    },
    TIMEOUT,
  );

  it(
    'fails the call with worker_exited and restarts on the next call when the worker crashes mid-call',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER);
      const crashed = await engine.run('PreToolUse', call('crash'));
      const next = await engine.run('PreToolUse', call('allow', {}, 'call_2'));
      await engine.close();
      expect(crashed.results[0]).toMatchObject({
        status: 'failed',
        failure: 'worker_exited',
        exitCode: 3,
      });
      expect(next.decision).toBe('allow');
      expect(recordsOf(sink.records, 'worker_stopped').map((r) => r.reason)).toEqual([
        'exited',
        'session_end',
      ]);
      expect(recordsOf(sink.records, 'hook_failed')[0]).toMatchObject({
        failure: 'worker_exited',
        exit_code: 3,
      });
    },
    TIMEOUT,
  );

  it(
    `stops restarting after ${WORKER_MAX_STARTS} starts and fails later calls at once when the worker crash-loops`,
    async () => {
      const { engine, sink } = workerSetup('echo starting >&2; exit 1', { on_failure: 'deny' });
      const outcomes = [];
      for (let index = 0; index < WORKER_MAX_STARTS + 2; index += 1) {
        outcomes.push(await engine.run('PreToolUse', call('allow', {}, `call_${index + 1}`)));
      }
      await engine.close();
      expect(outcomes.map((outcome) => outcome.results[0]?.failure)).toEqual(
        Array(WORKER_MAX_STARTS + 2).fill('worker_exited'),
      );
      // on_failure = "deny": a guard that cannot run fails closed.
      expect(outcomes.every((outcome) => outcome.decision === 'deny')).toBe(true);
      expect(recordsOf(sink.records, 'worker_started')).toHaveLength(WORKER_MAX_STARTS);
      expect(outcomes.at(-1)?.results[0]?.failureMessage).toMatch(/not restarted again/);
      recordTypes(sink.records);
    },
    TIMEOUT,
  );

  it.each([['wrong-id', /id 101/]])(
    'fails the call with protocol_error and replaces the worker when it answers with %s',
    async (act, message) => {
      const { engine, sink } = workerSetup(NODE_WORKER);
      const bad = await engine.run('PreToolUse', call(act));
      const next = await engine.run('PreToolUse', call('allow', {}, 'call_2'));
      await engine.close();
      expect(bad.results[0]).toMatchObject({ status: 'failed', failure: 'protocol_error' });
      expect(bad.results[0]?.failureMessage).toMatch(message);
      expect(next.decision).toBe('allow');
      expect(recordsOf(sink.records, 'worker_stopped').map((r) => r.reason)).toEqual([
        'protocol_error',
        'session_end',
      ]);
    },
    TIMEOUT,
  );

  it(
    'records a non-JSON stdout line as hook_log and keeps waiting for the answer',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER, { timeout: 0.5 });
      const silent = await engine.run('PreToolUse', call('garbage'));
      await engine.close();
      expect(silent.results[0]).toMatchObject({ status: 'failed', failure: 'timeout' });
      expect(recordsOf(sink.records, 'hook_log')).toEqual([
        expect.objectContaining({ source: 'logs', message: 'this is not json' }),
      ]);
      // Exact records: a timed-out call has no exit code (it is not an exit 0).
      expect(recordsOf(sink.records, 'hook_failed')[0]?.exit_code).toBeNull();
    },
    TIMEOUT,
  );

  it(
    'denies like spawn mode when the worker prints a debug line before its deny',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER);
      const denied = await engine.run('PreToolUse', call('debug-deny'));
      const next = await engine.run('PreToolUse', call('allow', {}, 'call_2'));
      await engine.close();
      expect(denied).toMatchObject({ decision: 'deny', hookId: 'policy' });
      expect(denied.results[0]).toMatchObject({ status: 'finished' });
      expect(recordsOf(sink.records, 'hook_log')[0]).toMatchObject({
        source: 'logs',
        message: 'debug: checking the command',
        call_id: 'call_1',
      });
      // The same worker serves the next call: a log line is no protocol violation.
      expect(recordsOf(sink.records, 'worker_started')).toHaveLength(1);
      expect(next.decision).toBe('allow');
    },
    TIMEOUT,
  );

  it(
    'keeps a deny printed without the response wrapper (an intended deny is never lost)',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER);
      const denied = await engine.run('PreToolUse', call('bare-deny'));
      await engine.close();
      expect(denied).toMatchObject({ decision: 'deny', reason: 'bare' });
      expect(denied.results[0]).toMatchObject({ status: 'failed', failure: 'protocol_error' });
      expect(recordsOf(sink.records, 'worker_stopped').map((r) => r.reason)).toEqual([
        'protocol_error',
      ]);
    },
    TIMEOUT,
  );

  it(
    "never takes a stray line already in the pipe for the next call's answer when the host asks again at once",
    async () => {
      const marker = path.join(tempDir(), 'stray-written');
      const { engine, sink } = workerSetup(NODE_WORKER);
      expect((await engine.run('PreToolUse', call('stray-marked', { marker }))).decision).toBe(
        'allow',
      );
      // A few turns, so that any wait begun at the answer is over.
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
      // The event loop stays blocked until the stray line is in the pipe: only a read made when
      // the next request is about to go out can see it. The bound only stops a broken worker.
      const bound = Date.now() + 60_000;
      while (!fs.existsSync(marker) && Date.now() < bound) {
        // spin: no timer or I/O callback may run here
      }
      const next = await engine.run('PreToolUse', call('deny', {}, 'call_2'));
      await engine.close();
      expect(next.decision).toBe('deny');
      expect(recordsOf(sink.records, 'worker_stopped').map((r) => r.reason)).toEqual([
        'protocol_error',
        'session_end',
      ]);
    },
    TIMEOUT,
  );

  it(
    "never takes a stray line for the next id as the next call's answer",
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER);
      expect((await engine.run('PreToolUse', call('stray-next'))).decision).toBe('allow');
      // The stray answer arrives between calls: the worker is replaced, and the next call is
      // answered by a fresh worker, not by the stray line.
      expect(await eventually(() => recordsOf(sink.records, 'worker_stopped').length === 1)).toBe(
        true,
      );
      const next = await engine.run('PreToolUse', call('deny', {}, 'call_2'));
      await engine.close();
      expect(next.decision).toBe('deny');
      expect(recordsOf(sink.records, 'worker_stopped').map((r) => r.reason)).toEqual([
        'protocol_error',
        'session_end',
      ]);
      expect(recordsOf(sink.records, 'worker_started')).toHaveLength(2);
    },
    TIMEOUT,
  );

  it(
    'fails a call cut by close as aborted and records one worker_stopped',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER);
      const pending = engine.run('PreToolUse', call('hang'));
      await eventually(() => recordsOf(sink.records, 'hook_started').length === 1);
      await engine.close();
      const cut = await pending;
      expect(cut.results[0]).toMatchObject({ status: 'failed', failure: 'aborted' });
      expect(recordsOf(sink.records, 'worker_stopped')).toEqual([
        expect.objectContaining({ reason: 'session_end' }),
      ]);
      expect(recordTypes(sink.records)).toEqual([
        'worker_started',
        'hook_started',
        'hook_failed',
        'worker_stopped',
      ]);
    },
    TIMEOUT,
  );

  it(
    'fails the call with output_too_large when a response line passes max_output_bytes',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER, {}, '[runner]\nmax_output_bytes = 4096\n');
      const flooded = await engine.run('PreToolUse', call('flood'));
      await engine.close();
      expect(flooded.results[0]).toMatchObject({ status: 'failed', failure: 'output_too_large' });
      expect(recordsOf(sink.records, 'worker_stopped')[0]?.reason).toBe('output_too_large');
    },
    TIMEOUT,
  );

  it(
    'leaves no background child of the worker alive after close',
    async () => {
      const { engine } = workerSetup(NODE_WORKER);
      const pidFile = path.join(tempDir(), 'child.pid');
      await engine.run('PreToolUse', call('fork', { pid_file: pidFile }));
      const child = Number(fs.readFileSync(pidFile, 'utf8'));
      expect(isAlive(child)).toBe(true);
      await engine.close();
      expect(await eventually(() => !isAlive(child))).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'fails the call with aborted and stops the worker when the call is cancelled',
    async () => {
      const { engine, sink } = workerSetup(NODE_WORKER);
      const controller = new AbortController();
      const pending = engine.run('PreToolUse', call('hang'), { signal: controller.signal });
      await eventually(() => recordsOf(sink.records, 'hook_started').length === 1);
      controller.abort();
      const aborted = await pending;
      await engine.close();
      expect(aborted.results[0]).toMatchObject({ status: 'failed', failure: 'aborted' });
      expect(recordsOf(sink.records, 'worker_stopped').map((r) => r.reason)).toEqual(['aborted']);
    },
    TIMEOUT,
  );

  it(
    'records worker_stopped with reason exited when the worker exits between calls',
    async () => {
      const { engine, sink } = workerSetup(
        `read line; printf '{"id":1,"output":{"decision":"allow"}}\\n'; exit 5`,
      );
      expect((await engine.run('PreToolUse', call('allow'))).decision).toBe('allow');
      expect(await eventually(() => recordsOf(sink.records, 'worker_stopped').length === 1)).toBe(
        true,
      );
      await engine.close();
      expect(recordsOf(sink.records, 'worker_stopped')).toEqual([
        expect.objectContaining({ reason: 'exited', exit_code: 5 }),
      ]);
    },
    TIMEOUT,
  );

  it(
    'fails with cwd_invalid and starts nothing when the working dir leads outside the roots',
    async () => {
      // A working dir surely outside the roots is a config error; a project symlink to one loads
      // and is refused when the worker starts.
      const outside = tempDir();
      const { engine, sink, projectDir } = workerSetup(NODE_WORKER, { working_dir: 'link-out' });
      fs.symlinkSync(outside, path.join(projectDir, 'link-out'));
      const outcome = await engine.run('PreToolUse', call('allow'));
      await engine.close();
      expect(outcome.results[0]).toMatchObject({ status: 'failed', failure: 'cwd_invalid' });
      expect(recordTypes(sink.records)).toEqual(['hook_started', 'hook_failed']);
    },
    TIMEOUT,
  );
});

describe('HookEngine.close', () => {
  it('is idempotent and makes run throw ENGINE_CLOSED when called', async () => {
    const { engine } = workerSetup(NODE_WORKER);
    await engine.close();
    await engine.close();
    const error = await engine.run('PreToolUse', call('allow')).catch((caught: unknown) => caught);
    expect(LoopAdapterError.isInstance(error) && error.code).toBe('ENGINE_CLOSED');
  });
});
