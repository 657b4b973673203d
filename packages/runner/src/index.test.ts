import { describe, expect, it } from 'vitest';
import * as runner from './index.js';

describe('index', () => {
  it('exports exactly the pinned runtime names', () => {
    expect(Object.keys(runner).sort()).toEqual(
      [
        'DEFAULT_ENV_ALLOWLIST',
        'DEFAULT_KILL_GRACE_MS',
        'DEFAULT_MAX_OUTPUT_BYTES',
        'DEFAULT_TAIL_BYTES',
        'DEFAULT_TIMEOUT_MS',
        'MAX_KILL_GRACE_MS',
        'MAX_OUTPUT_BYTES_LIMIT',
        'MAX_TIMER_MS',
        'MIN_TIMEOUT_MS',
        'RUN_LIMITS',
        'describeRunLimit',
        'withinRunLimit',
        'RUNNER_ERROR_CODES',
        'RunnerError',
        'buildChildEnv',
        'decodeOutput',
        'hideProcessEnvironment',
        'killAllRuns',
        'onRunnerWarning',
        'setSpawnHelper',
        'spawnHelperStatus',
        'warmSpawnHelper',
        'runCommand',
        'startWorker',
      ].sort(),
    );
  });

  it('exports the pinned default values', () => {
    expect(runner.DEFAULT_TIMEOUT_MS).toBe(30_000);
    expect(runner.DEFAULT_KILL_GRACE_MS).toBe(1_000);
    expect(runner.DEFAULT_MAX_OUTPUT_BYTES).toBe(1_048_576);
    expect(runner.DEFAULT_TAIL_BYTES).toBe(8_192);
  });
});
