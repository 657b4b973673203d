import { describe, expect, it } from 'vitest';
import { MAX_SHOWN_CHARACTERS, showValue } from './show-value.js';

describe('showValue', () => {
  it('shows strings quoted and other JSON values as JSON when they are short', () => {
    expect(showValue('Edit|Write')).toBe('"Edit|Write"');
    expect(showValue(10)).toBe('10');
    expect(showValue(null)).toBe('null');
    expect(showValue({ tool: ['bash'] })).toBe('{"tool":["bash"]}');
  });

  it('says nothing for a missing value and shows a TOML date as an ISO date', () => {
    expect(showValue(undefined)).toBe('nothing');
    expect(showValue(new Date('2026-01-02T03:04:05Z'))).toBe('date 2026-01-02T03:04:05.000Z');
    expect(showValue(new Date(Number.NaN))).toBe('an invalid date');
  });

  it('cuts a long value to MAX_SHOWN_CHARACTERS with an ellipsis', () => {
    const shown = showValue('x'.repeat(500));
    expect(shown).toHaveLength(MAX_SHOWN_CHARACTERS);
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.startsWith('"xxx')).toBe(true);
  });

  it('describes a value nested too deeply for JSON.stringify instead of throwing', () => {
    let deep: unknown[] = [];
    for (let level = 0; level < 20_000; level += 1) deep = [deep];
    expect(showValue(deep)).toBe('[…] (nested too deeply to show)');
  });
});
