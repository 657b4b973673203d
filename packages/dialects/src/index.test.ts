import { describe, expect, it } from 'vitest';
import * as dialects from './index.js';

describe('@soong-agent/dialects exports', () => {
  it('exports the registry and the error class', () => {
    expect(Object.keys(dialects).sort()).toEqual([
      'CLAUDE_CODE_DEFAULT_TIMEOUT_SECONDS',
      'CLAUDE_CODE_OUR_TOOL_NAMES',
      'CLAUDE_CODE_TOOL_INPUT_BYTES',
      'CLAUDE_CODE_TOOL_NAMES',
      'DIALECT_ERROR_CODES',
      'DIALECT_NAMES',
      'DialectError',
      'builtInDialects',
      'claudeCodeDialect',
      'claudeCodeToolName',
      'claudeCodeView',
      'codexPatch',
      'convertClaudeCodeConfig',
      'createDialectRegistry',
      'defaultDialectRegistry',
      'dialectToolAliases',
      'dialectToolName',
      'getDialect',
      'hasDialect',
      'registerDialect',
      'soongDialect',
      'soongExitMessage',
      'toClaudeCodeToolInput',
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
