import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOutput, OutputDecoder } from './decode-output.js';

// Bytes that lean on the edges of UTF-8: lead bytes, continuation bytes, overlong and surrogate
// forms, the top of the code space, and plain ASCII around them.
const EDGE_BYTES = [0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef];
const edgyBytes = fc.array(
  fc.oneof(
    fc.constantFrom(...EDGE_BYTES, 0xf0, 0xf4, 0xf5, 0xff, 0x9f, 0xa0, 0x8f, 0x90),
    fc.integer({ min: 0, max: 255 }),
  ),
  { maxLength: 40 },
);
const withoutBackslash = edgyBytes.map((bytes) => bytes.filter((byte) => byte !== 0x5c));

function undo(text: string): Buffer {
  const parts = text.split(/(\\x[0-9a-f]{2})/);
  return Buffer.concat(
    parts.map((part, index) =>
      index % 2 === 1 ? Buffer.from([Number.parseInt(part.slice(2), 16)]) : Buffer.from(part),
    ),
  );
}

function decodeInChunks(bytes: Uint8Array, cuts: number[]): string {
  const decoder = new OutputDecoder();
  let text = '';
  let start = 0;
  for (const cut of [...new Set(cuts.map((at) => at % (bytes.length + 1)))].sort((a, b) => a - b)) {
    text += decoder.write(bytes.subarray(start, cut));
    start = cut;
  }
  return text + decoder.write(bytes.subarray(start)) + decoder.end();
}

describe('decodeOutput', () => {
  it('keeps well-formed UTF-8 exactly as a decoder would', () => {
    const codePoint = fc
      .integer({ min: 0, max: 0x10ffff })
      .filter((point) => point < 0xd800 || point > 0xdfff);
    fc.assert(
      fc.property(fc.array(codePoint, { maxLength: 30 }), (points) => {
        const text = String.fromCodePoint(...points);
        expect(decodeOutput(Buffer.from(text))).toBe(text);
      }),
    );
  });

  it('shows each invalid byte as \\xHH: overlong, surrogate, out-of-range, stray and cut-off sequences', () => {
    expect(decodeOutput(Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe('caf\\xe9');
    expect(decodeOutput(Buffer.from([0xc0, 0x80]))).toBe('\\xc0\\x80');
    expect(decodeOutput(Buffer.from([0xed, 0xa0, 0x80]))).toBe('\\xed\\xa0\\x80');
    expect(decodeOutput(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe('\\xf4\\x90\\x80\\x80');
    expect(decodeOutput(Buffer.from([0x80, 0x41]))).toBe('\\x80A');
    expect(decodeOutput(Buffer.from([0xe2, 0x82, 0x41]))).toBe('\\xe2\\x82A');
    expect(decodeOutput(Buffer.from([0xe2, 0x82]))).toBe('\\xe2\\x82');
    expect(decodeOutput(Buffer.from([0xf0, 0x9f, 0x98, 0x80, 0xff]))).toBe('😀\\xff');
  });

  it('loses no byte: undoing the escapes gives the bytes back when the output has no backslash', () => {
    fc.assert(
      fc.property(withoutBackslash, (bytes) => {
        const text = decodeOutput(Uint8Array.from(bytes));
        expect(undo(text).equals(Buffer.from(bytes))).toBe(true);
        // Well-formed text: what a JSON record holds and a strict decoder accepts.
        expect(Buffer.from(text).toString('utf8')).toBe(text);
        const valid = (() => {
          try {
            new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
            return true;
          } catch {
            return false;
          }
        })();
        expect(text.includes('\\x')).toBe(!valid);
      }),
    );
  });

  it("agrees with Python's backslashreplace decoder on edge-heavy bytes", () => {
    const samples = fc.sample(edgyBytes, { numRuns: 400, seed: 32 });
    const script =
      'import json,sys\n' +
      'print(json.dumps([bytes(s).decode("utf-8","backslashreplace") for s in json.load(sys.stdin)]))';
    const python = JSON.parse(
      execFileSync('python3', ['-c', script], { input: JSON.stringify(samples), encoding: 'utf8' }),
    ) as string[];
    expect(samples.map((bytes) => decodeOutput(Uint8Array.from(bytes)))).toEqual(python);
  });
});

describe('OutputDecoder', () => {
  it('decodes a stream cut anywhere as it decodes the whole', () => {
    fc.assert(
      fc.property(edgyBytes, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        const whole = Uint8Array.from(bytes);
        expect(decodeInChunks(whole, cuts)).toBe(decodeOutput(whole));
      }),
    );
  });

  it('forgets a held-back character on drop', () => {
    const decoder = new OutputDecoder();
    expect(decoder.write(Buffer.from([0x61, 0xe2, 0x82]))).toBe('a');
    decoder.drop();
    expect(decoder.end()).toBe('');
  });
});
