import { claudeCodeDialect } from '@soong-agent/dialects/internal';
import type { HookEvent } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import {
  type DecideHookRunInput,
  decideHookRun,
  type HookRunDecision,
  type HookRunOutcome,
} from './decide-hook-run.js';
import { ran } from './test-helpers/ran.js';

const HOOK = { id: 'cc', timeoutSec: 5, onFailure: 'ignore' } as const;

// The engine's decision for a `"protocol": "claude-code"` hook: the dialect's verdict, then ours.
function decideClaudeCodeRun(
  input: Omit<DecideHookRunInput, 'outcome' | 'dialect'> & {
    ran: HookRunOutcome;
    maxOutputBytes?: number;
  },
): HookRunDecision {
  const { ran: outcome, maxOutputBytes: _ignored, ...rest } = input;
  return decideHookRun({ ...rest, outcome, dialect: claudeCodeDialect });
}

interface Row {
  name: string;
  ran: HookRunOutcome;
  event?: HookEvent;
  onFailure?: 'ignore' | 'deny';
  decision: 'allow' | 'deny' | 'none';
  status?: 'finished' | 'failed';
  reason?: string;
  ask?: boolean;
  ignored?: boolean;
  records: string[];
}

const pre = (permissionDecision: string, reason?: string) =>
  JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision,
      ...(reason === undefined ? {} : { permissionDecisionReason: reason }),
    },
  });

const TABLE: Row[] = [
  { name: 'exit 0, empty stdout', ran: ran(), decision: 'none', records: ['hook_finished'] },
  {
    name: 'exit 0, plain text',
    ran: ran({ stdout: 'checked 3 files\n' }),
    decision: 'none',
    records: ['hook_log:logs', 'hook_finished'],
  },
  {
    name: 'exit 0, a { that is not JSON (plain text)',
    ran: ran({ stdout: '{oops' }),
    decision: 'none',
    records: ['hook_log:logs', 'hook_finished'],
  },
  {
    name: 'exit 0, {} ',
    ran: ran({ stdout: '{}' }),
    decision: 'none',
    records: ['hook_finished'],
  },
  {
    name: 'decision block on PreToolUse',
    ran: ran({ stdout: '{"decision":"block","reason":"no rm"}' }),
    decision: 'deny',
    reason: 'no rm',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'decision block on Stop',
    event: 'Stop',
    ran: ran({ stdout: '{"decision":"block","reason":"run the tests"}' }),
    decision: 'deny',
    reason: 'run the tests',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'decision block on PostToolUse',
    event: 'PostToolUse',
    ran: ran({ stdout: '{"decision":"block","reason":"lint fails"}' }),
    decision: 'deny',
    reason: 'lint fails',
    ignored: true,
    // The block reason is context (spec §13.1), dropped with a warning: delivery is off.
    records: ['hook_log:warning', 'hook_finished', 'hook_decision_ignored'],
  },
  {
    name: 'decision block without a reason',
    ran: ran({ stdout: '{"decision":"block"}' }),
    decision: 'deny',
    reason: 'denied by hook cc',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'decision approve',
    ran: ran({ stdout: '{"decision":"approve","reason":"fine"}' }),
    decision: 'allow',
    reason: 'fine',
    records: ['hook_finished'],
  },
  {
    name: 'permissionDecision deny',
    ran: ran({ stdout: pre('deny', 'protected file') }),
    decision: 'deny',
    reason: 'protected file',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'permissionDecision allow',
    ran: ran({ stdout: pre('allow', 'safe') }),
    decision: 'allow',
    reason: 'safe',
    records: ['hook_finished'],
  },
  {
    name: 'permissionDecision ask',
    ran: ran({ stdout: pre('ask', 'touches prod') }),
    decision: 'none',
    reason: 'touches prod',
    ask: true,
    records: ['hook_finished'],
  },
  {
    name: 'permissionDecision defer',
    ran: ran({ stdout: pre('defer') }),
    decision: 'none',
    records: ['hook_finished'],
  },
  {
    name: 'permissionDecision at the top level',
    ran: ran({ stdout: '{"permissionDecision":"deny","reason":"top"}' }),
    decision: 'deny',
    reason: 'top',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'permissionDecision deny with updatedInput and systemMessage (ignored, deny stands)',
    ran: ran({
      stdout: JSON.stringify({
        systemMessage: 'hi',
        suppressOutput: true,
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'no',
          updatedInput: { command: 'true' },
          additionalContext: 'ctx',
        },
      }),
    }),
    decision: 'deny',
    reason: 'no',
    // One warning for the ignored keys, one for the additionalContext dropped (delivery is off).
    records: ['hook_log:warning', 'hook_log:warning', 'hook_finished', 'hook_denied'],
  },
  {
    name: 'allow in one field and block in another (the deny wins)',
    ran: ran({
      stdout: JSON.stringify({
        decision: 'block',
        reason: 'no',
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
      }),
    }),
    decision: 'deny',
    reason: 'no',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'continue false on PreToolUse',
    ran: ran({ stdout: '{"continue":false,"stopReason":"halt everything"}' }),
    decision: 'deny',
    reason: 'halt everything',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'continue false on Stop (the stop goes through, even with a block)',
    event: 'Stop',
    ran: ran({ stdout: '{"continue":false,"stopReason":"done","decision":"block","reason":"x"}' }),
    decision: 'none',
    reason: 'done',
    records: ['hook_log:warning', 'hook_finished'],
  },
  {
    name: 'continue false on UserPromptSubmit (recorded)',
    event: 'UserPromptSubmit',
    ran: ran({ stdout: '{"continue":false}' }),
    decision: 'none',
    records: ['hook_log:warning', 'hook_finished'],
  },
  {
    name: 'exit 2 with stderr on PreToolUse',
    ran: ran({ exitCode: 2, stderr: 'rm -rf is blocked\n' }),
    decision: 'deny',
    reason: 'rm -rf is blocked',
    records: ['hook_log:stderr', 'hook_finished', 'hook_denied'],
  },
  {
    name: 'exit 2 with empty stderr and a JSON reason',
    ran: ran({ exitCode: 2, stdout: '{"decision":"block","reason":"from json"}' }),
    decision: 'deny',
    reason: 'from json',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'exit 2 with nothing to say',
    ran: ran({ exitCode: 2 }),
    decision: 'deny',
    reason: 'denied by hook cc',
    records: ['hook_finished', 'hook_denied'],
  },
  {
    name: 'exit 2 even when the JSON says allow',
    ran: ran({ exitCode: 2, stderr: 'no', stdout: pre('allow') }),
    decision: 'deny',
    reason: 'no',
    records: ['hook_log:stderr', 'hook_finished', 'hook_denied'],
  },
  {
    name: 'exit 2 on Stop',
    event: 'Stop',
    ran: ran({ exitCode: 2, stderr: 'tests fail' }),
    decision: 'deny',
    reason: 'tests fail',
    records: ['hook_log:stderr', 'hook_finished', 'hook_denied'],
  },
  {
    name: 'exit 2 on SessionStart',
    event: 'SessionStart',
    ran: ran({ exitCode: 2, stderr: 'nope' }),
    decision: 'deny',
    reason: 'nope',
    ignored: true,
    records: ['hook_log:stderr', 'hook_finished', 'hook_decision_ignored'],
  },
  {
    name: 'exit 1',
    ran: ran({ exitCode: 1, stderr: 'jq: not found' }),
    status: 'failed',
    decision: 'none',
    records: ['hook_log:stderr', 'hook_failed'],
  },
  {
    name: 'exit 1 with on_failure deny',
    onFailure: 'deny',
    ran: ran({ exitCode: 1 }),
    status: 'failed',
    decision: 'deny',
    reason: 'hook cc failed: exit_code',
    records: ['hook_failed', 'hook_denied'],
  },
  {
    name: 'exit 1 with a JSON block on stdout (it decides, as in Claude Code: spec §13.2)',
    ran: ran({ exitCode: 1, stdout: '{"decision":"block","reason":"still no"}' }),
    status: 'finished',
    decision: 'deny',
    reason: 'still no',
    records: ['hook_log:warning', 'hook_finished', 'hook_denied'],
  },
  {
    name: 'exit 1 with a block after a log line (a failure; the deny stands)',
    ran: ran({ exitCode: 1, stdout: 'checking\n{"decision":"block","reason":"still no"}' }),
    status: 'failed',
    decision: 'deny',
    reason: 'still no',
    records: ['hook_log:logs', 'hook_log:warning', 'hook_failed', 'hook_denied'],
  },
  {
    name: 'timeout',
    ran: ran({ exitCode: null, signal: 'SIGTERM', timedOut: true }),
    status: 'failed',
    decision: 'none',
    records: ['hook_failed'],
  },
];

describe('decideHookRun with the claude-code dialect', () => {
  it.each(TABLE)('decides $decision when $name', (row) => {
    const decided = decideClaudeCodeRun({
      hook: { ...HOOK, onFailure: row.onFailure ?? 'ignore' },
      event: row.event ?? 'PreToolUse',
      ran: row.ran,
      maxOutputBytes: 1024,
    });
    expect(decided.result).toMatchObject({
      hookId: 'cc',
      status: row.status ?? 'finished',
      decision: row.decision,
    });
    expect(decided.result.reason).toBe(row.reason);
    expect(decided.result.ask).toBe(row.ask);
    expect(decided.result.ignored).toBe(row.ignored);
    expect(
      decided.records.map((record) =>
        record.type === 'hook_log' ? `hook_log:${record.source}` : record.type,
      ),
    ).toEqual(row.records);
  });

  it('reports every ignored key in one warning and records the exit 2 block with its exit code', () => {
    const decided = decideClaudeCodeRun({
      hook: HOOK,
      event: 'PreToolUse',
      ran: ran({
        exitCode: 2,
        stderr: 'blocked',
        stdout: JSON.stringify({
          systemMessage: 'x',
          novel: 1,
          hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: {} },
        }),
      }),
      maxOutputBytes: 1024,
    });
    expect(decided.records.filter((record) => record.type === 'hook_log')).toEqual([
      { type: 'hook_log', source: 'stderr', message: 'blocked' },
      {
        type: 'hook_log',
        source: 'warning',
        message:
          'Claude Code output keys ignored: "systemMessage", "novel", "hookSpecificOutput.updatedInput" (hooks here can block, allow or add context, never patch input or show messages)',
      },
    ]);
    expect(decided.records.find((record) => record.type === 'hook_finished')).toMatchObject({
      decision: 'deny',
      exit_code: 2,
      reason: 'blocked',
    });
  });

  it('marks an ask in hook_finished and only on PreToolUse', () => {
    const asked = decideClaudeCodeRun({
      hook: HOOK,
      event: 'PreToolUse',
      ran: ran({ stdout: pre('ask', 'why') }),
      maxOutputBytes: 1024,
    });
    expect(asked.records[0]).toMatchObject({ type: 'hook_finished', permission_decision: 'ask' });
    const elsewhere = decideClaudeCodeRun({
      hook: HOOK,
      event: 'PostToolUse',
      ran: ran({ stdout: pre('ask', 'why') }),
      maxOutputBytes: 1024,
    });
    expect(elsewhere.result.ask).toBeUndefined();
    expect(elsewhere.result.decision).toBe('none');
  });
});
