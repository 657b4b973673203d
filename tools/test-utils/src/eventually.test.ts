import { describe, expect, it } from 'vitest';
import { EventuallyTimeoutError, eventually } from './eventually.js';

describe('eventually', () => {
  it('resolves with the first truthy value when the predicate comes to hold', async () => {
    let calls = 0;
    const value = await eventually(
      () => {
        calls += 1;
        return calls >= 3 ? { calls } : undefined;
      },
      { intervalMs: 1 },
    );
    expect(value).toEqual({ calls: 3 });
  });

  it('awaits an async predicate and counts a throwing check as not yet', async () => {
    let calls = 0;
    const value = await eventually(
      async () => {
        calls += 1;
        expect(calls).toBeGreaterThan(2);
        return true;
      },
      { intervalMs: 1 },
    );
    expect(value).toBe(true);
    expect(calls).toBe(3);
  });

  it('throws EventuallyTimeoutError naming what was awaited when the deadline passes', async () => {
    const started = performance.now();
    const error = await eventually(() => false, {
      timeoutMs: 50,
      intervalMs: 5,
      message: 'the pid file to appear',
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EventuallyTimeoutError);
    const timeout = error as EventuallyTimeoutError;
    expect(timeout.message).toMatch(
      /^eventually: the pid file to appear did not hold within 50ms \(\d+ checks\)$/,
    );
    expect(timeout.checks).toBeGreaterThanOrEqual(2);
    // It never gives up early: the whole bound passed before it threw.
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('names the predicate and the last error when no message is given', async () => {
    const error = await eventually(
      () => {
        throw new Error('still 0 lines');
      },
      { timeoutMs: 20, intervalMs: 5 },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EventuallyTimeoutError);
    expect((error as Error).message).toContain('still 0 lines');
    expect((error as Error).message).toContain('throw new Error');
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('checks once more at the deadline when the interval is longer than the bound', async () => {
    let calls = 0;
    const value = await eventually(
      () => {
        calls += 1;
        return calls >= 2;
      },
      { timeoutMs: 30, intervalMs: 60_000 },
    );
    expect(value).toBe(true);
    expect(calls).toBe(2);
  });
});
