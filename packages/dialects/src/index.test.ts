import { describe, expect, it } from 'vitest';
import * as dialects from './index.js';

describe('@soong-agent/dialects exports', () => {
  it('exports the registry and the error class', () => {
    expect(Object.keys(dialects).sort()).toEqual([
      'CLAUDE_CODE_DEFAULT_TIMEOUT_SECONDS',
      'DIALECT_ERROR_CODES',
      'DIALECT_NAMES',
      'DialectError',
      'codexPatch',
      'convertClaudeCodeConfig',
      'dialectToolName',
      'getDialect',
      'hasDialect',
      'registerDialect',
    ]);
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
