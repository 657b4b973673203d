import type { ChildProcess, SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { childProcessModule } from './lazy-builtins.js';
import { onProcessExit, signalGroup, trackRun } from './live-runs.js';
import { posixSpawnerSetting } from './posix-spawner.js';
import { describeCommand, type RunPlan } from './run-plan.js';
import { notStartedAbortedResult, type RunResult } from './run-result.js';
import { RunnerError, switchValue } from './runner-error.js';
import { CONTROL_FD, type HelperControl } from './spawn-helper-control.js';

// The host's side of the spawn helper: a small Node process, started from process.execPath on
// first use, that spawns every run of this process (see spawn-helper-main.ts). Forking a process
// copies its page tables, so a spawn from a host holding 1.2 GB costs ~45 ms against ~2 ms from a
// small one; the helper stays small whatever the host grows to.

/** The helper's argument that turns its posix spawner off. @internal */
export const NO_POSIX_SPAWNER = '--no-posix-spawner';

/** Host → helper, on the IPC channel. */
export type HelperRequest =
  | { t: 'run'; id: number; plan: RunPlan }
  // From warmSpawnHelper: spawn a throwaway run now, so the first real one finds every path warm.
  | { t: 'warm' };

/** Helper → host. */
export type HelperReply =
  | { t: 'ready' }
  | { t: 'started'; id: number; pid: number }
  | { t: 'result'; id: number; result: RunResult }
  // `HELPER_FAILED`: the helper's own posix spawner died under the run; else the spawn failed.
  | { t: 'failed'; id: number; message: string; code?: 'HELPER_FAILED' };

/** Something the runner wants the embedding application to know (and record). */
export interface RunnerWarning {
  /** `SPAWN_HELPER_UNAVAILABLE`: the helper could not start; runs spawn from this process. */
  code: 'SPAWN_HELPER_UNAVAILABLE';
  message: string;
}

/** Where the spawn helper stands in this process. */
export interface SpawnHelperStatus {
  /**
   * `off`: turned off by `setSpawnHelper(false)`; `idle`: not started yet (or restarts on the next
   * run); `starting`; `running`; `unavailable`: could not start, runs spawn directly (see `reason`).
   */
  state: 'off' | 'idle' | 'starting' | 'running' | 'unavailable';
  /** The helper's pid while it is starting or running. */
  pid?: number;
  /** Why it is unavailable. */
  reason?: string;
}

/** How long a helper may take to say it is ready before the runner gives up on it. */
const READY_TIMEOUT_MS = 10_000;

/**
 * How long past a run's own timeout and kill grace the host waits for the helper's answer before it
 * takes the helper for stopped (SIGSTOP, a debugger) or wedged: the run's timer lives in the helper,
 * so the host keeps a deadline of its own and replaces a helper that misses it.
 */
export const HELPER_ANSWER_MARGIN_MS = 2_000;

interface PendingRun {
  plan: RunPlan;
  signal: AbortSignal | undefined;
  resolve(result: RunResult): void;
  reject(error: unknown): void;
  /** Sent to the helper (else still waiting for it to start). */
  sent: boolean;
  pid?: number;
  untrack?: () => void;
  onAbort?: () => void;
  /** The host's own deadline for the helper's answer (see {@link HELPER_ANSWER_MARGIN_MS}). */
  deadline?: NodeJS.Timeout;
}

interface Helper {
  child: ChildProcess;
  ready: boolean;
  runs: Map<number, PendingRun>;
  readyTimer?: NodeJS.Timeout;
  /** Set when the host gave up on the helper: why (the runs in flight fail with it). */
  lost?: string;
  /** Started by warmSpawnHelper: once ready with no run to send, it is asked to warm up. */
  warm?: boolean;
}

let enabled = true;
let helper: Helper | undefined;
let unavailable: string | undefined;
let nextId = 1;
let entryOverride: string | undefined;
const warningListeners = new Set<(warning: RunnerWarning) => void>();
const warnings: RunnerWarning[] = [];

/**
 * Turns the spawn helper on (the default) or off for this process: off, every run spawns from this
 * process, as before the helper existed. `RunOptions.spawnHelper` overrides it per run.
 */
export function setSpawnHelper(on: boolean): void {
  enabled = switchValue('setSpawnHelper', on);
}

/** The runner-wide setting of {@link setSpawnHelper}. @internal */
export function spawnHelperSetting(): boolean {
  return enabled;
}

/** Where the spawn helper stands (for diagnostics and tests). */
export function spawnHelperStatus(): SpawnHelperStatus {
  if (unavailable !== undefined) return { state: 'unavailable', reason: unavailable };
  if (!enabled) return { state: 'off' };
  if (helper === undefined) return { state: 'idle' };
  const pid = helper.child.pid;
  const state = helper.ready ? 'running' : 'starting';
  return pid === undefined ? { state } : { state, pid };
}

/**
 * Calls `listener` with each warning of the runner: the ones already given (each is given once
 * per process) and those to come. Returns a function that removes the listener.
 */
export function onRunnerWarning(listener: (warning: RunnerWarning) => void): () => void {
  for (const warning of warnings) listener(warning);
  warningListeners.add(listener);
  return () => {
    warningListeners.delete(listener);
  };
}

/** Starts the spawn helper now, when it is on and none is running or starting. @internal */
export function warmHelper(): void {
  if (!enabled || helper !== undefined || !helperRuntimeFits()) return;
  const started = startHelper();
  if (started !== undefined) started.warm = true;
}

/** Use another helper entry file (tests running from TypeScript sources). @internal */
export function setSpawnHelperEntry(file: string | undefined): void {
  entryOverride = file;
}

/**
 * Run `plan` through the helper; when the helper cannot start, through `direct` in this process.
 * @internal
 */
export function runThroughHelper(
  plan: RunPlan,
  signal: AbortSignal | undefined,
  direct: (plan: RunPlan, signal: AbortSignal | undefined) => Promise<RunResult>,
): Promise<RunResult> {
  if (!helperRuntimeFits()) return direct(plan, signal);
  const current = helper ?? startHelper();
  if (current === undefined) return direct(plan, signal);
  return new Promise<RunResult>((resolve, reject) => {
    const id = nextId;
    nextId += 1;
    const run: PendingRun = { plan, signal, resolve, reject, sent: false };
    // Tracked from now on: killAllRuns stops a run still waiting for the helper to start too.
    run.untrack = trackRun({
      get pid() {
        return run.pid;
      },
      stop: (stopSignal) => {
        if (run.sent) {
          control(current, { t: 'stop', id, signal: stopSignal });
          return;
        }
        finish(current, id, run);
        resolve(notStartedAbortedResult());
      },
    });
    current.runs.set(id, run);
    holdWhileBusy(current);
    // Listened to from now on, not from the send: an abort while the helper starts (up to its
    // ready timeout under load) ends the run at once, not when the helper comes up.
    run.onAbort = () => {
      if (run.sent) {
        control(current, { t: 'abort', id });
        return;
      }
      finish(current, id, run);
      resolve(notStartedAbortedResult());
    };
    if (signal?.aborted === true) run.onAbort();
    else signal?.addEventListener('abort', run.onAbort, { once: true });
    if (current.ready && current.runs.has(id)) send(current, id, run);
  }).catch((error: unknown) => {
    // The helper could not start before this run was sent: run it here instead.
    if (error === NOT_STARTED) return direct(plan, signal);
    throw error;
  });
}

const NOT_STARTED = Symbol('spawn helper not started');

/**
 * Why this runtime cannot run the spawn helper, or undefined when it can. The helper is
 * `process.execPath` running a Node script with an IPC channel whose `ref`/`unref` keep or release
 * the host. Bun has neither: in OpenCode (plugins run in-process under Bun) `process.execPath` is
 * the opencode binary, which takes the script for a project dir, and Bun's IPC channel has no
 * `unref`. There every run spawns from the host, with the same bounds.
 * @internal
 */
export function spawnHelperRuntimeGap(): string | undefined {
  const bun = (process.versions as Record<string, string | undefined>).bun;
  if (bun !== undefined)
    return `this runtime is Bun ${bun} (process.execPath ${process.execPath} is not a Node that runs the helper's script, and Bun's IPC channel has no unref)`;
  return undefined;
}

// True unless the helper was found unusable here (said once, through onRunnerWarning).
function helperRuntimeFits(): boolean {
  if (unavailable !== undefined) return false;
  const gap = spawnHelperRuntimeGap();
  if (gap === undefined) return true;
  giveUp(gap);
  return false;
}

// Another runtime's child process may lack parts of Node's IPC channel: checked before use, so a
// missing method makes the helper unavailable (runs spawn directly) instead of failing every run.
function channelLacks(child: ChildProcess): string | undefined {
  if (typeof child.send !== 'function') return 'its child process has no send()';
  const { channel } = child;
  if (channel === undefined || channel === null) return 'its child process has no IPC channel';
  if (typeof channel.ref !== 'function' || typeof channel.unref !== 'function')
    return 'its IPC channel has no ref()/unref()';
  return undefined;
}

function send(current: Helper, id: number, run: PendingRun): void {
  run.sent = true;
  const { timeoutMs, killGraceMs } = run.plan;
  if (timeoutMs > 0) {
    run.deadline = setTimeout(
      () => giveUpOnHelper(current, id),
      timeoutMs + killGraceMs + HELPER_ANSWER_MARGIN_MS,
    );
  }
  post(current, { t: 'run', id, plan: run.plan });
}

// While a run is in flight the helper's process and channel keep the host's event loop alive: a
// helper that dies mid-run is then seen ('close') and its runs fail, instead of the host running
// out of work and exiting 0 in the middle of an await.
function holdWhileBusy(current: Helper): void {
  current.child.ref();
  current.child.channel?.ref();
}

// A run's answer is late past its own timeout and grace: the helper is stopped or wedged. It is
// killed with what it started, every run in flight fails, and the next run starts a new helper.
function giveUpOnHelper(current: Helper, id: number): void {
  const run = current.runs.get(id);
  if (run === undefined) return;
  const seconds = (run.plan.timeoutMs + run.plan.killGraceMs + HELPER_ANSWER_MARGIN_MS) / 1000;
  current.lost = `the runner's spawn helper (pid ${current.child.pid}) did not answer within ${seconds} s (the run's timeout, grace and ${HELPER_ANSWER_MARGIN_MS / 1000} s): it was killed with what it had started, and the next run starts a new one`;
  killHelper(current);
  helperGone(current);
}

// SIGKILL to the helper and, first, to every group it started (by the pids it reported and, on
// Linux, by its children as /proc lists them: a stopped helper may not have reported one yet).
function killHelper(current: Helper): void {
  const pid = current.child.pid;
  if (pid === undefined) return;
  for (const run of current.runs.values())
    if (run.pid !== undefined) signalGroup(run.pid, 'SIGKILL');
  for (const child of childrenOf(pid)) signalGroup(child, 'SIGKILL');
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function childrenOf(pid: number): number[] {
  if (process.platform !== 'linux') return [];
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((item) => item.trim() !== '')
      .map(Number);
  } catch {
    return [];
  }
}

function startHelper(): Helper | undefined {
  const entry = entryOverride ?? fileURLToPath(new URL('./spawn-helper-main.js', import.meta.url));
  if (!fs.existsSync(entry)) {
    giveUp(`its entry file ${entry} is missing`);
    return undefined;
  }
  let child: ChildProcess;
  try {
    // The runner-wide posix spawner setting reaches the helper, which spawns the children.
    const args = posixSpawnerSetting() ? [entry] : [entry, NO_POSIX_SPAWNER];
    child = childProcessModule().spawn(process.execPath, args, {
      // Only what the helper needs, nothing of the host's (no secrets in /proc/<helper>/environ):
      // each run's environment comes with the run.
      env: helperEnv(),
      execArgv: [],
      cwd: '/',
      // Its own session: a terminal's Ctrl-C reaches the host, which decides, not the helper.
      detached: true,
      stdio: ['ignore', 'ignore', 'ignore', 'ipc', 'pipe'],
      serialization: 'advanced',
    } as SpawnOptions);
  } catch (error) {
    giveUp(describe(error));
    return undefined;
  }
  const lacks = channelLacks(child);
  if (lacks !== undefined) {
    giveUp(lacks);
    child.kill('SIGKILL');
    return undefined;
  }
  const current: Helper = { child, ready: false, runs: new Map() };
  helper = current;
  child.unref();
  child.channel?.unref();
  killAtExit();
  const controlPipe = child.stdio[CONTROL_FD] as Socket | null | undefined;
  // A dead helper is seen on the channel ('close' below).
  controlPipe?.on('error', noop);
  controlPipe?.unref();
  current.readyTimer = setTimeout(() => {
    if (!current.ready) {
      giveUp(`it did not start within ${READY_TIMEOUT_MS} ms`);
      child.kill('SIGKILL');
      helperGone(current);
    }
  }, READY_TIMEOUT_MS);
  current.readyTimer.unref();
  child.on('message', (message: HelperReply) => onReply(current, message));
  child.on('error', (error) => {
    if (!current.ready) giveUp(describe(error));
    helperGone(current);
  });
  // 'close', not 'exit': it comes after the last message the helper sent.
  child.on('close', (code, signal) => {
    if (!current.ready) giveUp(`it exited at start (${signal ?? `code ${code}`})`);
    helperGone(current);
  });
  return current;
}

function onReply(current: Helper, message: HelperReply): void {
  if (message.t === 'ready') {
    current.ready = true;
    clearTimeout(current.readyTimer);
    for (const [id, run] of current.runs) send(current, id, run);
    // Its first spawn costs several times a later one (Node's first spawn, the first
    // message each way): paid now, off the critical path, unless a run is already waiting.
    if (current.warm === true && current.runs.size === 0) post(current, { t: 'warm' });
    return;
  }
  const run = current.runs.get(message.id);
  if (run === undefined) return;
  if (message.t === 'started') {
    run.pid = message.pid;
    return;
  }
  finish(current, message.id, run);
  if (message.t === 'result') run.resolve(message.result);
  else
    run.reject(new RunnerError({ code: message.code ?? 'SPAWN_FAILED', message: message.message }));
}

function finish(current: Helper, id: number, run: PendingRun): void {
  current.runs.delete(id);
  clearTimeout(run.deadline);
  run.untrack?.();
  if (run.onAbort !== undefined) run.signal?.removeEventListener('abort', run.onAbort);
  releaseIfIdle(current);
}

function releaseIfIdle(current: Helper): void {
  // An idle helper must not keep the host's event loop alive.
  if (current.runs.size > 0) return;
  current.child.unref();
  current.child.channel?.unref();
}

// The helper is gone (killed, crashed, or never started): what it spawned is killed, runs in
// flight fail as spawn errors, and the next run starts a new helper.
function helperGone(current: Helper): void {
  if (helper === current) helper = undefined;
  clearTimeout(current.readyTimer);
  for (const [id, run] of [...current.runs]) {
    finish(current, id, run);
    if (!current.ready) {
      run.reject(NOT_STARTED);
      continue;
    }
    if (run.pid !== undefined) signalGroup(run.pid, 'SIGKILL');
    const why =
      current.lost ??
      `the runner's spawn helper (pid ${current.child.pid}) died during the run; what it had started was killed, and the next run starts a new one`;
    run.reject(
      new RunnerError({
        code: 'HELPER_FAILED',
        message: `could not finish ${describeCommand(run.plan)}: ${why}`,
      }),
    );
  }
}

let exitHookInstalled = false;

// A helper outlives the host only if it cannot hear the channel close (stopped, wedged): at the
// host's exit it is killed with what it started. A healthy one would have gone anyway.
function killAtExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  onProcessExit(() => {
    if (helper !== undefined) killHelper(helper);
  });
}

function giveUp(reason: string): void {
  if (unavailable !== undefined) return;
  unavailable = reason;
  const warning: RunnerWarning = {
    code: 'SPAWN_HELPER_UNAVAILABLE',
    message: `the runner's spawn helper could not start (${reason}): hooks and tools are spawned from this process, which costs more the more memory it holds`,
  };
  warnings.push(warning);
  for (const listener of [...warningListeners]) listener(warning);
}

function control(current: Helper, message: HelperControl): void {
  const controlPipe = current.child.stdio[CONTROL_FD] as Socket | null | undefined;
  if (controlPipe?.writable === true) controlPipe.write(`${JSON.stringify(message)}\n`);
}

function noop(): void {}

function post(current: Helper, request: HelperRequest): void {
  try {
    current.child.send(request);
  } catch {
    // The channel closed: the exit handler fails the run.
  }
}

function helperEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  // Where the helper writes stdin files when there is no /dev/shm (macOS).
  const tmpdir = process.env.TMPDIR;
  if (tmpdir !== undefined && tmpdir !== '') env.TMPDIR = tmpdir;
  // In Electron (an editor's extension host) process.execPath is the app: run it as Node.
  if (process.versions.electron !== undefined) env.ELECTRON_RUN_AS_NODE = '1';
  return env;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
