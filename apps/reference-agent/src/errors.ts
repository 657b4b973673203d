/** Exit codes of the `soong-agent` CLI (spec §6). */
export const EXIT_CODES = {
  ok: 0,
  runtime: 1,
  usage: 2,
  denied: 3,
} as const;

/** Exit code of the CLI: 0 success, 1 runtime failure, 2 usage or configuration error, 3 denied. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

const CLI_ERROR_BRAND = Symbol.for('@soong-agent/reference-agent/CliError');

/** Codes of {@link CliError}: what kind of failure ends the command. */
export type CliErrorCode =
  | 'USAGE'
  | 'CONFIG'
  | 'NO_MODEL'
  | 'MODEL_UNAVAILABLE'
  | 'SCRIPT_INVALID'
  | 'SCRIPT_EXPECTATION_FAILED'
  | 'SESSION_NOT_FOUND'
  | 'RUNTIME';

const EXIT_CODE_BY_ERROR: Record<CliErrorCode, ExitCode> = {
  USAGE: 2,
  CONFIG: 2,
  NO_MODEL: 2,
  MODEL_UNAVAILABLE: 2,
  SCRIPT_INVALID: 2,
  SCRIPT_EXPECTATION_FAILED: 1,
  SESSION_NOT_FOUND: 1,
  RUNTIME: 1,
};

/**
 * A failure the CLI reports to the user and turns into an exit code. The message is printed as is
 * (it names the file, the value and the fix).
 */
export class CliError extends Error {
  /** What kind of failure it is. */
  readonly code: CliErrorCode;
  /** The process exit code this error ends with. */
  readonly exitCode: ExitCode;

  constructor(options: { code: CliErrorCode; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.code = options.code;
    this.exitCode = EXIT_CODE_BY_ERROR[options.code];
    Object.defineProperty(this, CLI_ERROR_BRAND, { value: true });
  }

  /** True for a `CliError`, also one created by another copy of this module. */
  static isInstance(value: unknown): value is CliError {
    return typeof value === 'object' && value !== null && CLI_ERROR_BRAND in value;
  }
}
