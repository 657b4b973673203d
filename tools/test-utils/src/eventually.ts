/** Options of {@link eventually}. */
export interface EventuallyOptions {
  /**
   * How long to keep checking before failing. A generous upper bound for something that must
   * happen on a shared, noisy machine, never a speed assertion.
   * @default 20_000
   */
  timeoutMs?: number;
  /**
   * The pause between two checks.
   * @default 20
   */
  intervalMs?: number;
  /**
   * What was awaited, for the failure message (`eventually: <message> did not hold within …`).
   * @default the predicate's source text
   */
  message?: string | (() => string);
}

/** The default bound of {@link eventually}: generous, for a machine shared by many test runs. */
export const EVENTUALLY_TIMEOUT_MS = 20_000;
/** The default pause between two checks of {@link eventually}. */
export const EVENTUALLY_INTERVAL_MS = 20;

/** What {@link eventually} throws at its deadline: what was awaited, how long, how often, the last error. */
export class EventuallyTimeoutError extends Error {
  override readonly name = 'EventuallyTimeoutError';
  /** How many times the predicate was checked. */
  readonly checks: number;
  /** The bound that passed. */
  readonly timeoutMs: number;

  constructor(options: { what: string; timeoutMs: number; checks: number; cause?: unknown }) {
    const last =
      options.cause === undefined
        ? ''
        : `; the last check threw: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`;
    super(
      `eventually: ${options.what} did not hold within ${options.timeoutMs}ms (${options.checks} checks)${last}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.checks = options.checks;
    this.timeoutMs = options.timeoutMs;
  }
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Checks `predicate` until it returns a truthy value and resolves with that value; a check that
 * throws counts as "not yet" (so an `expect(...)` can be the predicate). Throws
 * {@link EventuallyTimeoutError} once `timeoutMs` passed, after one last check, naming what was
 * awaited and the last error. For waiting on something outside the test's control (a process, a
 * file, a server); where the code under test takes a clock or timers, inject them instead.
 */
export async function eventually<T>(
  predicate: () => T | Promise<T>,
  options: EventuallyOptions = {},
): Promise<Truthy<T>> {
  const timeoutMs = options.timeoutMs ?? EVENTUALLY_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? EVENTUALLY_INTERVAL_MS;
  const deadline = performance.now() + timeoutMs;
  let checks = 0;
  let lastError: unknown;
  for (;;) {
    const pastDeadline = performance.now() >= deadline;
    checks += 1;
    try {
      const value = await predicate();
      if (value) return value as Truthy<T>;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (pastDeadline) {
      throw new EventuallyTimeoutError({
        what: describeWait(predicate, options.message),
        timeoutMs,
        checks,
        cause: lastError,
      });
    }
    await pause(Math.min(intervalMs, Math.max(0, deadline - performance.now())));
  }
}

/**
 * Resolves after `ms` for a test that must show that something does NOT happen within a bounded
 * window (a process stays alive, no record is written). Say at the call site why the window is
 * long enough; never use it to wait for something to happen: that is {@link eventually}.
 */
export function quietPeriod(ms: number): Promise<void> {
  return pause(ms);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describeWait(predicate: () => unknown, message: EventuallyOptions['message']): string {
  if (typeof message === 'function') return message();
  if (message !== undefined) return message;
  const source = predicate.toString().replace(/\s+/g, ' ').trim();
  return source.length > 120 ? `${source.slice(0, 119)}…` : source;
}
