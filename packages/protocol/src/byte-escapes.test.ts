import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTextWithByteEscapes } from './byte-escapes.js';
import { safeParseHookOutput } from './hook-output.js';

describe('jsonTextWithByteEscapes', () => {
  it('returns valid JSON text unchanged, whatever it holds', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, text) => {
        for (const json of [
          JSON.stringify(value),
          JSON.stringify(text),
          JSON.stringify(`\\xff${text}`),
        ]) {
          expect(jsonTextWithByteEscapes(json)).toBe(json);
        }
      }),
    );
  });

  it('makes an escaped invalid byte inside a JSON string parse as the escape text', () => {
    // What the runner makes of {"reason":"caf<0xe9> \<0xff>"}: the byte after a JSON backslash too.
    const stdout = '{"decision":"deny","reason":"caf\\xe9 \\\\\\xff","logs":["\\x80"]}';
    expect(JSON.parse(jsonTextWithByteEscapes(stdout))).toEqual({
      decision: 'deny',
      reason: 'caf\\xe9 \\\\xff',
      logs: ['\\x80'],
    });
  });

  it('leaves an ASCII \\x escape (never an invalid byte) invalid, as it was', () => {
    expect(jsonTextWithByteEscapes('{"reason":"\\x41"}')).toBe('{"reason":"\\x41"}');
  });
});

describe('safeParseHookOutput', () => {
  it('keeps a deny whose reason held an invalid byte, with the byte escaped in the reason', () => {
    const result = safeParseHookOutput('{"decision":"deny","reason":"bad \\xff byte"}\n');
    expect(result).toMatchObject({
      success: true,
      output: { decision: 'deny', reason: 'bad \\xff byte' },
    });
  });

  it('keeps the deny on the last line of stdout when an earlier line held an invalid byte', () => {
    const result = safeParseHookOutput('log \\xfe\n{"decision":"deny","reason":"r\\xff"}\n');
    expect(result.success).toBe(false);
    expect(result).toMatchObject({ deny: { decision: 'deny', reason: 'r\\xff' } });
  });
});
