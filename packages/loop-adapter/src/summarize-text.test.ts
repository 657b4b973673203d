import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLines, summarizeText } from './summarize-text.js';

const MARKER = /\n\[\.\.\. (\d+) bytes omitted; (\d+) bytes, (\d+) lines in total \.\.\.\]\n/;

describe('summarizeText', () => {
  it('returns the text unchanged when it fits in head plus tail', () => {
    expect(summarizeText('short', { headBytes: 3, tailBytes: 2 })).toBe('short');
  });

  it('keeps head and tail with byte and line counts when the text is long', () => {
    const text = `${'a'.repeat(100)}\n${'b'.repeat(100)}\n${'c'.repeat(100)}`;
    const summary = summarizeText(text, { headBytes: 10, tailBytes: 5 });
    expect(summary).toBe(
      `aaaaaaaaaa\n[... 287 bytes omitted; 302 bytes, 3 lines in total ...]\nccccc`,
    );
  });

  it('never splits a character and keeps a prefix and a suffix within budget for any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.nat({ max: 64 }),
        fc.nat({ max: 64 }),
        (text, headBytes, tailBytes) => {
          const summary = summarizeText(text, { headBytes, tailBytes });
          const totalBytes = Buffer.byteLength(text);
          if (totalBytes <= headBytes + tailBytes) {
            expect(summary).toBe(text);
            return;
          }
          const match = MARKER.exec(summary);
          expect(match).not.toBeNull();
          const head = summary.slice(0, match?.index);
          const tail = summary.slice((match?.index ?? 0) + (match?.[0].length ?? 0));
          expect(text.startsWith(head)).toBe(true);
          expect(text.endsWith(tail)).toBe(true);
          expect(Buffer.byteLength(head)).toBeLessThanOrEqual(headBytes);
          expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(tailBytes);
          expect(Buffer.byteLength(head)).toBeGreaterThan(headBytes - 4);
          expect(Buffer.byteLength(tail)).toBeGreaterThan(tailBytes - 4);
          // A split character would re-encode as U+FFFD.
          expect(Buffer.from(head).toString()).toBe(head);
          expect(Buffer.from(tail).toString()).toBe(tail);
          expect(Number(match?.[2])).toBe(totalBytes);
          expect(Number(match?.[1])).toBe(
            totalBytes - Buffer.byteLength(head) - Buffer.byteLength(tail),
          );
          expect(Number(match?.[3])).toBe(countLines(text));
        },
      ),
    );
  });
});

describe('countLines', () => {
  it('counts an unterminated last line when the text does not end with a newline', () => {
    expect([countLines(''), countLines('a'), countLines('a\n'), countLines('a\nb')]).toEqual([
      0, 1, 1, 2,
    ]);
  });
});
