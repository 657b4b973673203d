import { describe, expect, it } from 'vitest';
import { isJsonSyntaxError, type JsonDocument, parseJsonDocument } from './json-document.js';

const parse = (text: string): JsonDocument => {
  const document = parseJsonDocument(text);
  if (isJsonSyntaxError(document)) throw new Error(document.text.problem);
  return document;
};

describe('parseJsonDocument', () => {
  it('locates values, keys and the nearest ancestor of a missing path', () => {
    const document = parse('{\n  "a": [1, {"b": true}]\n}');
    expect(document.locate(['a', 1, 'b'])).toEqual({ line: 2, column: 18 });
    expect(document.locate(['a', 1, 'b'], true)).toEqual({ line: 2, column: 13 });
    expect(document.locate(['a', 1, 'missing'])).toEqual({ line: 2, column: 12 });
    expect(document.locate([])).toEqual({ line: 1, column: 1 });
  });

  it('reports keys written twice at any depth', () => {
    const document = parse('{"a": {"x": 1, "x": 2}, "a": 3}');
    expect(
      document.duplicateKeys.map((duplicate) => [duplicate.jsonPath, duplicate.position.column]),
    ).toEqual([
      [['a', 'x'], 16],
      [['a'], 25],
    ]);
  });

  it('keeps a __proto__ key as plain data', () => {
    const document = parse('{"__proto__": {"polluted": true}}');
    expect(Object.getPrototypeOf(document.value)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(document.value as object)).toEqual(['__proto__']);
  });

  it('skips a leading byte-order mark', () => {
    expect(parse('\ufeff{"a": 1}').value).toEqual({ a: 1 });
  });

  it.each([
    ['{"a": 1,}', 1, 9, 'trailing comma'],
    ['[1,\n]', 2, 1, 'trailing comma'],
    ['{"a": 1 // no\n}', 1, 9, 'comments'],
    ['{"a" 1}', 1, 6, '":"'],
    ['', 1, 1, 'empty'],
  ])('returns a positioned syntax error for %j', (text, line, column, words) => {
    const result = parseJsonDocument(text);
    expect(isJsonSyntaxError(result)).toBe(true);
    if (!isJsonSyntaxError(result)) return;
    expect(result.position).toEqual({ line, column });
    expect(result.text.problem).toContain(words);
  });
});
