import fs from 'node:fs';
import path from 'node:path';
import type { HookEvent } from '@soong-agent/protocol';
import { HookInputSchema, type ToolCallInfo } from '@soong-agent/protocol';
import { runCommand } from '@soong-agent/runner';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import type { HookPayload } from './hook-engine.js';
import { hookCommand, recordsOf, recordTypes, setup } from './test-helpers/setup.js';

const tempDir = () => makeTempDir();
const PROCESS_TIMEOUT = 60_000;

function toolInfo(overrides: Partial<ToolCallInfo> = {}): ToolCallInfo {
  return {
    name: 'write_file',
    call_id: 'call_1',
    input: { path: 'src/a.ts', content: 'x' },
    risk: 'write',
    tags: ['write'],
    paths: ['/p/src/a.ts'],
    ...overrides,
  };
}

const PAYLOADS: { [E in HookEvent]: HookPayload<E> } = {
  SessionStart: { source: 'startup' },
  UserPromptSubmit: { prompt: 'fix the bug' },
  PreToolUse: { tool: toolInfo() },
  PostToolUse: {
    tool: toolInfo(),
    result: { is_error: false, bytes: 2, content: 'ok' },
    duration_ms: 3,
  },
  Stop: {
    stop_hook_active: false,
    prevented_count: 0,
    previous_reasons: [],
    last_assistant_message: 'done',
  },
  SessionEnd: { reason: 'aborted' },
  Notification: { kind: 'permission_prompt', message: 'allow bash?' },
  PostToolUseFailure: {
    tool: toolInfo(),
    result: { is_error: true, bytes: 6, content: 'failed' },
    duration_ms: 4,
    error: 'failed',
  },
  PreCompact: { trigger: 'manual', custom_instructions: 'keep the plan' },
  SubagentStart: { agent_id: 'a1', agent_type: 'Explore' },
  SubagentStop: {
    agent_id: 'a1',
    agent_type: 'Explore',
    stop_hook_active: false,
    last_assistant_message: 'found it',
  },
};
const EVENTS = Object.keys(PAYLOADS) as HookEvent[];

describe('createHookEngine', () => {
  it.each(EVENTS)(
    'sends every spec §2.1 field on stdin only, with the SOONG_AGENT_* env, when running a %s hook',
    async (event) => {
      const root = tempDir();
      const out = path.join(root, 'stdin.json');
      const { engine, sink, projectDir, home } = setup(root, {
        [event]: [{ hooks: [{ command: hookCommand('record.sh', out) }] }],
      });
      const outcome = await engine.run(event, PAYLOADS[event] as never);
      expect(outcome.decision).toBe('allow');
      const input = HookInputSchema.parse(JSON.parse(fs.readFileSync(out, 'utf8')));
      expect(input).toMatchObject({
        protocol_version: 1,
        event,
        session_id: '20261202T135512Z-3f9a1c',
        project_dir: projectDir,
        agent_home: home,
        hook_id: `${event}[0][0]`,
        ...PAYLOADS[event],
      });
      expect(Math.abs(Date.parse(input.timestamp) - Date.now())).toBeLessThan(600_000);
      expect(fs.readFileSync(`${out}.env`, 'utf8').split('\n')).toEqual([
        `SOONG_AGENT_HOME=${home}`,
        `SOONG_AGENT_HOOK_EVENT=${event}`,
        'SOONG_AGENT_HOOK_MODE=spawn',
        `SOONG_AGENT_PROJECT_DIR=${projectDir}`,
        'SOONG_AGENT_SESSION_ID=20261202T135512Z-3f9a1c',
        'ARGC=1',
        `PWD=${projectDir}`,
        '',
      ]);
      expect(recordTypes(sink.records)).toEqual(['hook_started', 'hook_finished']);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'gives a hook that reopens /dev/stdin its whole input',
    async () => {
      const root = tempDir();
      const out = path.join(root, 'stdin.json');
      const { engine } = setup(root, {
        PreToolUse: [
          {
            hooks: [
              {
                command: `cat /dev/stdin > '${out}' && echo '{"decision":"allow"}'`,
              },
            ],
          },
        ],
      });
      const outcome = await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      expect(outcome.results[0]).toMatchObject({ status: 'finished', decision: 'allow' });
      const input = HookInputSchema.parse(JSON.parse(fs.readFileSync(out, 'utf8')));
      expect(input).toMatchObject({ event: 'PreToolUse', tool: { call_id: 'call_1' } });
    },
    PROCESS_TIMEOUT,
  );

  it('records nothing and spawns nothing when no rule matches', async () => {
    let runs = 0;
    const { engine, sink } = setup(
      tempDir(),
      { PreToolUse: [{ matcher: { tool: 'bash' }, hooks: [{ command: hookCommand('deny.sh') }] }] },
      '',
      {
        runner: (options) => {
          runs++;
          return runCommand(options);
        },
      },
    );
    const outcome = await engine.run('PreToolUse', { tool: toolInfo() });
    expect(outcome).toEqual({ decision: 'none', results: [] });
    expect(await engine.run('Stop', PAYLOADS.Stop)).toEqual({ decision: 'none', results: [] });
    expect(runs).toBe(0);
    expect(sink.records).toEqual([]);
  });

  it(
    'records durations rounded to 0.1 ms when the runner reports float noise',
    async () => {
      const { engine, sink } = setup(
        tempDir(),
        { PreToolUse: [{ hooks: [{ command: hookCommand('allow.sh') }] }] },
        '',
        {
          runner: async (options) => ({
            ...(await runCommand(options)),
            durationMs: 98.77857399999999,
          }),
        },
      );
      const outcome = await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      expect(outcome.results[0]?.durationMs).toBe(98.8);
      expect(JSON.stringify(recordsOf(sink.records, 'hook_finished')[0])).toContain(
        '"duration_ms":98.8,',
      );
    },
    PROCESS_TIMEOUT,
  );

  it.each(['PreToolUse', 'Stop'] as const)(
    'stops at the first deny when a %s hook denies',
    async (event) => {
      const { engine, sink } = setup(tempDir(), {
        [event]: [
          {
            hooks: [
              { command: hookCommand('allow.sh') },
              { command: hookCommand('deny.sh', 'no way'), name: 'guard' },
            ],
          },
          { hooks: [{ command: hookCommand('allow.sh') }] },
        ],
      });
      const outcome = await engine.run(event, PAYLOADS[event] as never);
      expect(outcome).toMatchObject({ decision: 'deny', reason: 'no way', hookId: 'guard' });
      expect(outcome.results.map((result) => result.hookId)).toEqual([`${event}[0][0]`, 'guard']);
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_finished',
        'hook_started',
        'hook_finished',
        'hook_denied',
      ]);
      expect(recordsOf(sink.records, 'hook_denied')[0]).toMatchObject({
        hook_id: 'guard',
        event,
        reason: 'no way',
        ...(event === 'PreToolUse' ? { call_id: 'call_1' } : {}),
      });
      expect(recordsOf(sink.records, 'hook_finished')[1]).toMatchObject({
        decision: 'deny',
        exit_code: 0,
      });
    },
    PROCESS_TIMEOUT,
  );

  it.each(['SessionStart', 'UserPromptSubmit', 'PostToolUse'] as const)(
    'records hook_decision_ignored and runs later hooks when a %s hook denies',
    async (event) => {
      const { engine, sink } = setup(tempDir(), {
        [event]: [
          {
            hooks: [
              { command: hookCommand('deny.sh', 'nope') },
              { command: hookCommand('allow.sh') },
            ],
          },
        ],
      });
      const outcome = await engine.run(event, PAYLOADS[event] as never);
      expect(outcome.decision).toBe('allow');
      expect(outcome.results.map((result) => [result.decision, result.ignored])).toEqual([
        ['deny', true],
        ['allow', undefined],
      ]);
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_finished',
        'hook_decision_ignored',
        'hook_started',
        'hook_finished',
      ]);
      expect(recordsOf(sink.records, 'hook_decision_ignored')[0]).toMatchObject({
        event,
        reason: 'nope',
      });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'uses "denied by hook <id>" when a deny has no reason',
    async () => {
      const { engine, sink } = setup(tempDir(), {
        PreToolUse: [{ hooks: [{ command: hookCommand('deny.sh') }] }],
      });
      const outcome = await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      expect(outcome).toMatchObject({
        decision: 'deny',
        reason: 'denied by hook PreToolUse[0][0]',
      });
      expect(recordsOf(sink.records, 'hook_denied')[0]?.reason).toBe(
        'denied by hook PreToolUse[0][0]',
      );
    },
    PROCESS_TIMEOUT,
  );

  it(
    'keeps the deny and records a warning when stdout logs lines before a deny on its last line',
    async () => {
      const stdout = 'checking files...\n{"decision":"deny","reason":"secret found"}';
      const { engine, sink } = setup(tempDir(), {
        PreToolUse: [{ hooks: [{ command: hookCommand('print.sh', stdout) }] }],
      });
      const outcome = await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      expect(outcome).toMatchObject({ decision: 'deny', reason: 'secret found' });
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_log',
        'hook_finished',
        'hook_denied',
      ]);
      expect(recordsOf(sink.records, 'hook_log')[0]?.source).toBe('warning');
    },
    PROCESS_TIMEOUT,
  );

  it(
    'says to send logs to stderr in the warning and in protocol_error when a hook logs on stdout before its answer',
    async () => {
      const { engine, sink } = setup(tempDir(), {
        PreToolUse: [
          { hooks: [{ command: hookCommand('print.sh', 'checking...\n{"decision":"deny"}') }] },
        ],
        Stop: [
          { hooks: [{ command: hookCommand('print.sh', 'checking...\n{"decision":"allow"}') }] },
        ],
      });
      await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      expect(recordsOf(sink.records, 'hook_log')[0]?.message).toContain(
        'send logs to stderr (`>&2`)',
      );
      await engine.run('Stop', PAYLOADS.Stop);
      const failed = recordsOf(sink.records, 'hook_failed')[0];
      expect(failed?.failure).toBe('protocol_error');
      expect(failed?.message).toContain('send logs to stderr (`>&2`)');
    },
    PROCESS_TIMEOUT,
  );

  it(
    "keeps a hookSpecificOutput deny and names Claude Code's format and the protocol key when a soong hook answers with it",
    async () => {
      const answer = JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'no rm',
        },
      });
      const { engine, sink } = setup(tempDir(), {
        PreToolUse: [{ hooks: [{ command: hookCommand('print.sh', answer) }] }],
      });
      const outcome = await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      // An intended deny is never lost (spec §2.2): it stands, with a warning saying how to fix.
      expect(outcome).toMatchObject({ decision: 'deny', reason: 'no rm' });
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_log',
        'hook_finished',
        'hook_denied',
      ]);
      const warning = recordsOf(sink.records, 'hook_log')[0];
      expect(warning?.source).toBe('warning');
      expect(warning?.message).toContain("Claude Code's hook output");
      expect(warning?.message).toContain('"protocol": "claude-code"');
    },
    PROCESS_TIMEOUT,
  );

  it(
    'records hook_failed then hook_denied when a hook exits non-zero with a valid deny',
    async () => {
      const { engine, sink } = setup(tempDir(), {
        PreToolUse: [{ hooks: [{ command: hookCommand('exit2-deny.sh', '--json') }] }],
      });
      const outcome = await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      expect(outcome).toMatchObject({ decision: 'deny', reason: 'json deny' });
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_log',
        'hook_failed',
        'hook_denied',
      ]);
      expect(recordsOf(sink.records, 'hook_failed')[0]).toMatchObject({
        failure: 'exit_code',
        exit_code: 2,
        on_failure: 'ignore',
      });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'explains the Claude Code exit-2 habit in the failure message when a hook exits 2',
    async () => {
      const { engine, sink } = setup(tempDir(), {
        PreToolUse: [{ hooks: [{ command: hookCommand('exit2-deny.sh') }] }],
      });
      const outcome = await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      expect(outcome.decision).toBe('none');
      const failed = recordsOf(sink.records, 'hook_failed')[0];
      expect(failed?.failure).toBe('exit_code');
      expect(failed?.message).toContain('Claude Code treats exit 2 as a block');
      expect(failed?.message).toContain('"protocol": "claude-code"');
      expect(failed?.message).toContain('{"decision":"deny","reason":"..."}');
      // What to print comes first; Claude Code only after (what a newcomer needs first).
      expect(failed?.message.indexOf('{"decision":"deny"')).toBeLessThan(
        failed?.message.indexOf('Claude Code') ?? 0,
      );
      expect(recordsOf(sink.records, 'hook_log')[0]).toMatchObject({
        source: 'stderr',
        message: 'blocked the Claude way\n',
      });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'records the real end of stderr and returns both stream tails when a hook floods stderr',
    async () => {
      const { engine, sink } = setup(tempDir(), {
        PreToolUse: [{ hooks: [{ command: hookCommand('stderr-flood.sh') }] }],
      });
      const outcome = await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      const lastLine = 'the real last line of stderr\n';
      const total = 3_000_000 + lastLine.length;
      const [log] = recordsOf(sink.records, 'hook_log');
      expect(log?.source).toBe('stderr');
      expect(log?.message).toBe(
        `[... ${total - 8192} bytes of stderr not kept ...]\n${'e'.repeat(8192 - lastLine.length)}${lastLine}`,
      );
      expect(outcome.results[0]).toMatchObject({
        status: 'finished',
        decision: 'allow',
        stdout: '{"decision":"allow"}\n',
        stdoutBytes: 21,
        stderrBytes: total,
      });
      expect(outcome.results[0]?.stderr).toBe(`${'e'.repeat(8192 - lastLine.length)}${lastLine}`);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'returns the exit code, signal, failure and output tails of a failed hook',
    async () => {
      const { engine } = setup(tempDir(), {
        PreToolUse: [{ hooks: [{ command: hookCommand('exit2-deny.sh') }] }],
      });
      const outcome = await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      const [result] = outcome.results;
      expect(result).toMatchObject({
        status: 'failed',
        failure: 'exit_code',
        exitCode: 2,
        signal: null,
        stderr: 'blocked the Claude way\n',
        stderrBytes: 23,
      });
      expect(Math.round((result?.durationMs ?? 0) * 10) / 10).toBe(result?.durationMs);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'returns empty output tails when the hook never started',
    async () => {
      const { engine } = setup(tempDir(), {
        PreToolUse: [{ hooks: [{ command: hookCommand('allow.sh'), working_dir: 'missing' }] }],
      });
      const outcome = await engine.run('PreToolUse', PAYLOADS.PreToolUse);
      expect(outcome.results[0]).toMatchObject({
        status: 'failed',
        failure: 'cwd_invalid',
        exitCode: null,
        signal: null,
        stdout: '',
        stderr: '',
        stdoutBytes: 0,
        stderrBytes: 0,
      });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'records logs lines and metadata and warns once about unknown keys when the output carries them',
    async () => {
      const stdout = JSON.stringify({
        decision: 'allow',
        metadata: { n: 1 },
        logs: ['a', 'b'],
        extra: true,
      });
      const { engine, sink } = setup(tempDir(), {
        PostToolUse: [{ hooks: [{ command: hookCommand('print.sh', stdout) }] }],
      });
      await engine.run('PostToolUse', PAYLOADS.PostToolUse);
      await engine.run('PostToolUse', PAYLOADS.PostToolUse);
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_log',
        'hook_log',
        'hook_log',
        'hook_finished',
        'hook_started',
        'hook_log',
        'hook_log',
        'hook_finished',
      ]);
      expect(recordsOf(sink.records, 'hook_log').map((r) => r.source)).toEqual([
        'logs',
        'logs',
        'warning',
        'logs',
        'logs',
      ]);
      expect(recordsOf(sink.records, 'hook_finished')[0]).toMatchObject({
        decision: 'allow',
        metadata: { n: 1 },
      });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'keeps hook stdin small and stores the full input when the tool input is huge',
    async () => {
      const root = tempDir();
      const out = path.join(root, 'stdin.json');
      const { engine } = setup(root, {
        PreToolUse: [{ hooks: [{ command: hookCommand('record.sh', out) }] }],
      });
      const content = `${'a'.repeat(5_000_000)}${'é'.repeat(2_500_000)}`;
      await engine.run('PreToolUse', { tool: toolInfo({ input: { path: 'big.txt', content } }) });
      const stdin = fs.readFileSync(out, 'utf8');
      expect(Buffer.byteLength(stdin)).toBeLessThan(20_000);
      const input = HookInputSchema.parse(JSON.parse(stdin));
      if (input.event !== 'PreToolUse') throw new Error('expected a PreToolUse input');
      expect(input.tool.input_truncated).toBe(true);
      expect(input.tool.input.path).toBe('big.txt');
      const ref = input.tool.input_artifact_ref;
      expect(JSON.parse(fs.readFileSync(ref?.path ?? '', 'utf8'))).toEqual({
        path: 'big.txt',
        content,
      });
    },
    PROCESS_TIMEOUT,
  );
});
