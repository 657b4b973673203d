import { describe, expect, it } from 'vitest';
import {
  onRunnerWarning,
  type RunnerWarning,
  runCommand,
  setPosixSpawner,
  spawnHelperStatus,
} from './index.js';
import { setSpawnHelperEntry } from './spawn-helper.js';
import { fixture } from './test-helpers/build.js';
import { SPAWNING_PID_COMMAND } from './test-helpers/spawner.js';

// About the Node spawn helper: the posix spawner is off here.
setPosixSpawner(false);

// A helper that cannot start (its process exits before it is ready): runs spawn from this
// process, as without the helper, and the runner says so once.
describe.runIf(process.env.SOONG_AGENT_TEST_SPAWN_HELPER !== 'off')(
  'spawn helper that cannot start',
  () => {
    it('runs every command from this process and warns once', async () => {
      setSpawnHelperEntry(fixture('broken-helper.mjs'));
      const early: RunnerWarning[] = [];
      onRunnerWarning((warning) => early.push(warning));
      const results = await Promise.all([
        runCommand({ command: SPAWNING_PID_COMMAND }),
        runCommand({ command: SPAWNING_PID_COMMAND }),
      ]);
      for (const result of results) expect(Number(result.stdout)).toBe(process.pid);
      const later = await runCommand({ command: SPAWNING_PID_COMMAND });
      expect(Number(later.stdout)).toBe(process.pid);
      expect(early).toEqual([
        {
          code: 'SPAWN_HELPER_UNAVAILABLE',
          message: expect.stringMatching(
            /spawn helper could not start \(it exited at start \(code 3\)\)/,
          ),
        },
      ]);
      // A listener added afterwards hears the warning given before it, once.
      const late: RunnerWarning[] = [];
      const remove = onRunnerWarning((warning) => late.push(warning));
      remove();
      expect(late).toEqual(early);
      expect(spawnHelperStatus()).toMatchObject({ state: 'unavailable' });
    });
  },
);
