import { MAX_JSON_DEPTH } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import { findStdoutJson, parseBoundedJson } from './shared.js';
import { DEEP_ANSWER, jqPretty, LOG_LINE, nestedArrays } from './test-helpers/answers.js';

const MIB = 1024 * 1024;

describe('findStdoutJson', () => {
  const deny = { decision: 'deny', reason: 'say "no" to {this} \\ and [that]' };

  it('finds the whole of stdout when it is one object', () => {
    expect(findStdoutJson(` ${jqPretty(deny)}`)).toEqual({
      json: deny,
      tooDeep: false,
      whole: true,
      before: '',
      multiLine: false,
    });
  });

  it.each([
    ['the last line', `${LOG_LINE}\n${JSON.stringify(deny)}\n`, false, LOG_LINE],
    ['a pretty-printed object', `${LOG_LINE}\n${jqPretty(deny)}`, true, LOG_LINE],
    [
      'an indented object after CRLF lines',
      `${LOG_LINE}\r\n  ${jqPretty(deny).replaceAll('\n', '\r\n')}`,
      true,
      LOG_LINE,
    ],
    [
      'an object after another one',
      `{"decision":"allow"}\n${jqPretty(deny)}`,
      true,
      '{"decision":"allow"}',
    ],
  ])('finds the object that ends stdout when it is %s', (_what, stdout, multiLine, before) => {
    expect(findStdoutJson(stdout)).toEqual({
      json: deny,
      tooDeep: false,
      whole: false,
      before,
      multiLine,
    });
  });

  it('gives the text before the object as before', () => {
    expect(findStdoutJson(`${LOG_LINE}\nmore "quoted {\n${jqPretty(deny)}`).before).toBe(
      `${LOG_LINE}\nmore "quoted {`,
    );
  });

  it.each([
    ['an object that starts mid-line', `${LOG_LINE}: ${JSON.stringify(deny)}`],
    ['text after the object', `${JSON.stringify(deny)}\n${LOG_LINE}`],
    ['an unbalanced object', `${LOG_LINE}\n{"decision":"deny"}}`],
    ['an array at the end', `${LOG_LINE}\n[${JSON.stringify(deny)}]`],
    ['plain text', LOG_LINE],
  ])('finds nothing when stdout has %s', (_what, stdout) => {
    expect(findStdoutJson(stdout)).toMatchObject({ json: undefined, tooDeep: false });
  });

  it.each([
    ['all of stdout', DEEP_ANSWER],
    ['the last line', `${LOG_LINE}\n${DEEP_ANSWER}`],
    ['after an allow', `{"decision":"allow"}\n${DEEP_ANSWER}`],
  ])('says tooDeep when the answer 20,000 deep is %s', (_where, stdout) => {
    expect(findStdoutJson(stdout)).toMatchObject({
      json: { decision: expect.any(Array) },
      tooDeep: true,
    });
  });

  it('says tooDeep when an over-deep start of stdout comes before an object', () => {
    expect(findStdoutJson(`{${nestedArrays(20_000)}\n{"decision":"deny"}`)).toMatchObject({
      json: { decision: 'deny' },
      tooDeep: true,
    });
  });

  it.each([
    ['brace lines', '{\n'.repeat(MIB / 2)],
    ['closed brace lines', `${'{\n'.repeat(MIB / 2 - 1)}}`],
    ['escaped quotes', `${'\\"'.repeat(MIB / 2 - 1)}}`],
    ['opening brackets', `{${'['.repeat(MIB - 2)}}`],
    ['unterminated objects', `${LOG_LINE}\n${'{"x":\n'.repeat(MIB / 6)}"y"}`],
  ])('reads 1 MiB of %s in linear time', (_what, stdout) => {
    const started = performance.now();
    findStdoutJson(stdout);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('parseBoundedJson', () => {
  it('parses text nested exactly MAX_JSON_DEPTH deep', () => {
    expect(parseBoundedJson(nestedArrays(MAX_JSON_DEPTH))).toMatchObject({ ok: true });
  });

  it('parses nothing deeper, and gives the value with the deep part replaced by null', () => {
    const result = parseBoundedJson(`{"decision":"deny","extra":${nestedArrays(100_000)}}`);
    expect(result).toMatchObject({ ok: false, tooDeep: true });
    let value = (result as { shallow: { extra: unknown } }).shallow.extra;
    let depth = 1;
    while (Array.isArray(value) && value.length > 0) {
      value = value[0];
      depth += 1;
    }
    expect(depth).toBe(MAX_JSON_DEPTH);
    expect(value).toBeNull();
  });

  it('counts no brackets inside strings, escaped quotes included', () => {
    expect(parseBoundedJson(`{"a":"\\"${'['.repeat(1000)}"}`)).toEqual({
      ok: true,
      value: { a: `"${'['.repeat(1000)}` },
    });
  });

  it('gives no shallow value when a deep value never closes', () => {
    expect(parseBoundedJson(`{"a":${'['.repeat(100)}`)).toEqual({
      ok: false,
      tooDeep: true,
      shallow: undefined,
    });
  });

  it('fails without tooDeep when shallow text is not JSON', () => {
    expect(parseBoundedJson('{nope')).toEqual({ ok: false, tooDeep: false });
  });
});
