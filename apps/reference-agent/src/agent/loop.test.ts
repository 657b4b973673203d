import { describe, expect, it } from 'vitest';
import { boundRecordText, RECORD_TEXT_MAX_CHARS, toolResultForModel } from './loop.js';

describe('toolResultForModel', () => {
  it('passes a result through when it is within inline_result_bytes', () => {
    const result = {
      callId: 'c',
      name: 'read_file',
      content: 'small',
      isError: false,
      status: 'ok' as const,
      bytes: 5,
    };
    expect(toolResultForModel(result, 100)).toBe('small');
  });

  it('gives head, tail, byte count and artifact path when the result is larger', () => {
    const content = `${'a'.repeat(10_000)}MIDDLE${'z'.repeat(10_000)}`;
    const artifactRef = { id: 'x', path: '/h/sessions/s/artifacts/x', bytes: 20_006, sha256: 'x' };
    const text = toolResultForModel(
      {
        callId: 'c',
        name: 'read_file',
        content,
        isError: false,
        status: 'ok',
        bytes: 20_006,
        artifactRef,
      },
      16_384,
    );
    expect(text.length).toBeLessThan(9_000);
    expect(text.startsWith('aaaa')).toBe(true);
    expect(text).not.toContain('MIDDLE');
    expect(text).toContain('20006 bytes');
    expect(text).toContain(artifactRef.path);
  });
});

describe('boundRecordText', () => {
  it('keeps short texts and summarises long ones when writing records', () => {
    expect(boundRecordText('hello')).toBe('hello');
    const long = 'x'.repeat(RECORD_TEXT_MAX_CHARS * 4);
    expect(boundRecordText(long).length).toBeLessThan(RECORD_TEXT_MAX_CHARS);
  });
});
