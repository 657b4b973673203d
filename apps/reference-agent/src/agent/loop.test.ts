import { describe, expect, it } from 'vitest';
import { boundRecordText, RECORD_TEXT_MAX_CHARS } from './loop.js';

describe('boundRecordText', () => {
  it('keeps short texts and summarises long ones when writing records', () => {
    expect(boundRecordText('hello')).toBe('hello');
    const long = 'x'.repeat(RECORD_TEXT_MAX_CHARS * 4);
    expect(boundRecordText(long).length).toBeLessThan(RECORD_TEXT_MAX_CHARS);
  });
});
