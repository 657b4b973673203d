import { describe, expect, it } from 'vitest';
import { RUNNER_ERROR_CODES, RunnerError } from './runner-error.js';

describe('RunnerError', () => {
  it('has the pinned codes', () => {
    expect(RUNNER_ERROR_CODES).toEqual([
      'INVALID_OPTIONS',
      'CWD_INVALID',
      'SPAWN_FAILED',
      'HELPER_FAILED',
    ]);
  });

  it('carries code, message and native cause when constructed', () => {
    const cause = new Error('root cause');
    const error = new RunnerError({ code: 'CWD_INVALID', message: 'bad cwd', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'RunnerError', code: 'CWD_INVALID', message: 'bad cwd' });
    expect(error.cause).toBe(cause);
  });

  it('recognises an instance by its brand when isInstance is given one from another copy', () => {
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('@soong-agent/runner/RunnerError')]: true,
    });
    expect(RunnerError.isInstance(new RunnerError({ code: 'SPAWN_FAILED', message: 'x' }))).toBe(
      true,
    );
    expect(RunnerError.isInstance(foreign)).toBe(true);
    expect(RunnerError.isInstance(new Error('x'))).toBe(false);
    expect(RunnerError.isInstance(null)).toBe(false);
    expect(RunnerError.isInstance('RunnerError')).toBe(false);
  });
});
