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
      ].join('\n'),
    );
    expect(document.locate(['hooks'])).toEqual({ line: 2, column: 1 });
    expect(document.locate(['hooks', 'enabled'])).toEqual({ line: 3, column: 3 });
    expect(document.locate(['hooks', 'a', 'b'])).toEqual({ line: 4, column: 1 });
    expect(document.locate(['hooks', 'quoted key'])).toEqual({ line: 5, column: 1 });
    expect(document.locate(['runner', 'lit'])).toEqual({ line: 7, column: 1 });
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
      ].join('\n'),
    );
    expect(document.locate(['tools', 0, 'name'])).toEqual({ line: 2, column: 1 });
    expect(document.locate(['tools', 1, 'name'])).toEqual({ line: 4, column: 1 });
    expect(document.locate(['tools', 1, 'parameters', 'filter', 'type'])).toEqual({
      line: 6,
      column: 1,
    });
    expect(document.locate(['tools', 1, 'parameters', 'filter'])).toEqual({ line: 5, column: 1 });
  });

  it('falls back to the nearest located ancestor and skips multi-line strings', () => {
    const document = parse(
      [
        '[model]',
        'script = """',
        'provider = "not a key"',
        '"""',
        '[runner]',
        'env_allowlist = ["A",',
        '  "B"]',
      ].join('\n'),
    );
    expect(document.locate(['model', 'provider'])).toEqual({ line: 1, column: 1 });
    expect(document.locate(['runner', 'env_allowlist', 1])).toEqual({ line: 6, column: 1 });
    expect(document.locate(['nothing'])).toBeUndefined();
  });

  it('returns the syntax error with its line and column when the TOML is invalid', () => {
    const result = parseTomlDocument('[hooks]\nenabled = tru\n');
    expect(isTomlSyntaxError(result)).toBe(true);
    expect(isTomlSyntaxError(result) && result.position).toEqual({ line: 2, column: 11 });
  });
});
