import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { readEventLog } from './event-log.js';
import { LoopAdapterError } from './loop-adapter-error.js';
import { openHookSession } from './open-hook-session.js';
import { hookCommand, recordsOf, recordTypes, writeHome } from './test-helpers/setup.js';

const tempDir = () => makeTempDir();
const PROCESS_TIMEOUT = 60_000;

const readJson = (file: string) =>
  JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;

function catchError(run: () => unknown): LoopAdapterError {
  try {
    run();
  } catch (error) {
    if (LoopAdapterError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a LoopAdapterError');
}

describe('the gate and PostToolUseFailure (spec §13.2)', () => {
  it(
    'runs PostToolUseFailure then PostToolUse for a failed call; claude-code PostToolUse hooks see only results that succeeded',
    async () => {
      const root = tempDir();
      const out = (name: string) => path.join(root, name);
      const { home, projectDir } = writeHome(root, {
        PostToolUseFailure: [
          {
            matcher: { tool: 'bash' },
            hooks: [
              { command: hookCommand('record.sh', out('failure-soong.json')), name: 'failure' },
              {
                command: hookCommand('record-dialect.sh', out('failure-claude.json')),
                name: 'failure-claude',
                protocol: 'claude-code',
              },
            ],
          },
        ],
        PostToolUse: [
          {
            hooks: [
              { command: hookCommand('record.sh', out('post-soong.json')), name: 'post' },
              {
                command: hookCommand('record-dialect.sh', out('post-claude.json')),
                name: 'post-claude',
                protocol: 'claude-code',
              },
            ],
          },
        ],
      });
      const session = await openHookSession({ projectDir, home });
      const gate = session.toolGate();
      const call = {
        id: 'c1',
        name: 'bash',
        input: { command: 'npm test' },
        risk: 'dangerous' as const,
      };
      expect(await gate.before(call)).toEqual({ run: true });
      await gate.after('c1', { content: 'exit code 1\nFAIL src/a.test.ts', isError: true });

      const failure = readJson(out('failure-soong.json'));
      expect(failure).toMatchObject({
        event: 'PostToolUseFailure',
        tool: { name: 'bash', call_id: 'c1' },
        result: { is_error: true, content: 'exit code 1\nFAIL src/a.test.ts' },
        error: 'exit code 1\nFAIL src/a.test.ts',
      });
      expect(typeof failure.duration_ms).toBe('number');
      expect(readJson(out('failure-claude.json'))).toMatchObject({
        hook_event_name: 'PostToolUseFailure',
        tool_name: 'Bash',
        tool_input: { command: 'npm test' },
        tool_use_id: 'c1',
        error: 'exit code 1\nFAIL src/a.test.ts',
        is_interrupt: false,
      });
      // soong PostToolUse hooks see every result (its is_error says which); Claude Code's do not.
      expect(readJson(out('post-soong.json'))).toMatchObject({
        event: 'PostToolUse',
        result: { is_error: true },
      });
      expect(fs.existsSync(out('post-claude.json'))).toBe(false);

      // A call that succeeded: no PostToolUseFailure, and the Claude Code hook gets duration_ms.
      fs.rmSync(out('failure-soong.json'));
      expect(await gate.before({ ...call, id: 'c2' })).toEqual({ run: true });
      await gate.after('c2', { content: 'ok', isError: false });
      expect(fs.existsSync(out('failure-soong.json'))).toBe(false);
      const post = readJson(out('post-claude.json'));
      expect(post).toMatchObject({ hook_event_name: 'PostToolUse', tool_use_id: 'c2' });
      expect(typeof post.duration_ms).toBe('number');
      expect(fs.readFileSync(`${out('post-claude.json')}.env`, 'utf8')).toContain(
        `CLAUDE_CODE_SESSION_ID=${session.sessionId}`,
      );
      await session.close();

      const records = readEventLog(session.eventLog).records;
      recordTypes(records);
      const c1 = records
        .filter((record) => 'call_id' in record && record.call_id === 'c1')
        .map((record) =>
          record.type === 'hook_started' ? `${record.type}:${record.hook_id}` : record.type,
        );
      expect(c1).toEqual([
        'tool_started',
        'tool_finished',
        'hook_started:failure',
        'hook_finished',
        'hook_started:failure-claude',
        'hook_finished',
        'hook_started:post',
        'hook_finished',
      ]);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'blocks a call when a claude-code hook exits 1 with a JSON deny on stdout (spec §13.2)',
    async () => {
      const root = tempDir();
      const deny = JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'no network',
        },
      });
      const { home, projectDir } = writeHome(root, {
        PreToolUse: [
          {
            hooks: [
              {
                command: hookCommand('print-exit.sh', deny, '1'),
                name: 'net-guard',
                protocol: 'claude-code',
              },
            ],
          },
        ],
      });
      const session = await openHookSession({ projectDir, home });
      const verdict = await session
        .toolGate()
        .before({ id: 'c1', name: 'bash', input: { command: 'curl x' }, risk: 'dangerous' });
      expect(verdict.run).toBe(false);
      await session.close();
      const records = readEventLog(session.eventLog).records;
      expect(recordsOf(records, 'hook_finished')[0]).toMatchObject({
        decision: 'deny',
        exit_code: 1,
      });
      expect(recordsOf(records, 'hook_failed')).toEqual([]);
      expect(recordsOf(records, 'tool_denied')[0]).toMatchObject({ reason: 'no network' });
    },
    PROCESS_TIMEOUT,
  );
});

describe('a Copilot CLI PascalCase hook (spec §13.2)', () => {
  it(
    "gets Claude Code's payload with Copilot's argument names and CLAUDE_PROJECT_DIR, and its hookSpecificOutput deny blocks",
    async () => {
      const root = tempDir();
      const out = path.join(root, 'pascal.json');
      const deny = JSON.stringify({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
        permissionDecisionReason: 'not that file',
      });
      const { home, projectDir } = writeHome(root, {
        PreToolUse: [
          {
            hooks: [
              {
                command: hookCommand('record-dialect.sh', out),
                protocol: 'copilot',
                dialect_event: 'PreToolUse',
              },
              {
                command: hookCommand('print-exit.sh', deny, '0'),
                name: 'file-guard',
                protocol: 'copilot',
                dialect_event: 'PreToolUse',
              },
            ] as never,
          },
        ],
      });
      const session = await openHookSession({ projectDir, home });
      const verdict = await session
        .toolGate()
        .before({ id: 'c1', name: 'read_file', input: { path: 'src/a.ts' }, risk: 'readonly' });
      await session.close();
      expect(verdict.run).toBe(false);
      expect(readJson(out)).toMatchObject({
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: { path: 'src/a.ts' },
      });
      expect(fs.readFileSync(`${out}.env`, 'utf8')).toContain(`CLAUDE_PROJECT_DIR=${projectDir}`);
      const records = readEventLog(session.eventLog).records;
      expect(recordsOf(records, 'tool_denied')[0]).toMatchObject({
        hook_id: 'file-guard',
        reason: 'not that file',
      });
    },
    PROCESS_TIMEOUT,
  );
});

describe('session.fire (spec §13.2)', () => {
  it(
    'runs PreCompact, SubagentStart and SubagentStop hooks with their fields; a deny is recorded as ignored',
    async () => {
      const root = tempDir();
      const out = (name: string) => path.join(root, name);
      const { home, projectDir } = writeHome(root, {
        PreCompact: [{ hooks: [{ command: hookCommand('record.sh', out('compact.json')) }] }],
        SubagentStart: [
          { hooks: [{ command: hookCommand('deny.sh', 'no subagents'), name: 'no-agents' }] },
        ],
        SubagentStop: [
          {
            hooks: [
              {
                command: hookCommand('record-dialect.sh', out('stop-claude.json')),
                protocol: 'claude-code',
              },
              {
                command: hookCommand('record-dialect.sh', out('stop-codex.json')),
                protocol: 'codex',
              },
            ],
          },
        ],
      });
      const session = await openHookSession({ projectDir, home });
      const compacted = await session.fire('PreCompact', {
        trigger: 'auto',
        custom_instructions: '',
      });
      expect(compacted.decision).toBe('allow');
      expect(readJson(out('compact.json'))).toMatchObject({
        protocol_version: 1,
        event: 'PreCompact',
        session_id: session.sessionId,
        trigger: 'auto',
        custom_instructions: '',
      });
      const started = await session.fire('SubagentStart', {
        agent_id: 'a1',
        agent_type: 'Explore',
      });
      expect(started.decision).toBe('none');
      const stopped = await session.fire('SubagentStop', {
        agent_id: 'a1',
        agent_type: 'Explore',
        stop_hook_active: false,
        last_assistant_message: 'found 3 call sites',
      });
      expect(stopped.decision).toBe('none');
      expect(readJson(out('stop-claude.json'))).toMatchObject({
        hook_event_name: 'SubagentStop',
        agent_id: 'a1',
        agent_type: 'Explore',
        stop_hook_active: false,
        last_assistant_message: 'found 3 call sites',
      });
      expect(readJson(out('stop-codex.json'))).toMatchObject({
        hook_event_name: 'SubagentStop',
        agent_id: 'a1',
      });
      await session.close();
      const records = readEventLog(session.eventLog).records;
      recordTypes(records);
      expect(recordsOf(records, 'hook_decision_ignored')).toEqual([
        expect.objectContaining({ hook_id: 'no-agents', event: 'SubagentStart' }),
      ]);
      expect(recordsOf(records, 'hook_denied')).toEqual([]);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'throws INVALID_OPTIONS for an event a host does not fire and for fields the event does not take, before any hook runs',
    async () => {
      const root = tempDir();
      const marker = path.join(root, 'ran.json');
      const { home, projectDir } = writeHome(root, {
        PreCompact: [{ hooks: [{ command: hookCommand('record.sh', marker) }] }],
        Stop: [{ hooks: [{ command: hookCommand('record.sh', marker) }] }],
      });
      const session = await openHookSession({ projectDir, home });
      const fire = session.fire as (event: string, fields: unknown) => Promise<unknown>;
      const notHost = catchError(() => fire('Stop', { last_assistant_message: 'x' }));
      expect(notHost.code).toBe('INVALID_OPTIONS');
      expect(notHost.message).toContain('PreCompact, SubagentStart, SubagentStop');
      for (const fields of [
        { trigger: 'sometimes', custom_instructions: '' },
        { trigger: 'auto' },
        { trigger: 'auto', custom_instructions: '', extra: 1 },
        'auto',
      ]) {
        const error = catchError(() => fire('PreCompact', fields));
        expect(error.code, JSON.stringify(fields)).toBe('INVALID_OPTIONS');
        expect(error.message).toContain('session.fire("PreCompact")');
      }
      const missing = catchError(() => fire('SubagentStart', { agent_id: 'a1' }));
      expect(missing.message).toContain('fields.agent_type');
      await session.close();
      expect(fs.existsSync(marker)).toBe(false);
    },
    PROCESS_TIMEOUT,
  );
});

describe('Stop and the loop prompt', () => {
  it(
    "gives Stop hooks the loop's user prompt, which Gemini CLI's AfterAgent hooks read as prompt",
    async () => {
      const root = tempDir();
      const out = (name: string) => path.join(root, name);
      const { home, projectDir } = writeHome(root, {
        Stop: [
          {
            hooks: [
              { command: hookCommand('record.sh', out('stop.json')) },
              {
                command: hookCommand('record-dialect.sh', out('after-agent.json')),
                protocol: 'gemini',
              },
            ],
          },
        ],
      });
      const session = await openHookSession({ projectDir, home });
      await session.userPrompt('fix the flaky test');
      await session.stop('fixed');
      await session.close();
      expect(readJson(out('stop.json'))).toMatchObject({
        event: 'Stop',
        prompt: 'fix the flaky test',
        last_assistant_message: 'fixed',
      });
      expect(readJson(out('after-agent.json'))).toMatchObject({
        hook_event_name: 'AfterAgent',
        prompt: 'fix the flaky test',
        prompt_response: 'fixed',
      });
    },
    PROCESS_TIMEOUT,
  );
});
