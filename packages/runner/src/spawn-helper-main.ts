// The spawn helper process (see spawn-helper.ts): started by the runner from process.execPath with
// an IPC channel and a minimal environment. It runs each run it is sent with the same core as a
// direct run and answers with the result. When the host goes away (the channel reaches EOF, even
// when the host was SIGKILLed) it kills every group it started and exits.
import net from 'node:net';
import { createInterface } from 'node:readline';
import { killAllRuns } from './live-runs.js';
import { setPosixSpawner, warmPosixSpawner } from './posix-spawner.js';
import { runPlan } from './run-command.js';
import type { RunPlan } from './run-plan.js';
import { RunnerError } from './runner-error.js';
import { type HelperReply, type HelperRequest, NO_POSIX_SPAWNER } from './spawn-helper.js';
import { CONTROL_FD, type HelperControl } from './spawn-helper-control.js';

interface Run {
  abort: AbortController;
  /** How to stop the run's group, once it is spawned. */
  stop?: (signal: NodeJS.Signals) => void;
  /** A stop (the host's killAllRuns) that came before the group existed: applied at spawn. */
  stopBeforeSpawn?: NodeJS.Signals;
}

const runs = new Map<number, Run>();
// The host numbers runs in the order it sends them. A stop on the control pipe can overtake its run
// on the channel (behind other runs' inputs): it waits here, and the run then spawns nothing.
let lastRunId = 0;
const stoppedBeforeArrival = new Set<number>();

function reply(message: HelperReply): void {
  // The host is gone when this fails: 'disconnect' ends the helper.
  try {
    process.send?.(message);
  } catch {
    // nothing to tell anyone
  }
}

// A run of a no-op through the same path as a real run (an input file, the spawn, the collectors), not
// counted as a run and not answered: it warms what the first real run needs.
const WARM_UP: RunPlan = {
  file: '/bin/sh',
  args: ['-c', 'cat >/dev/null'],
  shell: true,
  cwd: '/',
  env: {},
  input: '{}',
  timeoutMs: 5000,
  killGraceMs: 100,
  maxOutputBytes: 1024,
  tailBytes: 256,
  stopOnOutputLimit: false,
};

function onRequest(request: HelperRequest): void {
  if (request.t === 'warm') {
    runPlan(WARM_UP, undefined).catch(noop);
    return;
  }
  lastRunId = request.id;
  const run: Run = { abort: new AbortController() };
  runs.set(request.id, run);
  // Stopped on its way here: runPlan spawns nothing for an aborted signal.
  if (stoppedBeforeArrival.delete(request.id)) run.abort.abort();
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
        ...(RunnerError.isInstance(error) && error.code === 'HELPER_FAILED'
          ? { code: 'HELPER_FAILED' as const }
          : {}),
      });
    },
  );
}

function onControl(message: HelperControl): void {
  const run = runs.get(message.id);
  if (run === undefined) {
    // Not here yet (a later run than the last one received), or already settled.
    if (message.id > lastRunId) stoppedBeforeArrival.add(message.id);
    return;
  }
  if (message.t === 'abort') run.abort.abort();
  // A stop that comes before the spawn has finished (the spawn's promise not yet settled): kept,
  // not dropped.
  else if (run.stop === undefined) run.stopBeforeSpawn = message.signal;
  else run.stop(message.signal);
}

if (process.send === undefined) {
  process.stderr.write('the spawn helper is started by @soong-agent/runner, not by hand\n');
  process.exit(2);
}
process.on('message', onRequest);
// Lines of JSON from the host; its end comes with the channel's ('disconnect' ends the helper).
const controlPipe = new net.Socket({ fd: CONTROL_FD, readable: true, writable: false });
controlPipe.on('error', () => {});
createInterface({ input: controlPipe }).on('line', (line) => {
  try {
    onControl(JSON.parse(line) as HelperControl);
  } catch {
    // not from the runner: ignored
  }
});
process.on('disconnect', () => {
  killAllRuns('SIGKILL');
  process.exit(0);
});
reply({ t: 'ready' });
// The children's spawner (where it can run) starts now, beside the host's first turn.
if (process.argv.includes(NO_POSIX_SPAWNER)) setPosixSpawner(false);
else warmPosixSpawner();

function noop(): void {}
