// The runner's defaults and bounds, in one module without imports or side effects: the public
// subpath `@soong-agent/runner/defaults` (config validates against it). Importing it loads nothing
// else and starts nothing.

/**
 * Parent environment variables passed to the child by default (exact names). Pinned by a test:
 * change it only on purpose.
 */
export const DEFAULT_ENV_ALLOWLIST: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'TZ',
  'TMPDIR',
]);

/** Default `timeoutMs` of `runCommand`: 30 s. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Default `killGraceMs` of `runCommand`: time between SIGTERM and SIGKILL to the group. */
export const DEFAULT_KILL_GRACE_MS = 1_000;

/** Default `maxOutputBytes` of `runCommand`: bytes kept in memory per stream (1 MiB). */
export const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;

/** Default `tailBytes` of `runCommand`: bytes of the end of each stream kept as its tail (8 KiB). */
export const DEFAULT_TAIL_BYTES = 8_192;

/** Largest delay `setTimeout` honours; larger values would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Shortest non-zero `timeoutMs` (100 ms): below it no hook or tool gets to start before it is
 * killed, so a timeout such as `1e-300` s would make every run fail.
 */
export const MIN_TIMEOUT_MS = 100;

/** Longest `killGraceMs` (60 s): a longer grace would let one child that ignores SIGTERM hold up the agent. */
export const MAX_KILL_GRACE_MS = 60_000;

/**
 * Largest `maxOutputBytes` and `tailBytes` (64 MiB per stream): far larger buffers break V8's
 * string limit (about 512 Mi characters) or memory when the output is decoded.
 */
export const MAX_OUTPUT_BYTES_LIMIT = 67_108_864;

/** The bounds of one numeric option, both inclusive. */
export interface RunLimit {
  /** Smallest value, besides `0` when {@link RunLimit.zero} says what 0 means. */
  readonly min: number;
  readonly max: number;
  /** Whole numbers only. */
  readonly integer: boolean;
  readonly unit: 'milliseconds' | 'bytes';
  /** When set, `0` is also accepted and means this (e.g. "no timeout"). */
  readonly zero?: string;
}

/** The bounds of `runCommand`'s numeric options, by option name. */
export const RUN_LIMITS = Object.freeze({
  timeoutMs: Object.freeze({
    min: MIN_TIMEOUT_MS,
    max: MAX_TIMER_MS,
    integer: false,
    unit: 'milliseconds',
    zero: 'no timeout',
  }),
  killGraceMs: Object.freeze({
    min: 0,
    max: MAX_KILL_GRACE_MS,
    integer: false,
    unit: 'milliseconds',
  }),
  maxOutputBytes: Object.freeze({
    min: 0,
    max: MAX_OUTPUT_BYTES_LIMIT,
    integer: true,
    unit: 'bytes',
  }),
  tailBytes: Object.freeze({ min: 0, max: MAX_OUTPUT_BYTES_LIMIT, integer: true, unit: 'bytes' }),
} satisfies Record<string, RunLimit>) as {
  readonly timeoutMs: RunLimit;
  readonly killGraceMs: RunLimit;
  readonly maxOutputBytes: RunLimit;
  readonly tailBytes: RunLimit;
};

/** The name of a numeric option of `runCommand`. */
export type RunLimitName = keyof typeof RUN_LIMITS;

/** Whether `value` lies within `limit` (a number, finite, whole when it must be, in range or the allowed 0). */
export function withinRunLimit(limit: RunLimit, value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (limit.integer && !Number.isInteger(value)) return false;
  if (value === 0 && limit.zero !== undefined) return true;
  return value >= limit.min && value <= limit.max;
}

/** The limit in words, e.g. `a whole number of bytes from 0 to 67108864`, `… or 0 for no timeout`. */
export function describeRunLimit(limit: RunLimit): string {
  const kind = limit.integer ? `a whole number of ${limit.unit}` : `a number of ${limit.unit}`;
  const zero = limit.zero === undefined ? '' : `, or 0 for ${limit.zero}`;
  return `${kind} from ${limit.min} to ${limit.max}${zero}`;
}
