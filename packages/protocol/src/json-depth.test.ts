import { describe, expect, it } from 'vitest';
import { jsonValueDepth, MAX_JSON_DEPTH } from './index.js';
import { jsonTextDepth } from './json-depth.js';

describe('jsonTextDepth', () => {
  it.each([
    ['1', 0],
    ['{}', 1],
    ['[1,[2]]', 2],
    ['{"a":{"b":[{}]}}', 4],
    ['{"a":"[[[[{{{{"}', 1],
    ['{"a":"\\"[[["}', 1],
  ])('measures %s as %i deep', (text, depth) => {
    expect(jsonTextDepth(text)).toBe(depth);
  });

  it('stops at limit + 1 when the text nests 100000 levels deep', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(jsonTextDepth(text)).toBe(MAX_JSON_DEPTH + 1);
    expect(jsonTextDepth(text, 3)).toBe(4);
  });
});

describe('jsonValueDepth', () => {
  it.each([
    [null, 0],
    ['x', 0],
    [{}, 1],
    [{ a: [1, { b: [] }] }, 4],
  ])('measures %j as %i deep', (value, depth) => {
    expect(jsonValueDepth(value)).toBe(depth);
  });

  it('stops at limit + 1 without overflowing the stack when the value nests 100000 levels deep', () => {
    let value: unknown = [];
    for (let index = 1; index < 100_000; index++) value = [value];
    expect(jsonValueDepth(value)).toBe(MAX_JSON_DEPTH + 1);
  });

  it('terminates when the value has a cycle', () => {
    const value: Record<string, unknown> = {};
    value.self = value;
    expect(jsonValueDepth(value)).toBe(1);
  });
});
