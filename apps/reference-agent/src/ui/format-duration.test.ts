import { describe, expect, it } from 'vitest';
import { formatDuration, formatSeconds } from './format-duration.js';

describe('formatDuration', () => {
  it('shows whole milliseconds when the duration is under a second', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(0.4)).toBe('0ms');
    expect(formatDuration(12.3)).toBe('12ms');
    expect(formatDuration(999.4)).toBe('999ms');
  });

  it('shows seconds with one decimal when the duration rounds to a second or more', () => {
    expect(formatDuration(999.6)).toBe('1.0s');
    expect(formatDuration(1234)).toBe('1.2s');
    expect(formatDuration(61_000)).toBe('61.0s');
  });
});

describe('formatSeconds', () => {
  it('shows seconds with one decimal at any length', () => {
    expect(formatSeconds(412)).toBe('0.4s');
    expect(formatSeconds(5400)).toBe('5.4s');
  });
});
