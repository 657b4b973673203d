/** Every reason the dialect registry or a dialect's converter throws for. */
export const DIALECT_ERROR_CODES = [
  'UNKNOWN_DIALECT',
  'DUPLICATE_DIALECT',
  'INVALID_DIALECT',
  'CONFIG_PARSE_FAILED',
] as const;

/**
 * `UNKNOWN_DIALECT`: `getDialect` was asked for a name no dialect is registered under.
 * `DUPLICATE_DIALECT`: `registerDialect` got a name that is taken.
 * `INVALID_DIALECT`: `registerDialect` got something that is not a dialect (a bad name, a missing
 * function).
 * `CONFIG_PARSE_FAILED`: a converter got config text it cannot read at all (not JSON / TOML);
 * what it can read but not convert is a `refused` entry instead.
 */
export type DialectErrorCode = (typeof DIALECT_ERROR_CODES)[number];

const BRAND = Symbol.for('@soong-agent/dialects/DialectError');

/** Constructor argument of {@link DialectError}. */
export interface DialectErrorOptions {
  /** What went wrong. */
  code: DialectErrorCode;
  /** What went wrong, naming the dialect or the place in the text, and the fix. */
  message: string;
  /** The underlying error, when there is one (e.g. the JSON parser's). */
  cause?: unknown;
}

/**
 * The only error `@soong-agent/dialects` throws. Use {@link DialectError.isInstance} rather than
 * `instanceof` (works across duplicate installs).
 */
export class DialectError extends Error {
  /** What went wrong. */
  readonly code: DialectErrorCode;
  /** @internal brand for {@link DialectError.isInstance} */
  readonly [BRAND] = true;

  constructor({ code, message, cause }: DialectErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'DialectError';
    this.code = code;
  }

  /** True for any `DialectError`, also one created by another copy of this package. */
  static isInstance(value: unknown): value is DialectError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[BRAND] === true
    );
  }
}
