import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8Byte } from './read-config-file.js';

const decodes = (bytes: Uint8Array) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('firstInvalidUtf8Byte', () => {
  it('agrees with the fatal TextDecoder: the bytes before it decode, and it is the end only for valid text', () => {
    const mostlyText = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc
        .tuple(fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 3 }), fc.string())
        .map(([a, junk, b]) => Buffer.concat([Buffer.from(a), junk, Buffer.from(b)])),
    );
    fc.assert(
      fc.property(mostlyText, (bytes) => {
        const offset = firstInvalidUtf8Byte(bytes);
        expect(decodes(bytes.subarray(0, offset))).toBe(true);
        expect(offset === bytes.length).toBe(decodes(bytes));
      }),
      { numRuns: 2000 },
    );
  });
});
