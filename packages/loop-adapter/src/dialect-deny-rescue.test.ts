import fs from 'node:fs';
import path from 'node:path';
import type { BuiltInDialectName } from '@soong-agent/dialects';
import { tempDirFor } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { recordsOf, recordTypes, setup } from './test-helpers/setup.js';

// spec §13.2 and §2.2 from the attacker's side, with real hook processes: a deny printed as `jq .`
// prints it after a log line stands in every dialect, and an answer nested 20,000 deep is a
// protocol error that on_failure decides, with every record closed.
const DENIES: Record<BuiltInDialectName, Record<string, unknown>> = {
  soong: { decision: 'deny', reason: 'no rm' },
  'claude-code': {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm',
    },
  },
  codex: { decision: 'block', reason: 'no rm' },
  gemini: { decision: 'deny', reason: 'no rm' },
  cursor: { permission: 'deny', agent_message: 'no rm' },
  copilot: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' },
};
const DIALECTS = Object.keys(DENIES) as BuiltInDialectName[];
const DEEP_ANSWER = `{"decision":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
const PAYLOAD = {
  tool: {
    name: 'bash',
    call_id: 'call_1',
    input: { command: 'rm -rf /' },
    risk: 'dangerous' as const,
    tags: ['dangerous'],
    paths: [],
  },
};

/** A hook script that reads its stdin, logs a line on stdout, then prints `answer` (a heredoc). */
function writeGuard(root: string, answer: string): string {
  const script = path.join(root, 'guard.sh');
  fs.writeFileSync(
    script,
    `#!/bin/sh\ncat >/dev/null\necho 'starting guard'\ncat <<'ANSWER'\n${answer}\nANSWER\n`,
    { mode: 0o755 },
  );
  return `'${script}'`;
}

/** Asserts each hook_started is closed by hook_finished or hook_failed; returns the types. */
function closedRecordTypes(records: Parameters<typeof recordTypes>[0]): string[] {
  const types = recordTypes(records);
  const starts = types.filter((type) => type === 'hook_started').length;
  const ends = types.filter((type) => type === 'hook_finished' || type === 'hook_failed').length;
  expect(ends).toBe(starts);
  return types;
}

describe.concurrent('createHookEngine with a deny after a log line', () => {
  for (const protocol of DIALECTS) {
    it(`denies when a ${protocol} hook logs a line and then prints a pretty-printed deny`, async (context) => {
      const root = tempDirFor(context);
      const command = writeGuard(root, JSON.stringify(DENIES[protocol], null, 2));
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command, protocol, name: 'guard' }] }],
      });
      const outcome = await engine.run('PreToolUse', PAYLOAD);
      expect(outcome).toMatchObject({ decision: 'deny', hookId: 'guard', reason: 'no rm' });
      const types = closedRecordTypes(sink.records);
      expect(types[0]).toBe('hook_started');
      expect(types.slice(-2)).toEqual(['hook_finished', 'hook_denied']);
      expect(new Set(types.slice(1, -2))).toEqual(new Set(['hook_log']));
      const logs = recordsOf(sink.records, 'hook_log');
      expect(
        logs.some((log) => log.source === 'warning' && log.message.includes('the deny stands')),
      ).toBe(true);
      if (protocol !== 'soong') {
        expect(logs).toContainEqual(
          expect.objectContaining({ source: 'logs', message: 'starting guard' }),
        );
      }
      expect(recordsOf(sink.records, 'hook_finished')[0]).toMatchObject({ decision: 'deny' });
    }, 60_000);
  }
});

describe.concurrent('createHookEngine with an answer nested 20,000 deep', () => {
  for (const protocol of DIALECTS) {
    for (const onFailure of ['deny', 'ignore'] as const) {
      it(`fails the ${protocol} hook as a protocol error and ${onFailure === 'deny' ? 'denies' : 'goes on'} when on_failure = ${onFailure}`, async (context) => {
        const root = tempDirFor(context);
        const command = writeGuard(root, DEEP_ANSWER);
        const { engine, sink } = setup(root, {
          PreToolUse: [{ hooks: [{ command, protocol, name: 'guard', on_failure: onFailure }] }],
        });
        const outcome = await engine.run('PreToolUse', PAYLOAD);
        const types = closedRecordTypes(sink.records);
        expect(types[0]).toBe('hook_started');
        expect(types.at(onFailure === 'deny' ? -2 : -1)).toBe('hook_failed');
        expect(recordsOf(sink.records, 'hook_failed')).toEqual([
          expect.objectContaining({
            hook_id: 'guard',
            failure: 'protocol_error',
            message: expect.stringContaining('more than 64 levels deep'),
            on_failure: onFailure,
          }),
        ]);
        if (onFailure === 'deny') {
          expect(types.at(-1)).toBe('hook_denied');
          expect(outcome).toMatchObject({
            decision: 'deny',
            reason: 'hook guard failed: protocol_error',
          });
        } else {
          expect(types).not.toContain('hook_denied');
          expect(outcome.decision).toBe('none');
        }
      }, 60_000);
    }
  }
});
