// Alias of `@soong-agent/runner/defaults` kept for existing imports: the bounds of runCommand's
// numeric options. Side-effect free and without dependencies.
export {
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
