import type { Readable, Writable } from 'node:stream';
import { signalGroup, trackRun } from './live-runs.js';
import { type SpawnedChild, spawnThroughSpawner, spawnWithNode } from './posix-spawner.js';
import { DRAIN_WINDOW_MS } from './run-options.js';

/** What to start: one child that leads its own process group. */
export interface GroupSpec {
  file: string;
  args: readonly string[];
  /** The child's argv[0], when not `file`. */
  argv0?: string;
  /** Absolute, already checked. */
  cwd: string;
  /** The child's whole environment (nothing of the parent's is added). */
  env: Record<string, string>;
  /** stdio of the child (a descriptor number is passed through to the child as is). */
  stdio: ('pipe' | 'ignore' | number)[];
  /** Time between SIGTERM and SIGKILL when {@link ProcessGroup.terminate} is called. */
  killGraceMs: number;
  /**
   * Settling does not kill what is left of the group: it stays tracked until
   * {@link ProcessGroup.release} (a step of a list, whose background processes live as long as
   * the list, as in the shell's one group).
   */
  hold?: boolean;
  /**
   * `stdio[0]` is a descriptor the owner gives several groups in turn (a list's input file): they
   * share its file offset, as the children of one shell share the shell's.
   */
  sharedStdin?: boolean;
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
  /**
   * Set when what spawned the group (the posix spawner) died before the leader's exit could be
   * read: why. The group has been SIGKILLed; the run fails with `HELPER_FAILED`.
   */
  readonly lost: string | undefined;
  /** Sends `signal` to the group; for anything but SIGKILL, SIGKILL follows after `graceMs`. */
  terminate(signal: NodeJS.Signals, graceMs?: number): void;
  /** A held group ({@link GroupSpec.hold}), settled: SIGKILL to what is left of it, untracked. */
  release(): void;
}

/**
 * Start `spec` as a group. Rejects with the spawn error (the caller words it); then nothing runs.
 * The caller reads stdout and stderr (their `close` is counted here) and writes stdin.
 */
export async function startProcessGroup(
  spec: GroupSpec,
  events: GroupEvents,
): Promise<ProcessGroup> {
  // Tracked from before the spawn, so the exit-time cleanup never misses a group.
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
  let subprocess: SpawnedChild;
  try {
    const throughSpawner = spawnThroughSpawner(spec);
    subprocess = throughSpawner === undefined ? spawnWithNode(spec) : await throughSpawner;
  } catch (error) {
    untrack();
    throw error;
  }
  if (subprocess.pid === undefined) {
    // ENOENT, EACCES and the like come as an 'error' event on the next tick, with no pid.
    untrack();
    const error = await new Promise<unknown>((resolve) => subprocess.once('error', resolve));
    for (const stream of subprocess.stdio) stream?.destroy();
    throw error;
  }
  const groupId = subprocess.pid;
  pid = groupId;
  // Later errors (a failed kill of a gone process) are not the run's: its result comes from 'exit'.
  subprocess.on('error', noop);

  let exit: GroupExit | undefined;
  let settled = false;
  let graceTimer: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  const kill = (): void => {
    signalGroup(groupId, 'SIGKILL');
    if (exit === undefined) subprocess.groupKilled?.();
  };
  const terminate = (signal: NodeJS.Signals, graceMs = spec.killGraceMs): void => {
    if (signal === 'SIGKILL') kill();
    else signalGroup(groupId, signal);
    // The escalation does not look at the leader: the group may outlive it.
    if (signal !== 'SIGKILL') graceTimer ??= setTimeout(kill, graceMs);
  };
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    untrack();
    signalGroup(groupId, 'SIGKILL');
  };
  const settle = (): void => {
    if (settled) return;
    settled = true;
    clearTimeout(graceTimer);
    clearTimeout(drainTimer);
    // Whatever is left of the group (a background grandchild holding a pipe) dies now.
    if (spec.hold !== true) release();
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
    get lost() {
      return subprocess.lost;
    },
    terminate,
    release,
  };
}

function noop(): void {}
