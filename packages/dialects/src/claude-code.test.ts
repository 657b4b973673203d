import type { HookEvent } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import {
  CLAUDE_CODE_TOOL_NAMES,
  claudeCodeDialect,
  claudeCodeToolName,
  toClaudeCodeToolInput,
} from './claude-code.js';
import type { DialectContext } from './dialect.js';
import {
  DEEP_ANSWER,
  itKeepsDeniesAndBoundsDepth,
  jqPretty,
  LOG_LINE,
} from './test-helpers/answers.js';
import { CONTEXT, run } from './test-helpers/run.js';
import { dialectToolAliases } from './tool-names.js';

const encode = (event: HookEvent, fields: Record<string, unknown>, context: DialectContext) =>
  claudeCodeDialect.encodeInput(event, fields, context) as Record<string, unknown>;

describe('toClaudeCodeInput', () => {
  const context = CONTEXT;
  const common = {
    session_id: 's1',
    transcript_path: '/h/t.jsonl',
    cwd: '/p',
    permission_mode: 'default',
  };
  const tool = (name: string, input: unknown) => ({
    name,
    call_id: 'call_7',
    input,
    risk: 'write' as const,
    tags: [],
    paths: [],
  });

  it('builds PreToolUse with Claude Code tool names, absolute paths and tool_use_id', () => {
    expect(
      encode(
        'PreToolUse',
        { tool: tool('edit_file', { path: 'src/a.ts', old_string: 'a', new_string: 'b' }) },
        context,
      ),
    ).toEqual({
      ...common,
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: {
        file_path: '/p/src/a.ts',
        old_string: 'a',
        new_string: 'b',
        replace_all: false,
      },
      tool_use_id: 'call_7',
    });
  });

  it('builds PostToolUse tool_response per tool, with the artifact path of a large result', () => {
    const post = (name: string, input: unknown, result: unknown) =>
      encode('PostToolUse', { tool: tool(name, input), result }, context).tool_response;
    expect(post('bash', { command: 'ls' }, { is_error: false, bytes: 2, content: 'a\n' })).toEqual({
      stdout: 'a\n',
      stderr: '',
      interrupted: false,
      isImage: false,
    });
    expect(
      post('write_file', { path: 'a', content: 'x' }, { is_error: false, bytes: 2, content: 'ok' }),
    ).toEqual({ filePath: '/p/a', content: 'x', success: true });
    expect(
      post('read_file', { path: '/abs' }, { is_error: true, bytes: 6, content: 'ENOENT' }),
    ).toEqual({ filePath: '/abs', content: 'ENOENT', success: false });
    expect(
      post(
        'run_tests',
        {},
        {
          is_error: false,
          bytes: 99999,
          summary: 'head…tail',
          artifact_ref: { id: 'x', path: '/h/art/x', bytes: 99999, sha256: 'ab' },
        },
      ),
    ).toEqual({ content: 'head…tail\n[full result (99999 bytes): /h/art/x]', is_error: false });
  });

  it('builds Stop, UserPromptSubmit and SessionStart', () => {
    expect(
      encode(
        'Stop',
        {
          stop_hook_active: true,
          prevented_count: 0,
          previous_reasons: [],
          last_assistant_message: 'done',
        },
        context,
      ),
    ).toEqual({
      ...common,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'done',
    });
    expect(
      encode('Stop', { prevented_count: 2, last_assistant_message: '' }, context),
    ).toMatchObject({ stop_hook_active: true });
    expect(encode('UserPromptSubmit', { prompt: 'hi' }, context)).toEqual({
      ...common,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'hi',
    });
    expect(encode('SessionStart', { source: 'startup' }, context)).toEqual({
      ...common,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
  });
});

describe('toClaudeCodeToolInput', () => {
  it('maps each built-in tool input per the spec §7 table and leaves other tools alone', () => {
    expect(toClaudeCodeToolInput('bash', { command: 'ls', timeout: 5 }, '/p')).toEqual({
      command: 'ls',
      timeout: 5000,
    });
    expect(toClaudeCodeToolInput('bash', { command: 'ls' }, '/p')).toEqual({ command: 'ls' });
    expect(toClaudeCodeToolInput('read_file', { path: 'a', offset: 1, limit: 2 }, '/p')).toEqual({
      file_path: '/p/a',
      offset: 1,
      limit: 2,
    });
    expect(toClaudeCodeToolInput('write_file', { path: 'a', content: 'x' }, '/p')).toEqual({
      file_path: '/p/a',
      content: 'x',
    });
    expect(toClaudeCodeToolInput('grep', { pattern: 'x' }, '/p')).toEqual({
      pattern: 'x',
      path: '/p',
    });
    expect(toClaudeCodeToolInput('list_dir', { path: 'src' }, '/p')).toEqual({ path: '/p/src' });
    expect(toClaudeCodeToolInput('run_tests', { filter: 'a' }, '/p')).toEqual({ filter: 'a' });
  });
});

describe('claudeCodeToolName', () => {
  it('names our built-in tools as Claude Code does and keeps other names', () => {
    expect(Object.keys(CLAUDE_CODE_TOOL_NAMES).map(claudeCodeToolName)).toEqual([
      'Bash',
      'Read',
      'Write',
      'Edit',
      'Grep',
      'LS',
    ]);
    expect(claudeCodeToolName('mcp__fs__read')).toBe('mcp__fs__read');
  });
});

describe('the host view of a tool (spec §11)', () => {
  const context = CONTEXT;
  const tool = (name: string, input: unknown) => ({
    name,
    call_id: 'c1',
    input,
    risk: 'dangerous' as const,
    tags: [],
    paths: [],
  });

  it('a declared Claude Code name gets that tool input conversion, from the mapped input', () => {
    const encoded = encode(
      'PreToolUse',
      { tool: tool('shell', { cmd: 'ls', secs: 2 }) },
      { ...context, tool: { name: 'Bash', input: { command: 'ls', timeout: 2 } } },
    );
    expect(encoded).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'ls', timeout: 2000 },
    });
  });

  it('without a view, an unknown tool keeps its name and input', () => {
    expect(encode('PreToolUse', { tool: tool('shell', { cmd: 'ls' }) }, context)).toMatchObject({
      tool_name: 'shell',
      tool_input: { cmd: 'ls' },
    });
  });

  it('sets CLAUDE_PROJECT_DIR and CLAUDE_CODE_SESSION_ID and maps names back, MultiEdit included', () => {
    expect(claudeCodeDialect.env(context)).toEqual({
      CLAUDE_PROJECT_DIR: '/p',
      CLAUDE_CODE_SESSION_ID: 's1',
    });
    expect(dialectToolAliases(claudeCodeDialect)).toMatchObject({
      Bash: 'bash',
      MultiEdit: 'edit_file',
    });
  });
});

describe('claudeCodeDialect.decide: an intended deny is never lost, however it is spelled', () => {
  const pre = (stdout: string) => claudeCodeDialect.decide('PreToolUse', run({ stdout }));

  it.each([
    ['soong\'s {"decision":"deny"}', '{"decision":"deny","reason":"r"}'],
    ['"Block"', '{"decision":"Block","reason":"r"}'],
    ['" block "', '{"decision":" block ","reason":"r"}'],
    [
      'permissionDecision "Deny"',
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"Deny","permissionDecisionReason":"r"}}',
    ],
    ['continue "false"', '{"continue":"false","stopReason":"r"}'],
  ])('%s denies with a warning', (_name, stdout) => {
    const verdict = pre(stdout);
    expect(verdict.decision).toBe('deny');
    expect(verdict.reason).toBe('r');
    expect(verdict.logs.some((log) => log.source === 'warning')).toBe(true);
  });

  it.each([
    ['"decision":"maybe"', '{"decision":"maybe"}'],
    ['"permissionDecision":"nope"', '{"permissionDecision":"nope"}'],
    ['"continue":"sometimes"', '{"continue":"sometimes"}'],
  ])('an unknown value (%s) is a warning, not a silent decision', (_name, stdout) => {
    const verdict = pre(stdout);
    expect(verdict.decision).toBe('none');
    expect(verdict.logs.filter((log) => log.source === 'warning')).toHaveLength(1);
  });

  it('exact values decide without warnings', () => {
    expect(pre('{"decision":"block","reason":"r"}')).toEqual({
      decision: 'deny',
      reason: 'r',
      exitCode: 0,
      logs: [],
    });
    expect(pre('{"decision":"approve"}')).toEqual({ decision: 'allow', exitCode: 0, logs: [] });
  });

  it('exit 2 blocks with stderr, another exit fails but keeps a deny rescued from stdout', () => {
    expect(claudeCodeDialect.decide('Stop', run({ exitCode: 2, stderrTail: 'no\n' }))).toEqual({
      decision: 'deny',
      reason: 'no',
      exitCode: 2,
      logs: [],
    });
    expect(
      claudeCodeDialect.decide(
        'PreToolUse',
        run({ exitCode: 1, stdout: 'checking\n{"decision":"block","reason":"no"}' }),
      ),
    ).toMatchObject({
      decision: 'deny',
      reason: 'no',
      failure: { kind: 'exit_code', message: 'hook exited with code 1' },
    });
  });

  it('lets a JSON object on stdout decide with an exit code other than 2, as Claude Code does (spec §13.2)', () => {
    const deny = claudeCodeDialect.decide(
      'PreToolUse',
      run({
        exitCode: 1,
        stdout: JSON.stringify({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: 'no rm',
          },
        }),
      }),
    );
    expect(deny).toMatchObject({ decision: 'deny', reason: 'no rm', exitCode: 1 });
    expect(deny.failure).toBeUndefined();
    expect(deny.logs.map((log) => log.message)).toEqual([
      'exit code 1 ignored: stdout is one JSON object, which decides (as in Claude Code)',
    ]);
    const allow = claudeCodeDialect.decide(
      'PreToolUse',
      run({ exitCode: 3, stdout: '{"decision":"approve"}' }),
    );
    expect(allow).toMatchObject({ decision: 'allow', exitCode: 3 });
    expect(allow.failure).toBeUndefined();
    // Plain text, or a killed hook, still fails (on_failure applies).
    expect(
      claudeCodeDialect.decide('PreToolUse', run({ exitCode: 1, stdout: 'oops' })).failure,
    ).toMatchObject({ kind: 'exit_code' });
    expect(
      claudeCodeDialect.decide(
        'PreToolUse',
        run({ exitCode: null, signal: 'SIGKILL', stdout: '{"decision":"approve"}' }),
      ),
    ).toMatchObject({ decision: 'none', failure: { kind: 'exit_code' } });
  });

  it('reports unknown top-level keys as a warning, never as a failure (spec §13.2)', () => {
    const verdict = claudeCodeDialect.decide(
      'PreToolUse',
      run({ stdout: '{"result":"ok","hook":"x","decision":"block","reason":"stop"}' }),
    );
    expect(verdict).toMatchObject({ decision: 'deny', reason: 'stop', exitCode: 0 });
    expect(verdict.failure).toBeUndefined();
    expect(verdict.logs).toEqual([
      expect.objectContaining({
        source: 'warning',
        message: expect.stringContaining('"result", "hook"'),
      }),
    ]);
  });
});

describe('claudeCodeDialect.encodeInput of the events of spec §13.2', () => {
  const bash = {
    name: 'bash',
    call_id: 'c1',
    input: { command: 'npm test' },
    risk: 'dangerous',
    tags: ['dangerous'],
    paths: [],
  };

  it('sends PostToolUse duration_ms and PostToolUseFailure error, is_interrupt and duration_ms', () => {
    expect(
      encode(
        'PostToolUse',
        { tool: bash, result: { is_error: false, bytes: 2, content: 'ok' }, duration_ms: 41 },
        CONTEXT,
      ),
    ).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Bash', duration_ms: 41 });
    const failure = encode(
      'PostToolUseFailure',
      {
        tool: bash,
        result: { is_error: true, bytes: 6, content: 'failed' },
        duration_ms: 12,
        error: 'failed',
      },
      CONTEXT,
    );
    expect(failure).toEqual({
      session_id: 's1',
      transcript_path: '/h/t.jsonl',
      cwd: '/p',
      hook_event_name: 'PostToolUseFailure',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      tool_use_id: 'c1',
      error: 'failed',
      is_interrupt: false,
      duration_ms: 12,
    });
  });

  it('sends PreCompact trigger and custom_instructions, SubagentStart and SubagentStop fields', () => {
    expect(
      encode('PreCompact', { trigger: 'manual', custom_instructions: 'keep tests' }, CONTEXT),
    ).toMatchObject({
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: 'keep tests',
    });
    expect(
      encode('SubagentStart', { agent_id: 'a1', agent_type: 'Explore' }, CONTEXT),
    ).toMatchObject({ hook_event_name: 'SubagentStart', agent_id: 'a1', agent_type: 'Explore' });
    expect(
      encode(
        'SubagentStop',
        {
          agent_id: 'a1',
          agent_type: 'Explore',
          stop_hook_active: true,
          last_assistant_message: 'done',
          agent_transcript_path: '/h/a1.jsonl',
        },
        CONTEXT,
      ),
    ).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_id: 'a1',
      agent_type: 'Explore',
      stop_hook_active: true,
      last_assistant_message: 'done',
      agent_transcript_path: '/h/a1.jsonl',
    });
  });

  it('runs its PostToolUse hooks only for results that succeeded', () => {
    expect(claudeCodeDialect.failedToolEvent).toBe('PostToolUseFailure');
  });
});

describe('claudeCodeDialect.encodeInput of the observe-only events', () => {
  it('sends SessionEnd reason and Notification message and type', () => {
    expect(encode('SessionEnd', { reason: 'completed' }, CONTEXT)).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'completed',
    });
    expect(encode('Notification', { kind: 'idle', message: 'waiting' }, CONTEXT)).toMatchObject({
      message: 'waiting',
      notification_type: 'idle_prompt',
    });
  });
});

describe('claudeCodeDialect', () => {
  const decide = claudeCodeDialect.decide;
  const runOf = (exitCode: number, stdout: string) => run({ exitCode, stdout });
  itKeepsDeniesAndBoundsDepth({
    decide,
    run: runOf,
    deny: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no rm',
      },
    },
    reason: 'no rm',
  });

  it.each([
    ['decision block', { decision: 'block', reason: 'r' }],
    ['continue false', { continue: false, stopReason: 'r' }],
  ])('keeps a %s when a log line comes before it', (_name, answer) => {
    for (const printed of [JSON.stringify(answer), jqPretty(answer)]) {
      expect(decide('PreToolUse', runOf(0, `${LOG_LINE}\n${printed}`))).toMatchObject({
        decision: 'deny',
        reason: 'r',
      });
    }
  });

  it('reads an allow after a log line as plain text, as Claude Code does', () => {
    const allow = {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
    };
    for (const stdout of [
      `${LOG_LINE}\n${JSON.stringify(allow)}\n`,
      `${LOG_LINE}\n${jqPretty(allow)}`,
    ]) {
      expect(decide('PreToolUse', runOf(0, stdout))).toEqual({
        decision: 'none',
        exitCode: 0,
        logs: [{ source: 'logs', message: stdout.trim() }],
      });
    }
  });

  it('denies with stderr when an answer 20,000 deep comes with exit 2', () => {
    const verdict = decide(
      'PreToolUse',
      run({ exitCode: 2, stdout: DEEP_ANSWER, stderrTail: 'no' }),
    );
    expect(verdict).toMatchObject({ decision: 'deny', reason: 'no', exitCode: 2 });
  });
});
