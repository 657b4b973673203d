import { soongDialect } from '@soong-agent/dialects/internal';
import type { HookEvent } from '@soong-agent/protocol';
import { RunnerError } from '@soong-agent/runner';
import { describe, expect, it } from 'vitest';
import {
  type DecideHookRunInput,
  decideHookRun,
  HOOK_LOG_LINES_MAX,
  HOOK_REASON_BYTES,
  type HookRunOutcome,
  outcomeOfStartError,
  utf8Tail,
} from './decide-hook-run.js';
import { ran } from './test-helpers/ran.js';

const HOOK = { id: 'guard', timeoutSec: 5, onFailure: 'ignore' } as const;

function decide(
  outcome: HookRunOutcome,
  options: Partial<Omit<DecideHookRunInput, 'outcome'>> = {},
): ReturnType<typeof decideHookRun> {
  return decideHookRun({
    hook: HOOK,
    event: 'PreToolUse',
    outcome,
    ...options,
  });
}

const DENY = '{"decision":"deny","reason":"no"}';

interface Row {
  name: string;
  ran: HookRunOutcome;
  event?: HookEvent;
  onFailure?: 'ignore' | 'deny';
  status: 'finished' | 'failed';
  decision: 'allow' | 'deny' | 'none';
  failure?: string;
  reason?: string;
  ignored?: boolean;
  records: string[];
}

const TABLE: Row[] = [
  {
    name: 'empty stdout, exit 0',
    ran: ran(),
    status: 'finished',
    decision: 'none',
    records: ['hook_finished'],
  },
  {
    name: 'an allow',
    ran: ran({ stdout: '{"decision":"allow"}' }),
    status: 'finished',
    decision: 'allow',
    records: ['hook_finished'],
  },
  {
    name: 'a deny on a blocking event',
    ran: ran({ stdout: DENY }),
    status: 'finished',
    decision: 'deny',
    reason: 'no',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'a deny on an observe-only event',
    ran: ran({ stdout: DENY }),
    event: 'PostToolUse',
    status: 'finished',
    decision: 'deny',
    reason: 'no',
    ignored: true,
    records: ['hook_finished', 'hook_decision_ignored'],
  },
  {
    name: 'a deny without a reason',
    ran: ran({ stdout: '{"decision":"deny"}' }),
    status: 'finished',
    decision: 'deny',
    reason: 'denied by hook guard',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'stderr and logs with an allow',
    ran: ran({ stdout: '{"decision":"allow","logs":["a","b"]}', stderr: 'noise' }),
    status: 'finished',
    decision: 'allow',
    records: ['hook_log', 'hook_log', 'hook_log', 'hook_finished'],
  },
  {
    name: 'a non-zero exit',
    ran: ran({ exitCode: 1 }),
    status: 'failed',
    decision: 'none',
    failure: 'exit_code',
    records: ['hook_failed'],
  },
  {
    name: 'a non-zero exit with a valid deny on stdout',
    ran: ran({ exitCode: 1, stdout: DENY }),
    status: 'failed',
    decision: 'deny',
    failure: 'exit_code',
    reason: 'no',
    records: ['hook_failed', 'hook_denied'],
  },
  {
    name: 'a non-zero exit with on_failure deny',
    ran: ran({ exitCode: 3 }),
    onFailure: 'deny',
    status: 'failed',
    decision: 'deny',
    failure: 'exit_code',
    reason: 'hook guard failed: exit_code',
    records: ['hook_failed', 'hook_denied'],
  },
  {
    name: 'a failure with on_failure deny on an observe-only event',
    ran: ran({ exitCode: 3 }),
    event: 'SessionStart',
    onFailure: 'deny',
    status: 'failed',
    decision: 'deny',
    failure: 'exit_code',
    reason: 'hook guard failed: exit_code',
    ignored: true,
    records: ['hook_failed', 'hook_decision_ignored'],
  },
  {
    name: 'a kill by a signal',
    ran: ran({ exitCode: null, signal: 'SIGKILL' }),
    status: 'failed',
    decision: 'none',
    failure: 'exit_code',
    records: ['hook_failed'],
  },
  {
    name: 'a timeout',
    ran: ran({ exitCode: null, signal: 'SIGTERM', timedOut: true, stdout: DENY }),
    status: 'failed',
    decision: 'none',
    failure: 'timeout',
    records: ['hook_failed'],
  },
  {
    name: 'a cancelled run',
    ran: ran({ exitCode: null, signal: 'SIGTERM', aborted: true }),
    status: 'failed',
    decision: 'none',
    failure: 'aborted',
    records: ['hook_failed'],
  },
  {
    name: 'a stdout flood',
    ran: ran({ exitCode: null, signal: 'SIGKILL', stdoutLimitExceeded: true, stderr: 'e' }),
    status: 'failed',
    decision: 'none',
    failure: 'output_too_large',
    records: ['hook_log', 'hook_failed'],
  },
  {
    name: 'invalid JSON',
    ran: ran({ stdout: 'not json' }),
    status: 'failed',
    decision: 'none',
    failure: 'protocol_error',
    records: ['hook_failed'],
  },
  {
    name: 'an unknown decision',
    ran: ran({ stdout: '{"decision":"maybe"}' }),
    status: 'failed',
    decision: 'none',
    failure: 'protocol_error',
    records: ['hook_failed'],
  },
  {
    name: "Claude Code's block",
    ran: ran({ stdout: '{"decision":"block","reason":"no"}' }),
    status: 'finished',
    decision: 'deny',
    reason: 'no',
    records: ['hook_log', 'hook_finished', 'hook_denied'],
  },
  {
    name: 'a log line before a deny',
    ran: ran({ stdout: `checking\n${DENY}` }),
    status: 'finished',
    decision: 'deny',
    reason: 'no',
    records: ['hook_log', 'hook_finished', 'hook_denied'],
  },
  {
    name: 'a missing working dir',
    ran: outcomeOfStartError(new RunnerError({ code: 'CWD_INVALID', message: 'gone' }), 0.04),
    status: 'failed',
    decision: 'none',
    failure: 'cwd_invalid',
    records: ['hook_failed'],
  },
  {
    name: 'a spawn rejection',
    ran: outcomeOfStartError(new RunnerError({ code: 'SPAWN_FAILED', message: 'no sh' }), 1),
    status: 'failed',
    decision: 'none',
    failure: 'spawn_error',
    records: ['hook_failed'],
  },
  {
    name: 'a thrown non-error',
    ran: outcomeOfStartError('boom', 1),
    status: 'failed',
    decision: 'none',
    failure: 'spawn_error',
    records: ['hook_failed'],
  },
];

describe('decideHookRun', () => {
  it.each(TABLE)('decides $status / $decision and records $records when given $name', (row) => {
    const { result, records } = decide(row.ran, {
      event: row.event ?? 'PreToolUse',
      hook: { ...HOOK, onFailure: row.onFailure ?? 'ignore' },
    });
    expect(records.map((record) => record.type)).toEqual(row.records);
    expect(result.hookId).toBe('guard');
    expect(result.status).toBe(row.status);
    expect(result.decision).toBe(row.decision);
    expect(result.failure).toBe(row.failure);
    expect(result.reason).toBe(row.reason);
    expect(result.ignored).toBe(row.ignored);
    const ended = records.find((r) => r.type === 'hook_finished' || r.type === 'hook_failed');
    expect(ended).toMatchObject({ duration_ms: result.durationMs });
    const denied = records.find(
      (r) => r.type === 'hook_denied' || r.type === 'hook_decision_ignored',
    );
    expect(denied?.reason).toBe(row.decision === 'deny' ? row.reason : undefined);
  });

  it('copies what the process left behind into the result when it ran', () => {
    const { result } = decide(
      ran({ exitCode: 1, stdout: 'out', stderr: 'err', durationMs: 3.1234 }),
    );
    expect(result).toMatchObject({
      exitCode: 1,
      signal: null,
      stdout: 'out',
      stderr: 'err',
      stdoutBytes: 3,
      stderrBytes: 3,
      durationMs: 3.1,
    });
  });

  it('leaves the process fields empty and names the runner error when nothing ran', () => {
    const { result, records } = decide(outcomeOfStartError(new Error('spawn sh ENOENT'), 0.26));
    expect(result).toMatchObject({ exitCode: null, signal: null, stdout: '', stderrBytes: 0 });
    expect(result.failureMessage).toBe('spawn sh ENOENT');
    expect(records[0]).toMatchObject({ type: 'hook_failed', exit_code: null, duration_ms: 0.3 });
  });

  it('orders stderr, then logs lines, then warnings, before the end record when all are present', () => {
    const stdout = `{"decision":"allow","logs":["one"],"colour":1}`;
    const { records, reportedUnknownKeys } = decide(ran({ stdout, stderr: 'e' }));
    expect(records.map((r) => (r.type === 'hook_log' ? r.source : r.type))).toEqual([
      'stderr',
      'logs',
      'warning',
      'hook_finished',
    ]);
    expect(reportedUnknownKeys).toBe(true);
  });

  it('does not report unknown keys again when they were reported already', () => {
    const stdout = `{"decision":"allow","colour":1}`;
    const { records, reportedUnknownKeys } = decide(ran({ stdout }), { unknownKeysReported: true });
    expect(records.map((r) => r.type)).toEqual(['hook_finished']);
    expect(reportedUnknownKeys).toBe(false);
  });

  it('says how many stderr bytes were not kept when the tail is shorter than the stream', () => {
    const { records } = decide(ran({ stderr: 'x'.repeat(10), stderrTail: 'xx', stderrBytes: 10 }));
    expect(records[0]).toMatchObject({ type: 'hook_log', source: 'stderr' });
    expect((records[0] as { message: string }).message).toMatch(/^\[\.\.\. 8 bytes/);
  });

  it('bounds the reason and the logs lines when a hook floods them', () => {
    const logs = Array.from({ length: HOOK_LOG_LINES_MAX + 5 }, (_, i) => `line ${i}`);
    const stdout = JSON.stringify({ decision: 'deny', reason: 'r'.repeat(100_000), logs });
    const { result, records } = decide(ran({ stdout }));
    expect(Buffer.byteLength(result.reason ?? '')).toBeLessThanOrEqual(HOOK_REASON_BYTES);
    const logRecords = records.filter((r) => r.type === 'hook_log');
    expect(logRecords).toHaveLength(HOOK_LOG_LINES_MAX + 1);
    expect(logRecords.at(-1)).toMatchObject({ source: 'warning' });
  });

  it('keeps the metadata in the result and the records when a hook returns some', () => {
    const stdout = JSON.stringify({ decision: 'deny', reason: 'r', metadata: { rule: 7 } });
    const { result, records } = decide(ran({ stdout }));
    expect(result.metadata).toEqual({ rule: 7 });
    expect(records[0]).toMatchObject({
      type: 'hook_finished',
      decision: 'deny',
      metadata: { rule: 7 },
    });
  });
});

describe('decideHookRun with a dialect that throws', () => {
  const throwing = {
    ...soongDialect,
    name: 'fragile',
    decide: () => {
      throw new RangeError('Maximum call stack size exceeded');
    },
  };

  it.each([
    ['ignore', 'none'],
    ['deny', 'deny'],
  ] as const)(
    'fails the hook as a protocol error with its records closed when on_failure is %s',
    (onFailure, decision) => {
      const decided = decideHookRun({
        hook: { ...HOOK, onFailure },
        event: 'PreToolUse',
        outcome: ran({ stdout: DENY }),
        dialect: throwing,
      });
      expect(decided.result).toMatchObject({
        status: 'failed',
        failure: 'protocol_error',
        decision,
      });
      expect(decided.result.failureMessage).toMatch(/"fragile" dialect could not read the answer/);
      expect(decided.records.map((record) => record.type)).toContain('hook_failed');
    },
  );
});

describe('utf8Tail', () => {
  it('keeps the end in at most maxBytes, starting at a whole character, never a U+FFFD', () => {
    // "é" is 2 bytes, "€" 3: a window that cuts into a character starts after it.
    expect(utf8Tail('a€é€', 4)).toBe('€');
    expect(utf8Tail('a€é€', 5)).toBe('é€');
    expect(utf8Tail('a€é€', 100)).toBe('a€é€');
    expect(utf8Tail('caf\\xe9 end', 7)).toBe('xe9 end');
  });
});
