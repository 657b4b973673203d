import { expect, it } from 'vitest';
import type { DialectVerdict } from '../dialect.js';

/** The log line a hook prints on stdout before its answer. */
export const LOG_LINE = 'starting guard';

/** `value` as `jq .` prints it: two-space indented, one key a line, a final newline. */
export function jqPretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** `depth` arrays nested in each other, as JSON text (`[[]]` is 2). */
export function nestedArrays(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** An answer whose `decision` nests 20,000 arrays deep (40 KB): the stack-overflow attack. */
export const DEEP_ANSWER = `{"decision":${nestedArrays(20_000)}}`;

/** `fields` as a JSON object with one more key nested so the whole answer is `depth` deep. */
export function answerNested(fields: Record<string, unknown>, depth: number): string {
  return `${JSON.stringify(fields).slice(0, -1)},"extra":${nestedArrays(depth - 1)}}`;
}

/** Asserts a deny rescued from after the log line: the reason, the log line, one warning. */
export function expectRescuedDeny(verdict: DialectVerdict, reason: string): void {
  expect(verdict).toMatchObject({ decision: 'deny', reason });
  expect(verdict.failure).toBeUndefined();
  expect(verdict.logs[0]).toEqual({ source: 'logs', message: LOG_LINE });
  expect(
    verdict.logs.filter(
      (log) => log.source === 'warning' && log.message.includes('the deny stands'),
    ),
  ).toHaveLength(1);
}

/** Asserts an answer nested too deep failed as a protocol error, naming the bound. */
export function expectTooDeep(verdict: DialectVerdict): void {
  expect(verdict.decision).toBe('none');
  expect(verdict.failure).toEqual({
    kind: 'protocol_error',
    message: expect.stringContaining('more than 64 levels deep'),
  });
}

/** What {@link itKeepsDeniesAndBoundsDepth} needs to know of one dialect. */
export interface DenyCase {
  /** The dialect's `decide`. */
  decide: (event: 'PreToolUse', run: DialectRunLike) => DialectVerdict;
  /** A finished run of `stdout` with `exitCode`. */
  run: (exitCode: number, stdout: string) => DialectRunLike;
  /** A deny in the dialect's own words, with `reason` as its reason. */
  deny: Record<string, unknown>;
  reason: string;
}

type DialectRunLike = Parameters<import('../dialect.js').Dialect['decide']>[1];

/**
 * The attacker's cases every dialect shares (spec §13.2, §2.2): a deny after a log line, compact
 * or as `jq .` prints it, stands; an answer nested 20,000 deep is a protocol error, also on a
 * last line or after a log line, and never throws; an answer 60 deep still decides.
 */
export function itKeepsDeniesAndBoundsDepth({ decide, run, deny, reason }: DenyCase): void {
  it('keeps a compact deny when a log line comes before it', () => {
    expectRescuedDeny(
      decide('PreToolUse', run(0, `${LOG_LINE}\n${JSON.stringify(deny)}\n`)),
      reason,
    );
  });

  it('keeps a pretty-printed deny when a log line comes before it', () => {
    const verdict = decide('PreToolUse', run(0, `${LOG_LINE}\n${jqPretty(deny)}`));
    expectRescuedDeny(verdict, reason);
    expect(verdict.logs.map((log) => log.message).join('\n')).toContain(
      'the JSON object that ends it denies',
    );
  });

  it('keeps a pretty-printed deny when log lines with quotes and braces come before it', () => {
    const logs = `${LOG_LINE}\nit's "half {quoted\n} [1/3] \\`;
    const verdict = decide('PreToolUse', run(0, `${logs}\n${jqPretty(deny)}`));
    expect(verdict).toMatchObject({ decision: 'deny', reason });
    expect(verdict.logs[0]).toEqual({ source: 'logs', message: logs });
  });

  it('decides a pretty-printed deny without a warning when it is all of stdout', () => {
    const verdict = decide('PreToolUse', run(0, jqPretty(deny)));
    expect(verdict).toMatchObject({ decision: 'deny', reason });
    expect(verdict.failure).toBeUndefined();
    expect(verdict.logs.filter((log) => log.message.includes('the deny stands'))).toEqual([]);
  });

  it('keeps the deny when a log line and a pretty-printed deny come with exit 1', () => {
    const verdict = decide('PreToolUse', run(1, `${LOG_LINE}\n${jqPretty(deny)}`));
    expect(verdict).toMatchObject({ decision: 'deny', reason });
  });

  it.each([
    ['all of stdout', DEEP_ANSWER],
    ['its last line after a log line', `${LOG_LINE}\n${DEEP_ANSWER}\n`],
    [
      'pretty-printed after a log line',
      `${LOG_LINE}\n{\n  "decision": ${nestedArrays(20_000)}\n}\n`,
    ],
    [
      'after an allow line',
      `{"decision":"allow","permission":"allow","permissionDecision":"allow"}\n${DEEP_ANSWER}`,
    ],
  ])(
    'fails as a protocol error without throwing when an answer 20,000 deep is %s',
    (_where, stdout) => {
      expectTooDeep(decide('PreToolUse', run(0, stdout)));
    },
  );

  it('keeps the deny with a warning when the deny carries a value 20,000 deep', () => {
    const verdict = decide('PreToolUse', run(0, answerNested(deny, 20_000)));
    expect(verdict).toMatchObject({ decision: 'deny', reason });
    expect(verdict.failure).toBeUndefined();
    expect(verdict.logs).toContainEqual({
      source: 'warning',
      message: expect.stringContaining('more than 64 levels deep'),
    });
  });

  it('keeps the exit failure with a warning when an answer 20,000 deep comes with exit 1', () => {
    const verdict = decide('PreToolUse', run(1, DEEP_ANSWER));
    expect(verdict).toMatchObject({ decision: 'none', failure: { kind: 'exit_code' } });
    expect(verdict.logs).toContainEqual({
      source: 'warning',
      message: expect.stringContaining('more than 64 levels deep'),
    });
  });

  it('decides when the answer nests 60 deep', () => {
    const verdict = decide('PreToolUse', run(0, answerNested(deny, 60)));
    expect(verdict).toMatchObject({ decision: 'deny', reason });
    expect(verdict.failure).toBeUndefined();
  });
}
