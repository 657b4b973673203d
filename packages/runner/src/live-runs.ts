/** A run in flight, as seen by the exit-time cleanup. */
export interface LiveRun {
  /** Stop the run's process group with `signal`; the run then settles as aborted. */
  stop(signal: NodeJS.Signals): void;
}

const liveRuns = new Set<LiveRun>();
let handlersInstalled = false;

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

/** Track a run until it settles; installs the process-wide handlers on first use. */
export function trackRun(run: LiveRun): () => void {
  installHandlers();
  liveRuns.add(run);
  return () => {
    liveRuns.delete(run);
  };
}

/**
 * Kill the process group of every run still in flight (they settle with `aborted: true`).
 * Called by the runner's own SIGINT/SIGTERM/SIGHUP/exit handlers; exported for agents that handle
 * those signals themselves. Returns how many runs were stopped.
 * @param signal - the signal sent to each group. @default 'SIGKILL'
 */
export function killAllRuns(signal: NodeJS.Signals = 'SIGKILL'): number {
  const runs = [...liveRuns];
  for (const run of runs) run.stop(signal);
  return runs.length;
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    killAllRuns('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      killAllRuns('SIGKILL');
      // Listening for a signal disables Node's default "die". Restore it unless someone else
      // has taken responsibility for the signal.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}
