// The spawn helper process (see spawn-helper.ts): started by the runner from process.execPath with
// an IPC channel and a minimal environment. It runs each run it is sent with the same core as a
// direct run and answers with the result. When the host goes away (the channel reaches EOF, even
// when the host was SIGKILLed) it kills every group it started and exits.
import { killAllRuns } from './live-runs.js';
import { loadSpawner } from './process-group.js';
import { runPlan } from './run-command.js';
import type { HelperReply, HelperRequest } from './spawn-helper.js';

interface Run {
  abort: AbortController;
  /** How to stop the run's group, once it is spawned. */
  stop?: (signal: NodeJS.Signals) => void;
  /** A stop (the host's killAllRuns) that came before the group existed: applied at spawn. */
  stopBeforeSpawn?: NodeJS.Signals;
}

const runs = new Map<number, Run>();

function reply(message: HelperReply): void {
  // The host is gone when this fails: 'disconnect' ends the helper.
  try {
    process.send?.(message);
  } catch {
    // nothing to tell anyone
  }
}

function onRequest(request: HelperRequest): void {
  if (request.t === 'run') {
    const run: Run = { abort: new AbortController() };
    runs.set(request.id, run);
    runPlan(request.plan, run.abort.signal, (pid, stop) => {
      run.stop = stop;
      reply({ t: 'started', id: request.id, pid });
      if (run.stopBeforeSpawn !== undefined) stop(run.stopBeforeSpawn);
    }).then(
      (result) => {
        runs.delete(request.id);
        reply({ t: 'result', id: request.id, result });
      },
      (error: unknown) => {
        runs.delete(request.id);
        reply({
          t: 'failed',
          id: request.id,
          message: error instanceof Error ? error.message : String(error),
        });
      },
    );
    return;
  }
  const run = runs.get(request.id);
  if (run === undefined) return;
  if (request.t === 'abort') run.abort.abort();
  // A stop sent right after the run (both read in one go) comes before the spawn has finished
  // (execa still loading, or the spawn's promise not yet settled): kept, not dropped.
  else if (run.stop === undefined) run.stopBeforeSpawn = request.signal;
  else run.stop(request.signal);
}

if (process.send === undefined) {
  process.stderr.write('the spawn helper is started by @soong-agent/runner, not by hand\n');
  process.exit(2);
}
process.on('message', onRequest);
process.on('disconnect', () => {
  killAllRuns('SIGKILL');
  process.exit(0);
});
reply({ t: 'ready' });
// Load the spawner while the host sends the first run.
void loadSpawner();
