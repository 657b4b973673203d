import { z } from 'zod';

/**
 * Every `code` a {@link ProtocolError} can carry, as a runtime list (pinned by a test).
 * - `INVALID_HOOK_OUTPUT`: a hook printed something that is not a valid hook output.
 * - `INVALID_HOOK_INPUT`: a value is not a valid hook input (see `parseHookInput`).
 * - `INVALID_EVENT_RECORD`: a value is not a valid session event record (see `parseEventRecord`).
 */
export const PROTOCOL_ERROR_CODES = [
  'INVALID_HOOK_OUTPUT',
  'INVALID_HOOK_INPUT',
  'INVALID_EVENT_RECORD',
] as const;

/** The string union of {@link PROTOCOL_ERROR_CODES}. */
export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number];

/** One validation problem: where in the value (a JSON path) and what was wrong. */
export interface ProtocolIssue {
  /** JSON path of the bad value, e.g. `['tool', 'risk']`; empty for the value itself. */
  path: (string | number)[];
  /** What was expected, in plain words. */
  message: string;
}

/** Arguments of the {@link ProtocolError} constructor. */
export interface ProtocolErrorOptions {
  /** What went wrong, as a string-union code. */
  code: ProtocolErrorCode;
  /** Human-readable message: what was wrong and, for hook output, the start of what was printed. */
  message: string;
  /** The underlying error (e.g. the `SyntaxError` of `JSON.parse` or the `ZodError`), if any. */
  cause?: unknown;
  /**
   * The individual validation problems, when the value was well-formed but did not match a schema.
   * @default []
   */
  issues?: ProtocolIssue[];
}

const BRAND = Symbol.for('@soong-agent/protocol/ProtocolError');

/**
 * The one error class of `@soong-agent/protocol`. Check it with {@link ProtocolError.isInstance},
 * which works across duplicate installs of the package, and branch on `code`.
 */
export class ProtocolError extends Error {
  /** What went wrong. */
  readonly code: ProtocolErrorCode;
  /** The individual validation problems (empty when the value was not even well-formed). */
  readonly issues: ProtocolIssue[];
  readonly [BRAND] = true;

  constructor(options: ProtocolErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProtocolError';
    this.code = options.code;
    this.issues = options.issues ?? [];
  }

  /** True when `value` is a `ProtocolError` from any copy of this package. */
  static isInstance(value: unknown): value is ProtocolError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[BRAND] === true
    );
  }
}

/** Turns zod issues into {@link ProtocolIssue}s. */
export function toProtocolIssues(error: z.ZodError): ProtocolIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.filter((key): key is string | number => typeof key !== 'symbol'),
    message: issue.message,
  }));
}

/** Formats issues as `tool.risk: message; previous_reasons[0]: message` (zod's `toDotPath`). */
export function describeIssues(issues: readonly ProtocolIssue[]): string {
  return issues
    .map(
      (issue) =>
        `${issue.path.length === 0 ? '(root)' : z.core.toDotPath(issue.path)}: ${issue.message}`,
    )
    .join('; ');
}

/** Parses `value` with `schema`, or throws a `ProtocolError` with `code` listing every issue. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  code: ProtocolErrorCode,
  what: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = toProtocolIssues(result.error);
  throw new ProtocolError({
    code,
    message: `invalid ${what}: ${describeIssues(issues)}`,
    cause: result.error,
    issues,
  });
}
