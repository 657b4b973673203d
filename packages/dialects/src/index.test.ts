import { describe, expect, it } from 'vitest';
import * as dialects from './index.js';
import * as internal from './internal.js';

describe('@soong-agent/dialects exports', () => {
  it('exports the registry and the error class', () => {
    expect(Object.keys(dialects).sort()).toEqual([
      'DIALECT_ERROR_CODES',
      'DIALECT_NAMES',
      'DialectError',
      'builtInDialects',
      'convertClaudeCodeConfig',
      'createDialectRegistry',
      'defaultDialectRegistry',
      'getDialect',
      'hasDialect',
      'registerDialect',
    ]);
    expect(dialects.DIALECT_NAMES.slice(0, 2)).toEqual(['soong', 'claude-code']);
  });

  it('DialectError: code, cause, a brand that works across copies', () => {
    const cause = new Error('inner');
    const error = new dialects.DialectError({ code: 'UNKNOWN_DIALECT', message: 'x', cause });
    expect(error.name).toBe('DialectError');
    expect(error.cause).toBe(cause);
    expect(dialects.DialectError.isInstance(error)).toBe(true);
    expect(dialects.DialectError.isInstance(new Error('x'))).toBe(false);
    expect(
      dialects.DialectError.isInstance({
        [Symbol.for('@soong-agent/dialects/DialectError')]: true,
      }),
    ).toBe(true);
  });
});

describe('internal', () => {
  it('exports exactly the pinned names only sibling packages use, none of them public', () => {
    expect(Object.keys(internal).sort()).toEqual([
      'CLAUDE_CODE_TOOL_NAMES',
      'claudeCodeDialect',
      'claudeCodeToolName',
      'claudeCodeView',
      'dialectToolAliases',
      'soongDialect',
      'toClaudeCodeToolInput',
    ]);
    for (const name of Object.keys(internal)) expect(Object.keys(dialects)).not.toContain(name);
  });
});
