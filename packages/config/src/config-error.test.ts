import { describe, expect, it } from 'vitest';
import { CONFIG_ERROR_CODES, ConfigError } from './config-error.js';
import { createTempLayout } from './test-helpers/temp-dirs.js';

const issue = (message: string) => ({ file: '/x/hooks.json', problem: message, message });

describe('ConfigError', () => {
  it('pins the error codes', () => {
    expect(CONFIG_ERROR_CODES).toEqual([
      'CONFIG_READ_FAILED',
      'CONFIG_PARSE_FAILED',
      'CONFIG_INVALID',
    ]);
  });

  it('lists every issue one per line and takes its fields from the first', () => {
    const error = new ConfigError({
      code: 'CONFIG_INVALID',
      issues: [
        { ...issue('a'), line: 2, column: 3, path: 'hooks', fix: 'do x', expected: 'y' },
        issue('b'),
      ],
      cause: new Error('inner'),
    });
    expect(error.message).toBe('a\nb');
    expect([error.file, error.line, error.column, error.path, error.fix, error.expected]).toEqual([
      '/x/hooks.json',
      2,
      3,
      'hooks',
      'do x',
      'y',
    ]);
    expect((error.cause as Error).message).toBe('inner');
    expect(error.name).toBe('ConfigError');
  });

  it('is recognised by isInstance across copies through its global brand', () => {
    const error = new ConfigError({ code: 'CONFIG_READ_FAILED', issues: [issue('a')] });
    expect(ConfigError.isInstance(error)).toBe(true);
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('@soong-agent/config/ConfigError')]: true,
    });
    expect(ConfigError.isInstance(foreign)).toBe(true);
    expect(ConfigError.isInstance(new Error('x'))).toBe(false);
    expect(ConfigError.isInstance(null)).toBe(false);
  });

  it('refuses to be built without an issue', () => {
    expect(() => new ConfigError({ code: 'CONFIG_INVALID', issues: [] })).toThrow(TypeError);
  });

  it('formats a matcher error as file:line:col, JSON path, problem and fix with ~ for the home', () => {
    const layout = createTempLayout();
    try {
      layout.write(
        'hooks.json',
        [
          '{',
          '  "version": 1,',
          '  "hooks": {',
          '    "PreToolUse": [',
          '      {',
          '        "matcher": {',
          '         "tool": "Edit|Write"',
          '        },',
          '        "hooks": [{ "type": "command", "command": "x" }]',
          '      }',
          '    ]',
          '  }',
          '}',
        ].join('\n'),
      );
      let caught: unknown;
      try {
        layout.load();
      } catch (error) {
        caught = error;
      }
      expect(ConfigError.isInstance(caught)).toBe(true);
      const error = caught as ConfigError;
      expect(error.message).toMatch(
        /^~\/\.soong-agent\/hooks\.json:7:18 hooks\.PreToolUse\[0\]\.matcher\.tool: "Edit\|Write" looks like a regex.*; .*write \["edit_file", "write_file"\]$/,
      );
      expect(error.issues).toHaveLength(1);
      expect(error.fix).toContain('["edit_file", "write_file"]');
    } finally {
      layout.cleanup();
    }
  });

  it('formats a schema error with the expected value as the fix', () => {
    const layout = createTempLayout();
    try {
      layout.write('config.toml', '[hooks]\ndefault_timeout = "30"\n');
      let caught: unknown;
      try {
        layout.load();
      } catch (error) {
        caught = error;
      }
      const error = caught as ConfigError;
      expect(error.message).toBe(
        '~/.soong-agent/config.toml:2:1 hooks.default_timeout: expected number, got string "30"; write a number of seconds from 0.1 to 600',
      );
      expect(error.expected).toBe('a number of seconds from 0.1 to 600');
    } finally {
      layout.cleanup();
    }
  });
});
