const BRAND = Symbol.for('@soong-agent/config/ConfigError');

/** Every code a {@link ConfigError} can carry. */
export const CONFIG_ERROR_CODES = [
  'CONFIG_READ_FAILED',
  'CONFIG_PARSE_FAILED',
  'CONFIG_INVALID',
] as const;

/**
 * Why configuration could not be loaded:
 * - `CONFIG_READ_FAILED`: the file exists but cannot be read (a directory, no permission, not a regular file, too large);
 * - `CONFIG_PARSE_FAILED`: the bytes are not valid JSON / TOML / UTF-8;
 * - `CONFIG_INVALID`: the file parses but a value is wrong (schema, matcher, duplicate name…).
 */
export type ConfigErrorCode = (typeof CONFIG_ERROR_CODES)[number];

/** One problem in one configuration file, with its location when known. */
export interface ConfigIssue {
  /** Absolute path of the file. */
  file: string;
  /** 1-based line of the offending value (or key), when known. */
  line?: number;
  /** 1-based column (UTF-16 code units), when known. */
  column?: number;
  /** JSON path of the offending value, e.g. `hooks.PreToolUse[0].matcher.tool`; absent for the whole file. */
  path?: string;
  /** What is wrong, e.g. `"Edit|Write" looks like a regex`. */
  problem: string;
  /** What was expected there, when the schema says. */
  expected?: string;
  /** How to fix it, e.g. `write ["edit_file", "write_file"]`. */
  fix?: string;
  /** The full line shown to the user: `<file>:<line>:<col> <path>: <problem>; <fix>` (home shown as `~`). */
  message: string;
}

/** Constructor argument of {@link ConfigError}. */
export interface ConfigErrorOptions {
  /** The error code. */
  code: ConfigErrorCode;
  /** Every problem found, in file order; the first one fills `file`, `line`, `column`, `path`, `expected`, `fix`. */
  issues: readonly ConfigIssue[];
  /** The underlying error (fs error, parser error, MatcherError). */
  cause?: unknown;
}

/**
 * Configuration that cannot be used. The message lists every issue, one per line, each in the form
 * `~/.soong-agent/hooks.json:7:18 hooks.PreToolUse[0].matcher.tool: <what is wrong>; <fix>`.
 */
export class ConfigError extends Error {
  /** Why loading failed. */
  readonly code: ConfigErrorCode;
  /** Absolute path of the file with the (first) problem. */
  readonly file: string;
  /** 1-based line of the first problem, when known. */
  readonly line?: number;
  /** 1-based column of the first problem, when known. */
  readonly column?: number;
  /** JSON path of the first problem, when it concerns a value. */
  readonly path?: string;
  /** What was expected at the first problem, when known. */
  readonly expected?: string;
  /** How to fix the first problem, when known. */
  readonly fix?: string;
  /** Every problem found (at least one). */
  readonly issues: readonly ConfigIssue[];

  constructor(options: ConfigErrorOptions) {
    const first = options.issues[0];
    if (first === undefined) throw new TypeError('ConfigError needs at least one issue');
    super(
      options.issues.map((issue) => issue.message).join('\n'),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ConfigError';
    this.code = options.code;
    this.file = first.file;
    if (first.line !== undefined) this.line = first.line;
    if (first.column !== undefined) this.column = first.column;
    if (first.path !== undefined) this.path = first.path;
    if (first.expected !== undefined) this.expected = first.expected;
    if (first.fix !== undefined) this.fix = first.fix;
    this.issues = options.issues;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for a ConfigError, also one created by another copy of this package. */
  static isInstance(value: unknown): value is ConfigError {
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}
