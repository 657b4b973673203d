import { describe, expect, it } from 'vitest';
import { MATCHER_ERROR_CODES, MatcherError } from './matcher-error.js';

describe('MATCHER_ERROR_CODES', () => {
  it('lists exactly the pinned codes when read', () => {
    expect(MATCHER_ERROR_CODES).toEqual([
      'INVALID_MATCHER',
      'UNKNOWN_MATCHER_TYPE',
      'INVALID_MATCHER_OPTIONS',
    ]);
  });
});

describe('MatcherError', () => {
  it('carries code, rule index, path, value, suggestion and cause when constructed', () => {
    const cause = new Error('inner');
    const error = new MatcherError({
      code: 'INVALID_MATCHER_OPTIONS',
      message: 'm',
      ruleIndex: 3,
      path: ['matcher', 'tool', 1],
      value: 'Edit|Write',
      suggestion: ['edit_file', 'write_file'],
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('MatcherError');
    expect(error.code).toBe('INVALID_MATCHER_OPTIONS');
    expect(error.ruleIndex).toBe(3);
    expect(error.path).toEqual(['matcher', 'tool', 1]);
    expect(error.value).toBe('Edit|Write');
    expect(error.suggestion).toEqual(['edit_file', 'write_file']);
    expect(error.cause).toBe(cause);
  });

  it('defaults the path to an empty array when none is given', () => {
    expect(new MatcherError({ code: 'INVALID_MATCHER', message: 'm' }).path).toEqual([]);
  });

  it('recognises an instance by its global brand when it comes from another copy of the package', () => {
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('@soong-agent/matcher/MatcherError')]: true,
    });
    expect(MatcherError.isInstance(foreign)).toBe(true);
    expect(
      MatcherError.isInstance(new MatcherError({ code: 'INVALID_MATCHER', message: 'm' })),
    ).toBe(true);
  });

  it('rejects values that are not matcher errors when checked', () => {
    expect(MatcherError.isInstance(new Error('x'))).toBe(false);
    expect(MatcherError.isInstance(null)).toBe(false);
    expect(MatcherError.isInstance('MatcherError')).toBe(false);
  });
});
