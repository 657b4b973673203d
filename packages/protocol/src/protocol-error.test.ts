import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProtocolError, parseEventRecord, parseHookInput } from './index.js';

const fixtures = join(import.meta.dirname, '__fixtures__');
const readFixture = (path: string): unknown =>
  JSON.parse(readFileSync(join(fixtures, path), 'utf8'));

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('ProtocolError', () => {
  it('carries code, issues and native cause when constructed', () => {
    const cause = new SyntaxError('bad');
    const error = new ProtocolError({
      code: 'INVALID_HOOK_INPUT',
      message: 'm',
      cause,
      issues: [{ path: ['tool'], message: 'x' }],
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ProtocolError');
    expect(error.code).toBe('INVALID_HOOK_INPUT');
    expect(error.cause).toBe(cause);
    expect(error.issues).toEqual([{ path: ['tool'], message: 'x' }]);
  });

  it('has no cause and no issues when none are given', () => {
    const error = new ProtocolError({ code: 'INVALID_EVENT_RECORD', message: 'm' });
    expect('cause' in error).toBe(false);
    expect(error.issues).toEqual([]);
  });

  it('recognises instances of a second copy of the module when checked with isInstance', async () => {
    const duplicatePath = './protocol-error.js?duplicate';
    const duplicate = (await import(duplicatePath)) as typeof import('./protocol-error.js');
    expect(duplicate.ProtocolError).not.toBe(ProtocolError);
    const foreign = new duplicate.ProtocolError({ code: 'INVALID_HOOK_OUTPUT', message: 'm' });
    expect(foreign instanceof ProtocolError).toBe(false);
    expect(ProtocolError.isInstance(foreign)).toBe(true);
  }, 60_000);

  it.each([null, undefined, 'ProtocolError', new Error('x'), { code: 'INVALID_HOOK_OUTPUT' }])(
    'rejects %s when checked with isInstance',
    (value) => {
      expect(ProtocolError.isInstance(value)).toBe(false);
    },
  );
});

describe('parseHookInput', () => {
  it('returns the input without unknown keys when it is valid', () => {
    const input = readFixture('HookInputSchema/valid-extra-key.json') as Record<string, unknown>;
    const parsed = parseHookInput(input);
    expect(parsed.event).toBe('Stop');
    expect(parsed).not.toHaveProperty('added_in_a_later_version');
  });

  it('throws INVALID_HOOK_INPUT with the path of the bad value when a field is wrong', () => {
    const input = readFixture('PreToolUseInputSchema/valid-write-file.json') as {
      tool: Record<string, unknown>;
    };
    input.tool.risk = 'safe';
    const error = caught(() => parseHookInput(input));
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).code).toBe('INVALID_HOOK_INPUT');
    expect((error as ProtocolError).issues.map((issue) => issue.path)).toEqual([['tool', 'risk']]);
    expect((error as ProtocolError).message).toContain('tool.risk');
  });

  it('shows an array item of the path in brackets when the item is wrong', () => {
    const input = readFixture('PreToolUseInputSchema/valid-write-file.json') as {
      tool: Record<string, unknown>;
    };
    input.tool.tags = ['write', 7];
    const error = caught(() => parseHookInput(input)) as ProtocolError;
    expect(error.issues.map((issue) => issue.path)).toEqual([['tool', 'tags', 1]]);
    expect(error.message).toContain('tool.tags[1]: ');
  });
});

describe('parseEventRecord', () => {
  it('returns the record with its extra keys when it is valid', () => {
    const record = readFixture('EventRecordSchema/valid-hook-failed.json');
    expect(parseEventRecord({ ...(record as object), host: 'ci' })).toEqual({
      ...(record as object),
      host: 'ci',
    });
  });

  it('throws INVALID_EVENT_RECORD when the type is unknown', () => {
    const error = caught(() =>
      parseEventRecord(readFixture('EventRecordSchema/invalid-unknown-type.json')),
    );
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).code).toBe('INVALID_EVENT_RECORD');
    expect((error as ProtocolError).issues[0]?.path).toEqual(['type']);
  });
});
