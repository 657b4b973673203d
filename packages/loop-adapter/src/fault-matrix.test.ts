import fs from 'node:fs';
import path from 'node:path';
import type { HookEvent } from '@soong-agent/protocol';
import { BLOCKING_EVENTS, type HookFailureKind } from '@soong-agent/protocol/internal';
import { tempDirFor } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import type { HookPayload } from './hook-engine.js';
import { type HookSpec, hookCommand, recordsOf, recordTypes, setup } from './test-helpers/setup.js';

// Every failure kind of spec §2.2 (and the cases that must *not* fail) × the five events ×
// on_failure. Hook A is the faulty one, hook B (allow) must still run unless A's deny stands.
const TEN_MB = 'p'.repeat(10 * 1024 * 1024);
const CONFIG = '[runner]\nkill_grace_ms = 200\nmax_output_bytes = 65536\n';

interface FaultCase {
  name: string;
  hook: HookSpec;
  /** Records of hook A, in order. */
  records: string[];
  /** The failure kind; absent when the hook must not count as failed. */
  failure?: HookFailureKind;
  exitCode?: number;
  bigPayload?: boolean;
  abort?: boolean;
  /** A symlink made in the project dir after loading: [name, target]. */
  symlink?: [string, string];
}

const CASES: FaultCase[] = [
  {
    name: 'a non-zero exit',
    hook: { command: hookCommand('fail.sh') },
    records: ['hook_started', 'hook_log', 'hook_failed'],
    failure: 'exit_code',
    exitCode: 1,
  },
  {
    name: 'a missing script (exit 127)',
    hook: { command: hookCommand('no-such-hook.sh') },
    records: ['hook_started', 'hook_log', 'hook_failed'],
    failure: 'exit_code',
    exitCode: 127,
  },
  {
    name: 'a timeout',
    hook: { command: hookCommand('sleep.sh'), timeout: 1 },
    records: ['hook_started', 'hook_failed'],
    failure: 'timeout',
  },
  {
    name: 'SIGTERM ignored',
    hook: { command: hookCommand('ignore-term.sh'), timeout: 1 },
    records: ['hook_started', 'hook_failed'],
    failure: 'timeout',
  },
  {
    name: 'invalid JSON',
    hook: { command: hookCommand('print.sh', '{"decision":') },
    records: ['hook_started', 'hook_failed'],
    failure: 'protocol_error',
  },
  {
    name: 'JSON that is not an object',
    hook: { command: hookCommand('print.sh', '["deny"]') },
    records: ['hook_started', 'hook_failed'],
    failure: 'protocol_error',
  },
  {
    name: 'a missing decision',
    hook: { command: hookCommand('print.sh', '{"reason":"why"}') },
    records: ['hook_started', 'hook_failed'],
    failure: 'protocol_error',
  },
  {
    name: 'a misspelled decision',
    hook: { command: hookCommand('print.sh', '{"decison":"deny"}') },
    records: ['hook_started', 'hook_failed'],
    failure: 'protocol_error',
  },
  {
    name: 'a stdout flood',
    hook: { command: hookCommand('stdout-flood.sh') },
    records: ['hook_started', 'hook_failed'],
    failure: 'output_too_large',
  },
  {
    name: 'a stderr flood',
    hook: { command: hookCommand('stderr-flood.sh') },
    records: ['hook_started', 'hook_log', 'hook_finished'],
  },
  {
    name: 'a pipe held by a grandchild',
    hook: { command: hookCommand('grandchild.sh') },
    records: ['hook_started', 'hook_finished'],
  },
  {
    name: 'a missing working dir',
    hook: { command: hookCommand('allow.sh'), working_dir: 'no-such-dir' },
    records: ['hook_started', 'hook_failed'],
    failure: 'cwd_invalid',
  },
  {
    // A working dir surely outside the roots is a config error; through a symlink it loads and
    // the runner refuses it when the hook runs.
    name: 'a working dir outside the roots',
    hook: { command: hookCommand('allow.sh'), working_dir: 'link-to-root' },
    symlink: ['link-to-root', '/'],
    records: ['hook_started', 'hook_failed'],
    failure: 'cwd_invalid',
  },
  {
    name: 'a 10 MB payload it never reads',
    hook: { command: hookCommand('no-read.sh') },
    records: ['hook_started', 'hook_finished'],
    bigPayload: true,
  },
  {
    name: 'a cancelled run',
    hook: { command: hookCommand('sleep.sh'), timeout: 5 },
    records: ['hook_started', 'hook_failed'],
    failure: 'aborted',
    abort: true,
  },
];

function payload(event: HookEvent, big: boolean): HookPayload<HookEvent> {
  const text = big ? TEN_MB : 'small';
  const tool = {
    name: 'bash',
    call_id: 'call_1',
    input: { command: text },
    risk: 'dangerous' as const,
    tags: ['dangerous'],
    paths: [],
  };
  switch (event) {
    case 'SessionStart':
      return { source: 'startup' };
    case 'UserPromptSubmit':
      return { prompt: text };
    case 'PreToolUse':
      return { tool };
    case 'PostToolUse':
      return {
        tool,
        result: { is_error: false, bytes: text.length, content: text },
        duration_ms: 1,
      };
    case 'Stop':
      return {
        stop_hook_active: false,
        prevented_count: 0,
        previous_reasons: [],
        last_assistant_message: text,
      };
    case 'SessionEnd':
      return { reason: 'completed' };
    case 'Notification':
      return { kind: 'permission_prompt', message: text };
    case 'PostToolUseFailure':
      return {
        tool,
        result: { is_error: true, bytes: text.length, content: text },
        duration_ms: 1,
        error: text.slice(0, 1024),
      };
    case 'PreCompact':
      return { trigger: 'auto', custom_instructions: text };
    case 'SubagentStart':
      return { agent_id: 'a1', agent_type: 'Explore' };
    case 'SubagentStop':
      return {
        agent_id: 'a1',
        agent_type: 'Explore',
        stop_hook_active: false,
        last_assistant_message: text,
      };
  }
}

const EVENTS: HookEvent[] = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'SessionEnd',
  'Notification',
];

describe.concurrent('createHookEngine fault matrix', () => {
  for (const fault of CASES) {
    for (const event of EVENTS) {
      for (const onFailure of ['ignore', 'deny'] as const) {
        const blocking = BLOCKING_EVENTS.includes(event);
        const denies = fault.failure !== undefined && onFailure === 'deny' && blocking;
        it(`${denies ? 'denies' : 'goes on'} when a ${event} hook has ${fault.name} and on_failure = ${onFailure}`, async (context) => {
          const { engine, sink, projectDir } = setup(
            tempDirFor(context),
            {
              [event]: [
                {
                  hooks: [
                    { ...fault.hook, name: 'A', on_failure: onFailure },
                    { command: hookCommand('allow.sh'), name: 'B' },
                  ],
                },
              ],
            },
            CONFIG,
          );
          if (fault.symlink) {
            fs.symlinkSync(fault.symlink[1], path.join(projectDir, fault.symlink[0]));
          }
          const controller = new AbortController();
          if (fault.abort) setTimeout(() => controller.abort(), 300);
          const outcome = await engine.run(
            event,
            payload(event, fault.bigPayload === true) as never,
            { signal: controller.signal },
          );

          const expected = [...fault.records];
          const failsClosed = fault.failure !== undefined && onFailure === 'deny';
          if (denies) expected.push('hook_denied');
          else {
            // On an observe-only event the failure's deny is recorded as ignored; B still runs.
            if (failsClosed) expected.push('hook_decision_ignored');
            if (!fault.abort) expected.push('hook_started', 'hook_finished');
          }
          expect(recordTypes(sink.records)).toEqual(expected);
          expect(
            sink.records.every((record) => !('hook_id' in record) || record.event === event),
          ).toBe(true);

          if (fault.failure) {
            const failed = recordsOf(sink.records, 'hook_failed');
            expect(failed).toHaveLength(1);
            expect(failed[0]).toMatchObject({
              hook_id: 'A',
              failure: fault.failure,
              on_failure: onFailure,
            });
            if (fault.exitCode !== undefined) expect(failed[0]?.exit_code).toBe(fault.exitCode);
          } else {
            expect(recordsOf(sink.records, 'hook_finished')[0]).toMatchObject({
              hook_id: 'A',
              decision: 'allow',
            });
          }
          if (denies) {
            expect(outcome).toMatchObject({
              decision: 'deny',
              hookId: 'A',
              reason: `hook A failed: ${fault.failure}`,
            });
            expect(recordsOf(sink.records, 'hook_denied')[0]?.reason).toBe(
              `hook A failed: ${fault.failure}`,
            );
          } else {
            expect(outcome.decision).toBe(fault.abort ? 'none' : 'allow');
            if (failsClosed) {
              expect(recordsOf(sink.records, 'hook_decision_ignored')[0]).toMatchObject({
                hook_id: 'A',
                reason: `hook A failed: ${fault.failure}`,
              });
            }
          }
        }, 60_000);
      }
    }
  }
});
