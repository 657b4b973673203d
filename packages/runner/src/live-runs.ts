import { onExit } from 'signal-exit';

/** A run in flight, as seen by the exit-time cleanup. */
export interface LiveRun {
  /** Stop the run's process group with `signal`; the run then settles as aborted. */
  stop(signal: NodeJS.Signals): void;
  /**
   * The run's process group id, once known: the exit-time cleanup also signals it directly, for
   * runs whose `stop` only asks another process (the spawn helper) to stop them.
   */
  readonly pid?: number | undefined;
}

/** Signals after which the runner kills every group even when the application handles them. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const liveRuns = new Set<LiveRun>();
let exitHookInstalled = false;
let listeningForStopSignals = false;
let fileSizeSignalKept = false;

/**
 * Runs `callback` when the process ends (exit, or a fatal signal nobody else handles), through
 * signal-exit, without changing what a signal does to the process. signal-exit listens for
 * SIGXFSZ and re-raises it when it is alone; Node ignores SIGXFSZ (a write past `ulimit -f` fails
 * with EFBIG and the host can say so), so a no-op listener keeps it ignored: a host whose disk
 * fills must not die of loading the runner.
 */
export function onProcessExit(callback: () => void): void {
  if (!fileSizeSignalKept && process.platform !== 'win32') {
    fileSizeSignalKept = true;
    process.on('SIGXFSZ', keepIgnoring);
  }
  onExit(callback);
}

function keepIgnoring(): void {
  // Node's default for SIGXFSZ: nothing happens; the write that passed the limit fails with EFBIG.
}

/**
 * Send `signal` to every member of the process group led by `pgid`. Never throws: a gone group
 * (ESRCH) is the common case at settle, and a group we may not signal (EPERM) is no longer ours.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  // Skip building a stack trace for the expected error: this runs once per run.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone or not ours: nothing left to signal
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** Track a run until it settles; installs the process-wide handlers while runs can be in flight. */
export function trackRun(run: LiveRun): () => void {
  installHandlers();
  liveRuns.add(run);
  return () => {
    liveRuns.delete(run);
  };
}

/**
 * Kill the process group of every run still in flight (they settle with `aborted: true`).
 * Called by the runner's own exit and signal handlers; exported for agents that handle
 * those signals themselves. Returns how many runs were stopped.
 * @param signal - the signal sent to each group. @default 'SIGKILL'
 */
export function killAllRuns(signal: NodeJS.Signals = 'SIGKILL'): number {
  const runs = [...liveRuns];
  for (const run of runs) run.stop(signal);
  return runs.length;
}

function installHandlers(): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // The process is ending (exit, or a fatal signal nobody else handles): signal-exit calls this
    // and then re-raises the signal, cooperating with every other signal-exit user (execa's cleanup).
    onProcessExit(() => {
      for (const run of [...liveRuns]) {
        run.stop('SIGKILL');
        if (run.pid !== undefined) signalGroup(run.pid, 'SIGKILL');
      }
    });
  }
  if (listeningForStopSignals) return;
  listeningForStopSignals = true;
  // Before any other listener (signal-exit's included), so the groups die even when the
  // application handles the signal itself and keeps running.
  for (const signal of STOP_SIGNALS) process.prependListener(signal, onStopSignal);
}

function onStopSignal(signal: NodeJS.Signals): void {
  killAllRuns('SIGKILL');
  // Step aside, so the signal does what it would do without the runner: signal-exit re-raises it
  // when no one else listens (its listener runs next, in this same emit); an application listener
  // decides for itself. The next run puts this listener back.
  for (const name of STOP_SIGNALS) process.removeListener(name, onStopSignal);
  listeningForStopSignals = false;
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}
