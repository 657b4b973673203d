// @soong-agent/runner: the public API (spec §3). Everything here is semver-covered.
// The defaults and bounds (`DEFAULT_ENV_ALLOWLIST`, `DEFAULT_*`, `RUN_LIMITS`) are exported from
// the side-effect free subpath `@soong-agent/runner/defaults`, and `hideProcessEnvironment` from
// `@soong-agent/runner/process-environment`: each loads nothing else. Deliberately not exported:
// the environment builder and the output decoder `runCommand` uses (their rules are its options).

export { killAllRuns } from './live-runs.js';
// The posix spawner: children started with vfork from a small Python process, where it can run.
export { setPosixSpawner } from './posix-spawner.js';
// Running one command, and a long-lived worker.
export { runCommand, warmSpawnHelper } from './run-command.js';
export type { RunOptions } from './run-options.js';
export type { RunResult } from './run-result.js';
// Errors.
export {
  RUNNER_ERROR_CODES,
  RunnerError,
  type RunnerErrorCode,
} from './runner-error.js';
// The spawn helper: on by default, with a direct-spawn fallback.
export {
  onRunnerWarning,
  type RunnerWarning,
  type SpawnHelperStatus,
  setSpawnHelper,
  spawnHelperStatus,
} from './spawn-helper.js';
export { startWorker, type Worker, type WorkerExit, type WorkerOptions } from './start-worker.js';
