import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBytes, OutputCollector } from './output-collector.js';

/** Split `bytes` at the given (sorted, deduplicated) cut points. */
function chunksOf(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

describe('OutputCollector', () => {
  it('decodes the same text however the bytes are split into chunks', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.array(fc.nat()), (text, cuts) => {
        const collector = new OutputCollector(Number.MAX_SAFE_INTEGER);
        for (const chunk of chunksOf(new TextEncoder().encode(text), cuts)) collector.push(chunk);
        expect(collector.finish()).toBe(text);
      }),
    );
  });

  it('keeps a prefix of whole characters within the limit and counts every byte', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.array(fc.nat()),
        fc.nat(64),
        (text, cuts, limit) => {
          const bytes = new TextEncoder().encode(text);
          const collector = new OutputCollector(limit);
          for (const chunk of chunksOf(bytes, cuts)) collector.push(chunk);
          const kept = collector.finish();
          expect(collector.bytes).toBe(bytes.length);
          expect(collector.truncated).toBe(bytes.length > limit);
          expect(text.startsWith(kept)).toBe(true);
          const keptBytes = new TextEncoder().encode(kept).length;
          expect(keptBytes).toBeLessThanOrEqual(limit);
          // At most one character (up to 3 of its bytes) is left out at the cut.
          expect(keptBytes).toBeGreaterThanOrEqual(Math.min(limit, bytes.length) - 3);
        },
      ),
    );
  });

  it('keeps the last tailLimit bytes of whole characters however the bytes are chunked', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.array(fc.nat()),
        fc.nat(64),
        fc.nat(64),
        (text, cuts, limit, tailLimit) => {
          const bytes = new TextEncoder().encode(text);
          const collector = new OutputCollector(limit, tailLimit);
          for (const chunk of chunksOf(bytes, cuts)) collector.push(chunk);
          const tail = collector.tail();
          expect(text.endsWith(tail)).toBe(true);
          const tailBytes = new TextEncoder().encode(tail).length;
          expect(tailBytes).toBeLessThanOrEqual(tailLimit);
          // At most one character (up to 3 of its bytes) is left out at the cut.
          expect(tailBytes).toBeGreaterThanOrEqual(Math.min(tailLimit, bytes.length) - 3);
        },
      ),
    );
  });

  it('keeps no tail when tailLimit is 0', () => {
    const collector = new OutputCollector(10);
    collector.push(new TextEncoder().encode('hello'));
    expect(collector.tail()).toBe('');
  });

  it('reports passing the limit once, on the chunk that passed it', () => {
    const collector = new OutputCollector(4);
    expect(collector.push(new Uint8Array(4))).toBe(false);
    expect(collector.push(new Uint8Array(1))).toBe(true);
    expect(collector.push(new Uint8Array(1))).toBe(false);
    expect(collector.bytes).toBe(6);
  });

  it('escapes each byte of a character left unfinished at the end of an untruncated stream', () => {
    const collector = new OutputCollector(100);
    collector.push(Uint8Array.from([0x61, 0xe2, 0x82]));
    expect(collector.finish()).toBe('a\\xe2\\x82');
  });

  it('escapes invalid bytes as \\xHH in the head and the tail, keeping characters split across chunks', () => {
    const collector = new OutputCollector(100, 6);
    // "é" split across chunks, then a lone 0xff, then "ok".
    collector.push(Uint8Array.from([0x61, 0xc3]));
    collector.push(Uint8Array.from([0xa9, 0xff, 0x6f, 0x6b]));
    expect(collector.finish()).toBe('aé\\xffok');
    expect(collector.tail()).toBe('aé\\xffok');
  });

  it('leaves out a character cut by the limit rather than escaping it', () => {
    const collector = new OutputCollector(3);
    collector.push(Uint8Array.from([0xff, 0x61, 0xe2, 0x82, 0xac]));
    expect(collector.finish()).toBe('\\xffa');
  });
});

describe('chunkBytes', () => {
  it('takes the string chunks Bun delivers as their UTF-8 bytes', () => {
    const collector = new OutputCollector(4, 8);
    expect(collector.push('aé')).toBe(false);
    expect(collector.push('bc')).toBe(true);
    expect(collector.bytes).toBe(5);
    expect(collector.finish()).toBe('aéb');
    expect(collector.tail()).toBe('aébc');
    expect(chunkBytes(Buffer.from('x'))).toEqual(Buffer.from('x'));
    expect(chunkBytes('é')).toEqual(Buffer.from([0xc3, 0xa9]));
  });
});
