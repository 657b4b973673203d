import { describe, expect, it } from 'vitest';
import * as defaults from './defaults.js';
import * as runner from './index.js';

describe('index', () => {
  it('exports exactly the pinned runtime names', () => {
    expect(Object.keys(runner).sort()).toEqual([
      'RUNNER_ERROR_CODES',
      'RunnerError',
      'killAllRuns',
      'onRunnerWarning',
      'runCommand',
      'setPosixSpawner',
      'setSpawnHelper',
      'spawnHelperStatus',
      'startWorker',
      'warmSpawnHelper',
    ]);
  });

  it('exports the pinned default values from ./defaults', () => {
    expect(defaults.DEFAULT_TIMEOUT_MS).toBe(30_000);
    expect(defaults.DEFAULT_KILL_GRACE_MS).toBe(1_000);
    expect(defaults.DEFAULT_MAX_OUTPUT_BYTES).toBe(1_048_576);
    expect(defaults.DEFAULT_TAIL_BYTES).toBe(8_192);
  });
});
