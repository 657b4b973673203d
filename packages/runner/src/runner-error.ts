/** Every reason `runCommand` can reject for. Anything the child does is a result instead. */
export const RUNNER_ERROR_CODES = [
  'INVALID_OPTIONS',
  'CWD_INVALID',
  'SPAWN_FAILED',
  'HELPER_FAILED',
] as const;

/**
 * `INVALID_OPTIONS`: the options object is malformed (empty command, negative timeout, ...).
 * `CWD_INVALID`: the working dir is missing, not a directory, or outside `allowedRoots`.
 * `SPAWN_FAILED`: the argv executable (or `/bin/sh`) is missing or not executable.
 * `HELPER_FAILED`: the runner's spawn helper died, or stopped answering past the run's timeout and
 * grace, while the run was in flight: what it had started was killed, and the next run starts a
 * new helper. The command may have run, but its result is lost.
 */
export type RunnerErrorCode = (typeof RUNNER_ERROR_CODES)[number];

const BRAND = Symbol.for('@soong-agent/runner/RunnerError');

/** Constructor argument of {@link RunnerError}. */
export interface RunnerErrorOptions {
  /** Why `runCommand` rejected. */
  code: RunnerErrorCode;
  /** What went wrong, naming the option, the value and the fix. */
  message: string;
  /** The underlying error, when there is one (e.g. the `fs` error for a missing cwd). */
  cause?: unknown;
}

/**
 * The only error `runCommand` rejects with. When it is thrown, nothing was spawned (except for
 * `HELPER_FAILED`: then what was spawned has been killed).
 * Use {@link RunnerError.isInstance} rather than `instanceof` (works across duplicate installs).
 */
export class RunnerError extends Error {
  /** Why `runCommand` rejected. */
  readonly code: RunnerErrorCode;
  /** @internal brand for {@link RunnerError.isInstance} */
  readonly [BRAND] = true;

  constructor({ code, message, cause }: RunnerErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'RunnerError';
    this.code = code;
  }

  /** True for any `RunnerError`, also one created by another copy of this package. */
  static isInstance(value: unknown): value is RunnerError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[BRAND] === true
    );
  }
}

/** `on` for a runner-wide switch named `name`; anything but a boolean is INVALID_OPTIONS. @internal */
export function switchValue(name: string, on: unknown): boolean {
  if (typeof on === 'boolean') return on;
  throw new RunnerError({
    code: 'INVALID_OPTIONS',
    message: `${name} takes true or false, got ${typeof on}`,
  });
}
