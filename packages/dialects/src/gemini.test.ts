import { describe, expect, it } from 'vitest';
import { hasEvent } from './convert/conversion.js';
import { geminiDialect } from './gemini.js';
import { getDialect } from './registry.js';
import { itKeepsDeniesAndBoundsDepth, jqPretty, LOG_LINE } from './test-helpers/answers.js';
import { context, json, ourInput, run, toolInput } from './test-helpers/inputs.js';

const encode = (
  event: Parameters<typeof geminiDialect.encodeInput>[0],
  input: Record<string, unknown>,
) => geminiDialect.encodeInput(event, input, context) as Record<string, unknown>;

describe('gemini dialect: input (packages/core/src/hooks/types.ts, hookEventHandler.ts)', () => {
  it("is registered; BeforeTool carries the base fields, tool_name and tool_input in Gemini's names", () => {
    expect(getDialect('gemini')).toBe(geminiDialect);
    const input = encode('PreToolUse', ourInput('PreToolUse'));
    expect(Object.keys(input).sort()).toEqual([
      'cwd',
      'hook_event_name',
      'session_id',
      'timestamp',
      'tool_input',
      'tool_name',
      'transcript_path',
    ]);
    expect(input).toMatchObject({
      hook_event_name: 'BeforeTool',
      timestamp: '2026-12-03T05:30:00.000Z',
      tool_name: 'run_shell_command',
      tool_input: { command: 'rm -rf /' },
    });
  });

  it('file tools: read_file/write_file/replace with absolute file_path, grep_search and list_directory with dir_path, MCP as mcp_server_tool', () => {
    expect(
      encode(
        'PreToolUse',
        toolInput('edit_file', { path: 'a.ts', old_string: 'x', new_string: 'y' }),
      ),
    ).toMatchObject({
      tool_name: 'replace',
      tool_input: { file_path: '/work/project/a.ts', old_string: 'x', new_string: 'y' },
    });
    expect(encode('PreToolUse', toolInput('grep', { pattern: 'TODO' }))).toMatchObject({
      tool_name: 'grep_search',
      tool_input: { pattern: 'TODO', dir_path: '/work/project' },
    });
    expect(encode('PreToolUse', toolInput('list_dir', { path: 'src' }))).toMatchObject({
      tool_name: 'list_directory',
      tool_input: { dir_path: '/work/project/src' },
    });
    expect(
      encode('PreToolUse', toolInput('mcp__github__create_issue', { title: 't' })),
    ).toMatchObject({
      tool_name: 'mcp_github_create_issue',
      tool_input: { title: 't' },
    });
  });

  it('AfterTool tool_response {llmContent, returnDisplay}; BeforeAgent prompt; AfterAgent prompt_response and stop_hook_active; SessionStart source', () => {
    expect(encode('PostToolUse', ourInput('PostToolUse'))).toMatchObject({
      hook_event_name: 'AfterTool',
      tool_response: { llmContent: 'a\nb\nc\n', returnDisplay: 'a\nb\nc\n' },
    });
    expect(encode('UserPromptSubmit', ourInput('UserPromptSubmit'))).toMatchObject({
      hook_event_name: 'BeforeAgent',
      prompt: 'fix the bug',
    });
    expect(encode('Stop', ourInput('Stop', { prevented_count: 2 }))).toMatchObject({
      hook_event_name: 'AfterAgent',
      prompt_response: 'done',
      stop_hook_active: true,
    });
    expect(encode('SessionStart', ourInput('SessionStart'))).toMatchObject({
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
  });

  it('env: GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_SESSION_ID and CLAUDE_PROJECT_DIR', () => {
    expect(geminiDialect.env(context)).toEqual({
      GEMINI_PROJECT_DIR: '/work/project',
      GEMINI_CWD: '/work/project',
      GEMINI_SESSION_ID: context.sessionId,
      CLAUDE_PROJECT_DIR: '/work/project',
    });
  });
});

describe('gemini dialect: answers (hookRunner.ts convertPlainTextToHookOutput, types.ts isBlockingDecision)', () => {
  const decide = geminiDialect.decide;
  it('JSON decision deny | block | allow | approve | ask, on any exit code', () => {
    expect(decide('PreToolUse', run(0, json({ decision: 'deny', reason: 'no' })))).toMatchObject({
      decision: 'deny',
      reason: 'no',
    });
    expect(decide('PreToolUse', run(0, json({ decision: 'block', reason: 'no' })))).toMatchObject({
      decision: 'deny',
    });
    expect(decide('PreToolUse', run(0, json({ decision: 'allow' })))).toMatchObject({
      decision: 'allow',
    });
    expect(decide('PreToolUse', run(0, json({ decision: 'approve' })))).toMatchObject({
      decision: 'allow',
    });
    expect(decide('PreToolUse', run(0, json({ decision: 'ask', reason: 'sure?' })))).toMatchObject({
      decision: 'ask',
    });
    expect(
      decide('Stop', run(0, json({ decision: 'deny', reason: 'retry: tests fail' }))),
    ).toMatchObject({ decision: 'deny', reason: 'retry: tests fail' });
    expect(decide('PreToolUse', run(1, json({ decision: 'DENY' })))).toMatchObject({
      decision: 'deny',
    });
    expect(decide('PreToolUse', run(0, json(json({ decision: 'deny' }))))).toMatchObject({
      decision: 'deny',
    }); // double-encoded
  });

  it('plain text: exit 0 no decision, exit 1 a failure, exit 2 and more a deny with the text (stderr when stdout is empty)', () => {
    expect(decide('PreToolUse', run(0, 'looks fine'))).toMatchObject({
      decision: 'none',
      logs: [{ source: 'logs', message: 'looks fine' }],
    });
    expect(decide('PreToolUse', run(1, '', 'warning: x'))).toMatchObject({
      decision: 'none',
      failure: { kind: 'exit_code' },
    });
    expect(decide('PreToolUse', run(2, '', 'blocked by policy'))).toMatchObject({
      decision: 'deny',
      reason: 'blocked by policy',
      exitCode: 2,
    });
    expect(decide('PreToolUse', run(3, 'nope'))).toMatchObject({
      decision: 'deny',
      reason: 'nope',
    });
    expect(decide('PreToolUse', run(2))).toMatchObject({ decision: 'deny' });
  });

  it('continue: false denies a tool call (Gemini would end the loop), ends a stop; rewrite keys are one warning', () => {
    expect(
      decide('PreToolUse', run(0, json({ continue: false, stopReason: 'halt' }))),
    ).toMatchObject({ decision: 'deny', reason: 'halt' });
    expect(decide('Stop', run(0, json({ continue: false })))).toMatchObject({ decision: 'none' });
    const verdict = decide(
      'PreToolUse',
      run(
        0,
        json({
          decision: 'allow',
          hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'ls' } },
          systemMessage: 'x',
        }),
      ),
    );
    expect(verdict.decision).toBe('allow');
    expect(verdict.logs.filter((log) => log.source === 'warning')).toHaveLength(1);
  });
});

describe('gemini dialect: converter', () => {
  const convert = (value: unknown) =>
    geminiDialect.convertConfig?.(JSON.stringify(value)) as NonNullable<
      ReturnType<NonNullable<typeof geminiDialect.convertConfig>>
    >;
  it('milliseconds become seconds, the unanchored regex becomes the exact set, hook names are kept', () => {
    const result = convert({
      hooksConfig: { enabled: true },
      hooks: {
        BeforeTool: [
          {
            matcher: 'write_file|replace',
            sequential: true,
            hooks: [
              {
                type: 'command',
                command: '$GEMINI_PROJECT_DIR/.gemini/hooks/protect.sh',
                name: 'protect',
                timeout: 5000,
              },
            ],
          },
          {
            matcher: 'run_shell_command',
            hooks: [{ type: 'command', command: 'python3 "$CLAUDE_PROJECT_DIR/.gemini/guard.py"' }],
          },
          // a real-world trap: two names that are not Gemini tools
          {
            matcher: 'write_file|replace_file_content|multi_replace_file_content',
            hooks: [{ type: 'command', command: 'x.sh' }],
          },
        ],
        AfterAgent: [{ hooks: [{ type: 'command', command: 'npm test', timeout: 120000 }] }],
        BeforeModel: [{ hooks: [{ type: 'command', command: 'y.sh' }] }],
      },
    });
    const pre = result.hooks.hooks.PreToolUse as {
      matcher: unknown;
      hooks: Record<string, unknown>[];
    }[];
    expect(pre.map((rule) => rule.matcher)).toEqual([
      { tool: ['write_file', 'edit_file'] },
      { tool: ['bash'] },
      { tool: ['write_file'] },
    ]);
    expect(pre[0]?.hooks[0]).toEqual({
      type: 'command',
      command: '$GEMINI_PROJECT_DIR/.gemini/hooks/protect.sh',
      protocol: 'gemini',
      name: 'protect',
      timeout: 5,
    });
    expect(pre[1]?.hooks[0]).toMatchObject({ name: 'guard', timeout: 60 });
    expect(
      (result.hooks.hooks.Stop as { hooks: Record<string, unknown>[] }[])[0]?.hooks[0]?.timeout,
    ).toBe(120);
    expect(result.notes).toContainEqual(
      expect.stringContaining('5000 ms (Gemini CLI counts milliseconds) written as 5 s'),
    );
    expect(result.notes).toContainEqual(
      expect.stringContaining('"replace_file_content", "multi_replace_file_content" dropped'),
    );
    expect(result.refused).toEqual([
      { path: 'hooks.BeforeModel', reason: expect.stringContaining('no BeforeModel event') },
    ]);
  });

  it('SessionEnd and Notification convert when the protocol has them', () => {
    const result = convert({
      hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'end.sh' }] }] },
    });
    expect(Object.keys(result.hooks.hooks)).toEqual(hasEvent('SessionEnd') ? ['SessionEnd'] : []);
  });
});

describe('gemini dialect: SessionEnd and Notification (types.ts SessionEndInput, NotificationInput)', () => {
  it("maps our end reasons onto Gemini's and a permission prompt onto ToolPermission", () => {
    expect([hasEvent('SessionEnd'), hasEvent('Notification')]).toEqual([true, true]);
    const end = encode('SessionEnd' as never, { ...ourInput('SessionStart'), reason: 'completed' });
    expect(end).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'exit' });
    expect(
      encode('SessionEnd' as never, { ...ourInput('SessionStart'), reason: 'error' }),
    ).toMatchObject({ reason: 'other' });
    expect(
      encode('Notification' as never, {
        ...ourInput('SessionStart'),
        kind: 'permission_prompt',
        message: 'allow bash?',
      }),
    ).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'ToolPermission',
      message: 'allow bash?',
      details: {},
    });
  });
});

describe("gemini dialect: every event's stdin has the fields of its *Input interface (types.ts)", () => {
  const base = ['cwd', 'hook_event_name', 'session_id', 'timestamp', 'transcript_path'];
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['PreToolUse', ourInput('PreToolUse'), [...base, 'tool_name', 'tool_input']],
    ['PostToolUse', ourInput('PostToolUse'), [...base, 'tool_name', 'tool_input', 'tool_response']],
    ['UserPromptSubmit', ourInput('UserPromptSubmit'), [...base, 'prompt']],
    ['Stop', ourInput('Stop'), [...base, 'prompt', 'prompt_response', 'stop_hook_active']],
    ['SessionStart', ourInput('SessionStart'), [...base, 'source']],
    ['SessionEnd', { ...ourInput('SessionStart'), reason: 'completed' }, [...base, 'reason']],
    [
      'Notification',
      { ...ourInput('SessionStart'), kind: 'idle', message: 'waiting' },
      [...base, 'details', 'message', 'notification_type'],
    ],
  ];
  it.each(cases)('%s', (event, input, keys) => {
    expect(Object.keys(encode(event as never, input)).sort()).toEqual([...keys].sort());
  });
});

describe("gemini dialect: an extension's hooks (packages/cli/src/commands/extensions/examples/hooks)", () => {
  const extensionPath = ['$', '{extensionPath}'].join('');
  const example = JSON.stringify({
    hooks: {
      SessionStart: [
        { hooks: [{ type: 'command', command: `node ${extensionPath}/scripts/on-start.js` }] },
      ],
    },
  });
  it('fills in the extension path with the extension folder, and refuses it outside an extension', () => {
    const converted = geminiDialect.convertConfig?.(example, {
      plugin: { root: '/ext/hooks-example' },
    });
    const rules = (converted?.hooks.hooks.SessionStart ?? []) as { hooks: { command: string }[] }[];
    expect(rules[0]?.hooks[0]?.command).toBe('node /ext/hooks-example/scripts/on-start.js');
    const outside = geminiDialect.convertConfig?.(example);
    expect(outside?.refused).toEqual([
      {
        path: 'hooks.SessionStart[0].hooks[0].command',
        reason: expect.stringContaining('--plugin-root'),
      },
    ]);
  });
});

describe('geminiDialect', () => {
  const decide = geminiDialect.decide;
  itKeepsDeniesAndBoundsDepth({
    decide,
    run,
    deny: { decision: 'deny', reason: 'no rm' },
    reason: 'no rm',
  });

  it('keeps a block and a continue: false when a log line comes before them', () => {
    expect(
      decide('PreToolUse', run(0, `${LOG_LINE}\n${json({ decision: 'block', reason: 'no' })}`)),
    ).toMatchObject({ decision: 'deny', reason: 'no' });
    expect(
      decide(
        'PreToolUse',
        run(0, `${LOG_LINE}\n${jqPretty({ continue: false, stopReason: 'halt' })}`),
      ),
    ).toMatchObject({ decision: 'deny', reason: 'halt' });
  });

  it('keeps a deny that ends stderr when stdout is empty, without logging stderr again', () => {
    const verdict = decide(
      'PreToolUse',
      run(0, '', `${LOG_LINE}\n${jqPretty({ decision: 'deny', reason: 'no' })}`),
    );
    expect(verdict).toMatchObject({ decision: 'deny', reason: 'no' });
    expect(verdict.logs.map((log) => log.source)).toEqual(['warning']);
  });

  it('reads an allow after a log line as plain text, as Gemini does', () => {
    const stdout = `${LOG_LINE}\n${json({ decision: 'allow' })}\n`;
    expect(decide('PreToolUse', run(0, stdout))).toEqual({
      decision: 'none',
      exitCode: 0,
      logs: [{ source: 'logs', message: stdout.trim() }],
    });
  });
});

describe('gemini dialect: the rules measured against Gemini CLI 0.61.0 (spec §13.2)', () => {
  const convert = (value: unknown) =>
    geminiDialect.convertConfig?.(JSON.stringify(value)) as NonNullable<
      ReturnType<NonNullable<typeof geminiDialect.convertConfig>>
    >;
  const start = (matcher: string) => ({
    hooks: {
      SessionStart: [{ matcher, hooks: [{ type: 'command', command: '/opt/start.sh' }] }],
    },
  });

  it('refuses a SessionStart matcher list, which Gemini compares with the source as one exact string', () => {
    const result = convert(start('startup|resume|clear'));
    expect(result.hooks.hooks).toEqual({});
    expect(result.refused).toEqual([
      {
        path: 'hooks.SessionStart[0].matcher',
        reason: expect.stringContaining('never fires in Gemini CLI'),
      },
    ]);
    expect(result.refused[0]?.reason).toContain('write "startup"');
    expect(convert(start('startup')).hooks.hooks.SessionStart).toHaveLength(1);
    expect(convert(start('*')).hooks.hooks.SessionStart).toHaveLength(1);
    expect(convert(start('resume')).refused[0]?.reason).toContain('never matches here');
  });

  it("sends AfterAgent the turn's user prompt", () => {
    expect(encode('Stop', { ...ourInput('Stop'), prompt: 'fix the bug' })).toMatchObject({
      hook_event_name: 'AfterAgent',
      prompt: 'fix the bug',
      prompt_response: 'done',
    });
  });

  it('imports PreCompress as PreCompact and sends it the trigger', () => {
    const result = convert({
      hooks: { PreCompress: [{ hooks: [{ type: 'command', command: '/opt/pc.sh' }] }] },
    });
    expect(result.refused).toEqual([]);
    expect(result.hooks.hooks.PreCompact).toMatchObject([
      { hooks: [{ command: '/opt/pc.sh', protocol: 'gemini' }] },
    ]);
    expect(
      encode('PreCompact', {
        ...ourInput('SessionStart'),
        trigger: 'manual',
        custom_instructions: '',
      }),
    ).toMatchObject({ hook_event_name: 'PreCompress', trigger: 'manual' });
  });
});
