import { describe, expect, it } from 'vitest';
import type { Dialect } from './dialect.js';
import { DialectError } from './dialect-error.js';
import {
  builtInDialects,
  createDialectRegistry,
  DIALECT_NAMES,
  defaultDialectRegistry,
  dialectToolName,
  getDialect,
  hasDialect,
  registerDialect,
} from './registry.js';

function testDialect(name: string): Dialect {
  return {
    name,
    toolNames: Object.freeze({ bash: 'Shell' }),
    events: Object.freeze({ beforeTool: 'PreToolUse' as const }),
    encodeInput: (event, input) => ({ event, ...input }),
    env: (context) => ({ TEST_PROJECT_DIR: context.projectDir }),
    decide: (_event, run) => ({
      decision: run.exitCode === 3 ? 'deny' : 'none',
      logs: [],
    }),
  };
}

function thrown(action: () => unknown): DialectError {
  try {
    action();
  } catch (error) {
    if (DialectError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a DialectError');
}

describe('the dialect registry', () => {
  it('adds a dialect: listed in DIALECT_NAMES, found by getDialect', () => {
    const dialect = testDialect('registry-test-a');
    expect(hasDialect('registry-test-a')).toBe(false);
    registerDialect(dialect);
    expect(hasDialect('registry-test-a')).toBe(true);
    expect(getDialect('registry-test-a')).toBe(dialect);
    expect(DIALECT_NAMES.at(-1)).toBe('registry-test-a');
  });

  it('refuses a name that is taken', () => {
    registerDialect(testDialect('registry-test-b'));
    const error = thrown(() => registerDialect(testDialect('registry-test-b')));
    expect(error.code).toBe('DUPLICATE_DIALECT');
    expect(error.message).toContain('"registry-test-b"');
  });

  it('refuses what is not a dialect, naming what is missing', () => {
    expect(thrown(() => registerDialect(null as unknown as Dialect)).code).toBe('INVALID_DIALECT');
    expect(thrown(() => registerDialect({ ...testDialect('Bad Name') })).message).toContain(
      'lowercase',
    );
    const noDecide = { ...testDialect('registry-test-c'), decide: undefined };
    const error = thrown(() => registerDialect(noDecide as unknown as Dialect));
    expect(error.code).toBe('INVALID_DIALECT');
    expect(error.message).toContain('decide()');
    const noTools = { ...testDialect('registry-test-c'), toolNames: undefined };
    expect(thrown(() => registerDialect(noTools as unknown as Dialect)).message).toContain(
      'toolNames',
    );
    expect(hasDialect('registry-test-c')).toBe(false);
  });

  it('getDialect of an unknown name throws UNKNOWN_DIALECT listing the known ones', () => {
    registerDialect(testDialect('registry-test-d'));
    const error = thrown(() => getDialect('nope'));
    expect(error.code).toBe('UNKNOWN_DIALECT');
    expect(error.message).toContain('"registry-test-d"');
    expect(error).toBeInstanceOf(Error);
  });

  it('dialectToolName: the host view, else the table, else our name', () => {
    const dialect = testDialect('registry-test-e');
    expect(dialectToolName(dialect, 'bash')).toBe('Shell');
    expect(dialectToolName(dialect, 'bash', 'RunShell')).toBe('RunShell');
    expect(dialectToolName(dialect, 'mcp__s__t')).toBe('mcp__s__t');
    expect(dialectToolName(dialect, 'toString')).toBe('toString');
  });
});

describe('createDialectRegistry', () => {
  it('holds only the dialects it is built from, and the default registry does not see them', () => {
    const mine = testDialect('registry-test-local');
    const registry = createDialectRegistry([...builtInDialects, mine]);
    expect(registry.get('registry-test-local')).toBe(mine);
    expect(registry.has('claude-code')).toBe(true);
    expect(registry.names.slice(0, 2)).toEqual(['soong', 'claude-code']);
    expect(registry.names.at(-1)).toBe('registry-test-local');
    expect(hasDialect('registry-test-local')).toBe(false);
    expect(defaultDialectRegistry.has('registry-test-local')).toBe(false);
    expect(thrown(() => registry.get('nope')).code).toBe('UNKNOWN_DIALECT');
  });

  it('refuses a name given twice or something that is not a dialect', () => {
    const dialect = testDialect('registry-test-twice');
    expect(thrown(() => createDialectRegistry([dialect, dialect])).code).toBe('DUPLICATE_DIALECT');
    expect(thrown(() => createDialectRegistry([{} as Dialect])).code).toBe('INVALID_DIALECT');
  });

  it('adds to the default registry when registerDialect is called', () => {
    registerDialect(testDialect('registry-test-default'));
    expect(defaultDialectRegistry.get('registry-test-default').name).toBe('registry-test-default');
    expect(defaultDialectRegistry.names).toBe(DIALECT_NAMES);
  });
});
