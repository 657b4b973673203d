import { describe, expect, it } from 'vitest';
import { isTomlSyntaxError, parseTomlDocument, type TomlDocument } from './toml-document.js';

const parse = (text: string): TomlDocument => {
  const document = parseTomlDocument(text);
  if (isTomlSyntaxError(document)) throw new Error(document.text.problem);
  return document;
};

describe('parseTomlDocument', () => {
  it('locates keys under table headers, dotted keys and quoted keys', () => {
    const document = parse(
      [
        '# comment',
        '[hooks]',
        '  enabled = true',
        'a.b = 1',
        '"quoted key" = 2',
        '[runner]',
        "'lit' = 3",
        '"x.y".\'z w\' = 4',
      ].join('\n'),
    );
    expect(document.locate(['hooks'])).toEqual({ line: 2, column: 1 });
    expect(document.locate(['hooks', 'enabled'])).toEqual({ line: 3, column: 3 });
    expect(document.locate(['hooks', 'a'])).toEqual({ line: 4, column: 1 });
    expect(document.locate(['hooks', 'a', 'b'])).toEqual({ line: 4, column: 3 });
    expect(document.locate(['hooks', 'quoted key'])).toEqual({ line: 5, column: 1 });
    expect(document.locate(['runner', 'lit'])).toEqual({ line: 7, column: 1 });
    expect(document.locate(['runner', 'x.y'])).toEqual({ line: 8, column: 1 });
    expect(document.locate(['runner', 'x.y', 'z w'])).toEqual({ line: 8, column: 7 });
  });

  it('locates keys inside inline tables, also nested and spread over lines', () => {
    const document = parse(
      [
        '[[tools]]',
        'parameters = { filter = { type = "string", "max len" = 3 }, n = { type = "integer" } }',
        'env = { A = "1",',
        '  B = "2" }',
      ].join('\n'),
    );
    expect(document.locate(['tools', 0, 'parameters'])).toEqual({ line: 2, column: 1 });
    expect(document.locate(['tools', 0, 'parameters', 'filter'])).toEqual({ line: 2, column: 16 });
    expect(document.locate(['tools', 0, 'parameters', 'filter', 'type'])).toEqual({
      line: 2,
      column: 27,
    });
    expect(document.locate(['tools', 0, 'parameters', 'filter', 'max len'])).toEqual({
      line: 2,
      column: 44,
    });
    expect(document.locate(['tools', 0, 'parameters', 'n', 'type'])).toEqual({
      line: 2,
      column: 67,
    });
    expect(document.locate(['tools', 0, 'env', 'B'])).toEqual({ line: 4, column: 3 });
  });

  it('locates the elements of multi-line arrays and the keys of tables inside them', () => {
    const document = parse(
      [
        '[runner]',
        'env_allowlist = [',
        '  "A", # first',
        '  "B",',
        ']',
        'matrix = [[1, 2],',
        '          [3, { x = 4 }]]',
      ].join('\n'),
    );
    expect(document.locate(['runner', 'env_allowlist'])).toEqual({ line: 2, column: 1 });
    expect(document.locate(['runner', 'env_allowlist', 0])).toEqual({ line: 3, column: 3 });
    expect(document.locate(['runner', 'env_allowlist', 1])).toEqual({ line: 4, column: 3 });
    expect(document.locate(['runner', 'matrix', 1, 0])).toEqual({ line: 7, column: 12 });
    expect(document.locate(['runner', 'matrix', 1, 1, 'x'])).toEqual({ line: 7, column: 17 });
  });

  it('numbers array-of-tables entries and their sub-tables', () => {
    const document = parse(
      [
        '[[tools]]',
        'name = "a"',
        '[[tools]]',
        'name = "b"',
        '[tools.parameters.filter]',
        'type = "string"',
        '[[tools.examples]]',
        'input = 1',
        '[[tools.examples]]',
        'input = 2',
      ].join('\n'),
    );
    expect(document.locate(['tools'])).toEqual({ line: 1, column: 1 });
    expect(document.locate(['tools', 0, 'name'])).toEqual({ line: 2, column: 1 });
    expect(document.locate(['tools', 1])).toEqual({ line: 3, column: 1 });
    expect(document.locate(['tools', 1, 'name'])).toEqual({ line: 4, column: 1 });
    expect(document.locate(['tools', 1, 'parameters'])).toEqual({ line: 5, column: 8 });
    expect(document.locate(['tools', 1, 'parameters', 'filter'])).toEqual({ line: 5, column: 1 });
    expect(document.locate(['tools', 1, 'parameters', 'filter', 'type'])).toEqual({
      line: 6,
      column: 1,
    });
    expect(document.locate(['tools', 1, 'examples', 1, 'input'])).toEqual({ line: 10, column: 1 });
  });

  it('prefers the header that defines a table over one that only passes through it', () => {
    const document = parse(['[a.b]', 'x = 1', '[a]', 'y = 2'].join('\n'));
    expect(document.locate(['a'])).toEqual({ line: 3, column: 1 });
    expect(document.locate(['a', 'b'])).toEqual({ line: 1, column: 1 });
  });

  it('counts columns in UTF-16 code units, as the syntax errors do', () => {
    const document = parse('c = { "😀" = 1, d = 2 }');
    expect(document.locate(['c', 'd'])).toEqual({ line: 1, column: 17 });
  });

  it('falls back to the nearest located ancestor and never reads keys in multi-line strings', () => {
    const document = parse(
      ['[model]', 'script = """', 'provider = "not a key"', '"""', '[runner]'].join('\n'),
    );
    expect(document.locate(['model', 'provider'])).toEqual({ line: 1, column: 1 });
    expect(document.locate(['runner', 'missing', 3])).toEqual({ line: 5, column: 1 });
    expect(document.locate(['nothing'])).toBeUndefined();
  });

  it('returns the syntax error with its line and column when the TOML is invalid', () => {
    const result = parseTomlDocument('[hooks]\nenabled = tru\n');
    expect(isTomlSyntaxError(result)).toBe(true);
    expect(isTomlSyntaxError(result) && result.position).toEqual({ line: 2, column: 11 });
  });
});
