const BRAND = Symbol.for('@soong-agent/matcher/MatcherError');

/** Every code a {@link MatcherError} can carry. Pinned by a test: change only on purpose. */
export const MATCHER_ERROR_CODES = [
  'INVALID_MATCHER',
  'UNKNOWN_MATCHER_TYPE',
  'INVALID_MATCHER_OPTIONS',
] as const;

/**
 * - `INVALID_MATCHER`: the matcher is not an object or a tool-name string, a type is used on an
 *   event it can never match, or a registry is built from broken definitions.
 * - `UNKNOWN_MATCHER_TYPE`: a matcher key names no registered type.
 * - `INVALID_MATCHER_OPTIONS`: a key's value fails its type's options schema (including values that
 *   look like a regex or a glob).
 */
export type MatcherErrorCode = (typeof MATCHER_ERROR_CODES)[number];

/** Constructor argument of {@link MatcherError}. */
export interface MatcherErrorOptions {
  /** What went wrong, as a code callers can branch on. */
  code: MatcherErrorCode;
  /** Starts with the offending value and says the fix. Config prefixes the file and JSON path. */
  message: string;
  /** Index into the `rules` given to `compileRules`; absent for registry errors. */
  ruleIndex?: number;
  /**
   * JSON path relative to the rule, e.g. `['matcher', 'tool', 1]`.
   * @default []
   */
  path?: (string | number)[];
  /** The offending value as written. */
  value?: unknown;
  /** The exact-match way to write it, e.g. `['edit_file', 'write_file']`, or a did-you-mean name. */
  suggestion?: unknown;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** The one error class of this package: thrown for broken matcher configuration or misuse. */
export class MatcherError extends Error {
  /** What went wrong. */
  readonly code: MatcherErrorCode;
  /** Index into the `rules` given to `compileRules`. */
  readonly ruleIndex?: number;
  /** JSON path relative to the rule, e.g. `['matcher', 'tool', 1]`. */
  readonly path: (string | number)[];
  /** The offending value as written. */
  readonly value?: unknown;
  /** The exact-match way to write it, or a did-you-mean name. */
  readonly suggestion?: unknown;

  constructor(options: MatcherErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MatcherError';
    this.code = options.code;
    this.path = options.path ?? [];
    if (options.ruleIndex !== undefined) this.ruleIndex = options.ruleIndex;
    if ('value' in options) this.value = options.value;
    if (options.suggestion !== undefined) this.suggestion = options.suggestion;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for a MatcherError from any copy of this package (checks a global symbol brand). */
  static isInstance(value: unknown): value is MatcherError {
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}
