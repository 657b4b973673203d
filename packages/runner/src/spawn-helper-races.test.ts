import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { eventually, makeTempDir } from '@soong-agent/test-utils';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  killAllRuns,
  type RunResult,
  runCommand,
  setPosixSpawner,
  spawnHelperStatus,
} from './index.js';
import { setSpawnHelperEntry } from './spawn-helper.js';
import { SPAWNING_PID_COMMAND } from './test-helpers/spawner.js';

// A stop (abort, killAllRuns, timeout) at each stage of a run through the spawn helper: while the
// helper boots, before the run reaches it, after it reached it but before its spawn finished, and
// once it is spawned. The stages are held open by gates (files the test creates), not by timing: a
// wrapper entry imports the real helper only once its boot gate exists, and hands it the runs of
// the channel only once its message gate exists, all at once, as one read of the channel would.
const helperOn = process.env.SOONG_AGENT_TEST_SPAWN_HELPER !== 'off';
// About the Node spawn helper: the posix spawner, which runs children from this process where it
// can, is off here (posix-spawner.test.ts covers it, and its use inside the helper).
setPosixSpawner(false);

interface GatedHelper {
  openBoot(): void;
  openMessages(): void;
}

/**
 * `boot`: the helper starts only at openBoot. `messages`: runs reach it only at openMessages (the
 * control pipe is not held, so a stop overtakes its run). `late`: the wrapper says ready itself and
 * starts the helper only at openMessages, so the stops wait in the pipe and are read after the runs.
 */
function gatedHelper(gates: { boot?: boolean; messages?: boolean; late?: boolean }): GatedHelper {
  const dir = makeTempDir();
  const bootGate = path.join(dir, 'boot');
  const messageGate = path.join(dir, 'messages');
  if (gates.boot !== true) fs.writeFileSync(bootGate, '');
  if (gates.messages !== true && gates.late !== true) fs.writeFileSync(messageGate, '');
  const main = pathToFileURL(inject('spawnHelperEntry')).href;
  const entry = path.join(dir, 'gated-helper.mjs');
  fs.writeFileSync(
    entry,
    `import fs from 'node:fs';
const held = [];
const listeners = [];
let open = false;
const on = process.on.bind(process);
process.on = (event, listener) => {
  if (event !== 'message') return on(event, listener);
  listeners.push(listener);
  return process;
};
on('message', (message) => {
  if (open) for (const listener of listeners) listener(message);
  else held.push(message);
});
const waitFor = (file) =>
  new Promise((resolve) => {
    const poll = setInterval(() => {
      if (!fs.existsSync(file)) return;
      clearInterval(poll);
      resolve();
    }, 5);
  });
await waitFor(${JSON.stringify(bootGate)});
if (${gates.late === true}) {
  process.send({ t: 'ready' });
  const send = process.send.bind(process);
  process.send = (message, ...rest) => (message.t === 'ready' ? true : send(message, ...rest));
  await waitFor(${JSON.stringify(messageGate)});
}
await import(${JSON.stringify(main)});
await waitFor(${JSON.stringify(messageGate)});
open = true;
for (const message of held.splice(0)) for (const listener of listeners) listener(message);
`,
  );
  setSpawnHelperEntry(entry);
  return {
    openBoot: () => fs.writeFileSync(bootGate, ''),
    openMessages: () => fs.writeFileSync(messageGate, ''),
  };
}

/** Live processes whose command line is `sleep <seconds>` (each test sleeps its own number). */
function sleeping(seconds: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
      if (argv[0] === 'sleep' && argv[1] === String(seconds) && state !== 'Z') {
        found.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A run whose group holds a background sleep and waits for it (timeout far beyond the test). */
function groupRun(seconds: number, options: { signal?: AbortSignal; timeoutMs?: number } = {}) {
  return runCommand({
    command: `sleep ${seconds} & wait`,
    timeoutMs: options.timeoutMs ?? 40_000,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}

async function stopHelper(): Promise<void> {
  const { pid } = spawnHelperStatus();
  if (pid === undefined) return;
  process.kill(pid, 'SIGKILL');
  expect(await eventually(() => spawnHelperStatus().state === 'idle')).toBe(true);
}

const stopped = { aborted: true, timedOut: false };

describe.runIf(helperOn && process.platform === 'linux')(
  'spawn helper: a stop at every stage',
  () => {
    beforeEach(stopHelper);
    afterEach(async () => {
      await stopHelper();
      setSpawnHelperEntry(inject('spawnHelperEntry'));
    });

    it('ends a run aborted while the helper boots at once, nothing spawned, the helper still starting', async () => {
      const gates = gatedHelper({ boot: true });
      const marker = path.join(makeTempDir(), 'ran');
      const controller = new AbortController();
      const pending = runCommand({ command: `touch "${marker}"`, signal: controller.signal });
      expect(spawnHelperStatus().state).toBe('starting');
      controller.abort();
      const result = await pending;
      expect(result).toMatchObject({ ...stopped, exitCode: null, durationMs: 0 });
      // Not given up on: the helper comes up and serves the next run.
      expect(spawnHelperStatus().state).toBe('starting');
      gates.openBoot();
      expect((await runCommand({ command: SPAWNING_PID_COMMAND })).stdout).toBe(
        `${spawnHelperStatus().pid}\n`,
      );
      expect(fs.existsSync(marker)).toBe(false);
    });

    it('times out a run queued while the helper boots and kills its group', async () => {
      const gates = gatedHelper({ boot: true });
      const pending = runCommand({ command: 'sleep 6101 & wait', timeoutMs: 300 });
      expect(spawnHelperStatus().state).toBe('starting');
      gates.openBoot();
      expect(await pending).toMatchObject({ timedOut: true, aborted: false });
      expect(await eventually(() => sleeping(6101).length === 0)).toBe(true);
    });

    for (const stage of ['messages', 'late'] as const) {
      describe(
        stage === 'messages'
          ? 'a stop that overtakes its run'
          : 'a stop read after its run, before its spawn finished',
        () => {
          async function sent(seconds: number, signal?: AbortSignal) {
            const gates = gatedHelper({ [stage]: true });
            const pending = groupRun(seconds, signal === undefined ? {} : { signal });
            // Ready: the host has sent the run; the helper holds it until the gate opens.
            expect(await eventually(() => spawnHelperStatus().state === 'running')).toBe(true);
            return { gates, pending };
          }

          async function expectStopped(pending: Promise<RunResult>, seconds: number) {
            expect(await pending).toMatchObject(stopped);
            expect(await eventually(() => sleeping(seconds).length === 0)).toBe(true);
          }

          it('killAllRuns', async () => {
            const { gates, pending } = await sent(6102);
            expect(killAllRuns()).toBe(1);
            gates.openMessages();
            await expectStopped(pending, 6102);
          }, 60_000);

          it('an abort', async () => {
            const controller = new AbortController();
            const { gates, pending } = await sent(6103, controller.signal);
            controller.abort();
            gates.openMessages();
            await expectStopped(pending, 6103);
          }, 60_000);

          it('killAllRuns of many runs at once', async () => {
            const gates = gatedHelper({ [stage]: true });
            const runs = Array.from({ length: 10 }, (_, n) => groupRun(6110 + n));
            expect(await eventually(() => spawnHelperStatus().state === 'running')).toBe(true);
            expect(killAllRuns()).toBe(10);
            gates.openMessages();
            for (const [n, pending] of runs.entries()) await expectStopped(pending, 6110 + n);
          }, 60_000);
        },
      );
    }

    it('stops a run spawned and reported (killAllRuns, abort, timeout)', async () => {
      gatedHelper({});
      const controller = new AbortController();
      const aborted = groupRun(6121, { signal: controller.signal });
      const killed = groupRun(6122);
      const timed = groupRun(6123, { timeoutMs: 300 });
      expect(await eventually(() => sleeping(6121).length + sleeping(6122).length === 2)).toBe(
        true,
      );
      expect(await timed).toMatchObject({ timedOut: true, aborted: false });
      controller.abort();
      expect(await aborted).toMatchObject({ ...stopped, signal: 'SIGTERM' });
      expect(killAllRuns()).toBe(1);
      expect(await killed).toMatchObject({ ...stopped, signal: 'SIGKILL' });
      for (const seconds of [6121, 6122, 6123])
        expect(await eventually(() => sleeping(seconds).length === 0)).toBe(true);
    }, 60_000);
  },
);
