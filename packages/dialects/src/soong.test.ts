import { describe, expect, it } from 'vitest';
import { getDialect } from './registry.js';
import { soongDialect, soongExitMessage } from './soong.js';
import {
  answerNested,
  DEEP_ANSWER,
  expectTooDeep,
  jqPretty,
  LOG_LINE,
  nestedArrays,
} from './test-helpers/answers.js';
import { CONTEXT, run } from './test-helpers/run.js';

describe('soongDialect', () => {
  it('is registered under "soong" and sends the §2.1 input as it is', () => {
    expect(getDialect('soong')).toBe(soongDialect);
    const input = { event: 'Stop', hook_id: 'h' };
    expect(soongDialect.encodeInput('Stop', input, CONTEXT)).toBe(input);
  });

  it('decides by the §2.2 rules: decision, logs, unknown keys', () => {
    expect(
      soongDialect.decide(
        'PreToolUse',
        run({ stdout: '{"decision":"deny","reason":"r","logs":["a"],"extra":1}' }),
      ),
    ).toEqual({
      decision: 'deny',
      reason: 'r',
      exitCode: 0,
      logs: [{ source: 'logs', message: 'a' }],
      unknownKeys: ['extra'],
    });
    expect(soongDialect.decide('PreToolUse', run({ stdout: 'oops' }))).toMatchObject({
      decision: 'none',
      failure: { kind: 'protocol_error' },
    });
  });

  it('keeps a deny after a debug line, with a warning', () => {
    const verdict = soongDialect.decide(
      'PreToolUse',
      run({ stdout: 'checking…\n{"decision":"deny","reason":"r"}\n' }),
    );
    expect(verdict).toMatchObject({ decision: 'deny', reason: 'r' });
    expect(verdict.logs.map((log) => log.source)).toEqual(['warning']);
  });

  it('a worker answer decides like the same stdout (null is no decision)', () => {
    const answer = soongDialect.decideAnswer as NonNullable<typeof soongDialect.decideAnswer>;
    expect(answer('PreToolUse', { decision: 'deny', reason: 'r' })).toEqual(
      soongDialect.decide('PreToolUse', run({ stdout: '{"decision":"deny","reason":"r"}' })),
    );
    expect(answer('PreToolUse', null)).toEqual({ decision: 'none', exitCode: 0, logs: [] });
    expect(answer('PreToolUse', { decision: 'DENY' })).toMatchObject({ decision: 'deny' });
  });

  it('exit 2: says what to print first, Claude Code second (what a newcomer needs first)', () => {
    const message = soongExitMessage({ exitCode: 2, signal: null });
    expect(message.indexOf('{"decision":"deny"')).toBeGreaterThan(0);
    expect(message.indexOf('{"decision":"deny"')).toBeLessThan(message.indexOf('Claude Code'));
    expect(message).toContain('"protocol": "claude-code"');
    expect(soongDialect.decide('PreToolUse', run({ exitCode: 2 }))).toMatchObject({
      decision: 'none',
      failure: { kind: 'exit_code', message },
    });
  });

  it.each([
    { decision: 'allow' },
    { decision: 'deny' },
    { decision: 'deny', reason: 'no' },
    { decision: 'allow', reason: '' },
    { decision: 'deny', reason: 5 },
    { decision: 'deny', reason: undefined },
    { decision: 'Deny' },
    { decision: 'allow', extra: 1 },
    { decision: 'deny', metadata: { a: 1 }, logs: ['x'] },
    { reason: 'only' },
    [],
    'deny',
  ])('decides the worker answer %j as the same stdout decides', (output) => {
    const answer = soongDialect.decideAnswer as NonNullable<typeof soongDialect.decideAnswer>;
    expect(answer('PreToolUse', output)).toEqual(
      soongDialect.decide('PreToolUse', run({ stdout: JSON.stringify(output) })),
    );
  });
});

describe('soongDialect.decide', () => {
  const decide = (stdout: string, exitCode = 0) =>
    soongDialect.decide('PreToolUse', run({ stdout, exitCode }));
  const deny = { decision: 'deny', reason: 'no rm' };

  it.each([
    ['compact', `${LOG_LINE}\n${JSON.stringify(deny)}\n`],
    ['pretty-printed', `${LOG_LINE}\n${jqPretty(deny)}`],
  ])('keeps a %s deny with a warning when a log line comes before it', (_how, stdout) => {
    const verdict = decide(stdout);
    expect(verdict).toMatchObject({ decision: 'deny', reason: 'no rm', exitCode: 0 });
    expect(verdict.failure).toBeUndefined();
    expect(verdict.logs.map((log) => log.source)).toEqual(['warning']);
  });

  it('decides a pretty-printed deny without a warning when it is all of stdout', () => {
    expect(decide(jqPretty(deny))).toEqual({
      decision: 'deny',
      reason: 'no rm',
      exitCode: 0,
      logs: [],
    });
  });

  it('keeps the deny and the exit failure when a log line and a pretty-printed deny come with exit 1', () => {
    expect(decide(`${LOG_LINE}\n${jqPretty(deny)}`, 1)).toMatchObject({
      decision: 'deny',
      reason: 'no rm',
      failure: { kind: 'exit_code' },
    });
  });

  it('fails on an allow after a log line (only a deny is rescued)', () => {
    expect(decide(`${LOG_LINE}\n${JSON.stringify({ decision: 'allow' })}\n`)).toMatchObject({
      decision: 'none',
      failure: { kind: 'protocol_error' },
    });
  });

  it.each([
    ['all of stdout', DEEP_ANSWER],
    ['its last line after a log line', `${LOG_LINE}\n${DEEP_ANSWER}\n`],
    [
      'pretty-printed after a log line',
      `${LOG_LINE}\n{\n  "decision": ${nestedArrays(20_000)}\n}\n`,
    ],
    ['after an allow line', `{"decision":"allow"}\n${DEEP_ANSWER}`],
  ])(
    'fails as a protocol error without throwing when an answer 20,000 deep is %s',
    (_where, stdout) => {
      expectTooDeep(decide(stdout));
    },
  );

  it('keeps the deny when the deny carries a value 20,000 deep', () => {
    expect(decide(answerNested(deny, 20_000))).toMatchObject({ decision: 'deny', reason: 'no rm' });
  });

  it('decides when the answer nests 60 deep', () => {
    expect(decide(answerNested(deny, 60))).toMatchObject({
      decision: 'deny',
      reason: 'no rm',
      exitCode: 0,
      unknownKeys: ['extra'],
    });
  });
});
