import type { Readable, Writable } from 'node:stream';
import { signalGroup, trackRun } from './live-runs.js';
import { DRAIN_WINDOW_MS } from './run-options.js';

// execa is loaded on the first spawn in this process, not when the runner is imported: a host whose
// runs all go through the spawn helper never needs it (and starts faster without it).
let execaModule: Promise<typeof import('execa')> | undefined;
let execaLoaded: typeof import('execa') | undefined;

/** Loads execa now (the spawn helper does it at start, before its first run). */
export function loadSpawner(): Promise<typeof import('execa')> {
  execaModule ??= import('execa').then((loaded) => {
    execaLoaded = loaded;
    return loaded;
  });
  return execaModule;
}

/** What to start: one child that leads its own process group. */
export interface GroupSpec {
  file: string;
  args: readonly string[];
  /** Absolute, already checked. */
  cwd: string;
  /** The child's whole environment (nothing of the parent's is added). */
  env: Record<string, string>;
  /** stdio of the child (execa passes a descriptor number through to child_process.spawn). */
  stdio: ('pipe' | 'ignore' | number)[];
  /** Time between SIGTERM and SIGKILL when {@link ProcessGroup.terminate} is called. */
  killGraceMs: number;
}

/** How the group leader ended. */
export interface GroupExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What the owner of a group hears about it. */
export interface GroupEvents {
  /** The leader exited (the group may still hold the pipes for up to the drain window). */
  onExit?(exit: GroupExit): void;
  /** Once: the leader exited and the pipes closed (or the drain window passed); the group was SIGKILLed. */
  onSettle(exit: GroupExit): void;
  /**
   * `killAllRuns` or the process's exit asks this group to stop.
   * @default terminate(signal)
   */
  onStop?(signal: NodeJS.Signals): void;
}

/**
 * One child in its own process group, with the lifecycle every run and worker shares: detached
 * spawn with an exact environment, tracked for exit-time cleanup, SIGTERM then SIGKILL of the whole
 * group, a short drain window for pipes a background grandchild holds, and a final SIGKILL of the
 * group when it settles, so nothing of it outlives its owner's interest.
 */
export interface ProcessGroup {
  /** The pid of the leader, which is the process group id. */
  readonly pid: number;
  /** The leader's stdio streams, by descriptor number (null where not piped). */
  readonly stdio: readonly (Readable | Writable | null)[];
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** The leader's exit, once it exited. */
  readonly exit: GroupExit | undefined;
  readonly settled: boolean;
  /** Sends `signal` to the group; for anything but SIGKILL, SIGKILL follows after `graceMs`. */
  terminate(signal: NodeJS.Signals, graceMs?: number): void;
}

/**
 * Start `spec` as a group. Rejects with the spawn error (the caller words it); then nothing runs.
 * The caller reads stdout and stderr (their `close` is counted here) and writes stdin.
 */
export async function startProcessGroup(
  spec: GroupSpec,
  events: GroupEvents,
): Promise<ProcessGroup> {
  // Tracked from before the spawn: a stop that comes while execa loads (the first spawn of the
  // process) is applied as soon as the group exists.
  let pid: number | undefined;
  let stopBeforeSpawn: NodeJS.Signals | undefined;
  const stopGroup = (signal: NodeJS.Signals): void => {
    if (events.onStop === undefined) terminate(signal);
    else events.onStop(signal);
  };
  const untrack = trackRun({
    get pid() {
      return pid;
    },
    stop: (signal) => {
      if (pid === undefined) stopBeforeSpawn = signal;
      else stopGroup(signal);
    },
  });
  let subprocess: ReturnType<typeof spawnDetached>;
  try {
    subprocess = spawnDetached(execaLoaded ?? (await loadSpawner()), spec);
  } catch (error) {
    untrack();
    throw error;
  }
  if (subprocess.pid === undefined) {
    untrack();
    const result = await subprocess.catch((error: unknown) => error);
    throw (result as { cause?: unknown }).cause ?? result;
  }
  const groupId = subprocess.pid;
  pid = groupId;
  subprocess.then(noop, noop);

  let exit: GroupExit | undefined;
  let settled = false;
  let graceTimer: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  const terminate = (signal: NodeJS.Signals, graceMs = spec.killGraceMs): void => {
    signalGroup(groupId, signal);
    // The escalation does not look at the leader: the group may outlive it.
    if (signal !== 'SIGKILL')
      graceTimer ??= setTimeout(() => signalGroup(groupId, 'SIGKILL'), graceMs);
  };
  const settle = (): void => {
    if (settled) return;
    settled = true;
    clearTimeout(graceTimer);
    clearTimeout(drainTimer);
    untrack();
    // Whatever is left of the group (a background grandchild holding a pipe) dies now.
    signalGroup(groupId, 'SIGKILL');
    for (const stream of subprocess.stdio) stream?.destroy();
    events.onSettle(exit ?? { code: null, signal: null });
  };

  let openStreams = 2;
  const onStreamClosed = (): void => {
    openStreams -= 1;
    if (openStreams === 0 && exit !== undefined) settle();
  };
  for (const stream of [subprocess.stdout, subprocess.stderr]) {
    if (stream === null) onStreamClosed();
    else {
      stream.on('error', noop);
      stream.once('close', onStreamClosed);
    }
  }
  // A child that never reads its stdin is fine: EPIPE/ECONNRESET are not failures.
  for (const stream of subprocess.stdio.slice(0, 1).concat(subprocess.stdio.slice(3)))
    stream?.on('error', noop);

  subprocess.once('exit', (code, signal) => {
    exit = { code, signal };
    events.onExit?.(exit);
    if (openStreams === 0) settle();
    // A background process may hold the pipes open forever: give them a short window, then one
    // more turn of the event loop so data already in the pipes is read, then settle.
    else drainTimer = setTimeout(() => setImmediate(settle), DRAIN_WINDOW_MS);
  });

  if (stopBeforeSpawn !== undefined) stopGroup(stopBeforeSpawn);
  return {
    pid: groupId,
    stdio: subprocess.stdio as ProcessGroup['stdio'],
    stdin: subprocess.stdin,
    stdout: subprocess.stdout,
    stderr: subprocess.stderr,
    get exit() {
      return exit;
    },
    get settled() {
      return settled;
    },
    terminate,
  };
}

// execa's own timeout, maxBuffer, cleanup and promise do not give our guarantees (they act on the
// direct child only, kill instead of draining, or wait for every pipe holder), so they are all off
// and the process and its streams are driven by startProcessGroup.
function spawnDetached({ execa }: typeof import('execa'), spec: GroupSpec) {
  return execa(spec.file, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    extendEnv: false,
    stdio: spec.stdio as ['pipe', 'pipe', 'pipe'],
    buffer: false,
    detached: true,
    cleanup: false,
    reject: false,
    stripFinalNewline: false,
  });
}

function noop(): void {}
