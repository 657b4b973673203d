export { type BuildChildEnvOptions, buildChildEnv } from './child-env.js';
export { decodeOutput } from './decode-output.js';
export {
  DEFAULT_ENV_ALLOWLIST,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TAIL_BYTES,
  DEFAULT_TIMEOUT_MS,
  describeRunLimit,
  MAX_KILL_GRACE_MS,
  MAX_OUTPUT_BYTES_LIMIT,
  MAX_TIMER_MS,
  MIN_TIMEOUT_MS,
  RUN_LIMITS,
  type RunLimit,
  type RunLimitName,
  withinRunLimit,
} from './defaults.js';
export { killAllRuns } from './live-runs.js';
export {
  type HideProcessEnvironmentResult,
  hideProcessEnvironment,
} from './process-environment.js';
export { runCommand } from './run-command.js';
export type { RunOptions } from './run-options.js';
export type { RunResult } from './run-result.js';
export {
  RUNNER_ERROR_CODES,
  RunnerError,
  type RunnerErrorCode,
  type RunnerErrorOptions,
} from './runner-error.js';
export {
  onRunnerWarning,
  type RunnerWarning,
  type SpawnHelperStatus,
  setSpawnHelper,
  spawnHelperStatus,
  warmSpawnHelper,
} from './spawn-helper.js';
export { startWorker, type Worker, type WorkerExit, type WorkerOptions } from './start-worker.js';
