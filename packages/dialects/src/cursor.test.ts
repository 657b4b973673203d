import { describe, expect, it } from 'vitest';
import { cursorDialect } from './cursor.js';
import { getDialect } from './registry.js';
import { itKeepsDeniesAndBoundsDepth, jqPretty, LOG_LINE } from './test-helpers/answers.js';
import { context, json, ourInput, run, toolInput } from './test-helpers/inputs.js';

const encode = (
  event: Parameters<typeof cursorDialect.encodeInput>[0],
  input: Record<string, unknown>,
  dialectEvent?: string,
) =>
  cursorDialect.encodeInput(event, input, {
    ...context,
    ...(dialectEvent === undefined ? {} : { dialectEvent }),
  }) as Record<string, unknown>;

const COMMON = [
  'conversation_id',
  'cursor_version',
  'generation_id',
  'hook_event_name',
  'model',
  'transcript_path',
  'user_email',
  'workspace_roots',
];

describe('cursor dialect: input (cursor.com/docs/hooks)', () => {
  it('is registered; preToolUse: the common fields plus tool_name, tool_input, tool_use_id, cwd', () => {
    expect(getDialect('cursor')).toBe(cursorDialect);
    const input = encode('PreToolUse', ourInput('PreToolUse'));
    expect(Object.keys(input).sort()).toEqual(
      [...COMMON, 'cwd', 'tool_input', 'tool_name', 'tool_use_id'].sort(),
    );
    expect(input).toMatchObject({
      hook_event_name: 'preToolUse',
      workspace_roots: ['/work/project'],
      tool_name: 'Shell',
      tool_input: { command: 'rm -rf /', cwd: '/work/project' },
    });
  });

  it("a hook written for beforeShellExecution, beforeReadFile or afterFileEdit gets that event's payload", () => {
    expect(encode('PreToolUse', ourInput('PreToolUse'), 'beforeShellExecution')).toMatchObject({
      hook_event_name: 'beforeShellExecution',
      command: 'rm -rf /',
      cwd: '/work/project',
    });
    expect(
      encode('PreToolUse', toolInput('read_file', { path: '.env' }), 'beforeReadFile'),
    ).toMatchObject({
      hook_event_name: 'beforeReadFile',
      file_path: '/work/project/.env',
    });
    expect(
      encode(
        'PostToolUse',
        toolInput('edit_file', { path: 'a.ts', old_string: 'x', new_string: 'y' }, 'PostToolUse'),
        'afterFileEdit',
      ),
    ).toMatchObject({
      hook_event_name: 'afterFileEdit',
      file_path: '/work/project/a.ts',
      edits: [{ old_string: 'x', new_string: 'y' }],
    });
    const mcp = encode(
      'PreToolUse',
      toolInput('mcp__db__query', { sql: 'select 1' }),
      'beforeMCPExecution',
    );
    expect(mcp).toMatchObject({ tool_name: 'query', tool_input: '{"sql":"select 1"}' });
    expect(typeof mcp.tool_input).toBe('string');
  });

  it('a dialect_event of another of our events is ignored; stop has status and loop_count; beforeSubmitPrompt has prompt', () => {
    expect(encode('PreToolUse', ourInput('PreToolUse'), 'stop').hook_event_name).toBe('preToolUse');
    expect(encode('Stop', ourInput('Stop', { prevented_count: 2 }))).toMatchObject({
      hook_event_name: 'stop',
      status: 'completed',
      loop_count: 2,
    });
    expect(encode('UserPromptSubmit', ourInput('UserPromptSubmit'))).toMatchObject({
      hook_event_name: 'beforeSubmitPrompt',
      prompt: 'fix the bug',
    });
    expect(encode('PostToolUse', ourInput('PostToolUse')).tool_output).toBe(
      '{"output":"a\\nb\\nc\\n","is_error":false}',
    );
  });

  it('env: CURSOR_PROJECT_DIR and CLAUDE_PROJECT_DIR', () => {
    expect(cursorDialect.env(context)).toMatchObject({
      CURSOR_PROJECT_DIR: '/work/project',
      CLAUDE_PROJECT_DIR: '/work/project',
    });
  });
});

describe('cursor dialect: answers', () => {
  const decide = cursorDialect.decide;
  it('permission deny | allow | ask, exit 2, other exits fail open', () => {
    expect(
      decide(
        'PreToolUse',
        run(0, json({ permission: 'deny', user_message: 'blocked', agent_message: 'do not' })),
      ),
    ).toMatchObject({ decision: 'deny', reason: 'do not' });
    expect(decide('PreToolUse', run(0, json({ permission: 'allow' })))).toMatchObject({
      decision: 'allow',
    });
    expect(decide('PreToolUse', run(0, json({ permission: 'ask' })))).toMatchObject({
      decision: 'ask',
    });
    expect(decide('PreToolUse', run(2, '', 'no'))).toMatchObject({
      decision: 'deny',
      reason: 'no',
      exitCode: 2,
    });
    expect(decide('PreToolUse', run(1))).toMatchObject({
      decision: 'none',
      failure: { kind: 'exit_code' },
    });
    expect(decide('PreToolUse', run(0, json({ permission: 'Deny' })))).toMatchObject({
      decision: 'deny',
    });
  });

  it('a log line before the JSON deny keeps the deny with a warning; a log line before an allow is only a log; unusable JSON is a protocol error', () => {
    const kept = decide('PreToolUse', run(0, `checking...\n${json({ permission: 'deny' })}\n`));
    expect(kept).toMatchObject({ decision: 'deny', exitCode: 0 });
    expect(kept.logs).toEqual([
      { source: 'logs', message: 'checking...' },
      {
        source: 'warning',
        message: 'stdout held more than the JSON answer; its last line denies, and the deny stands',
      },
    ]);
    const allowed = decide('PreToolUse', run(0, `checking...\n${json({ permission: 'allow' })}\n`));
    expect(allowed).toMatchObject({ decision: 'none', exitCode: 0 });
    expect(allowed.logs.map((log) => log.source)).toEqual(['logs']);
    expect(decide('PreToolUse', run(0, '{not json'))).toMatchObject({
      decision: 'none',
      failure: {
        kind: 'protocol_error',
        message: 'stdout starts like JSON but is not a JSON object',
      },
    });
  });

  it('stop continues only through followup_message; a deny there is a warning, as Cursor ignores it', () => {
    expect(decide('Stop', run(0, json({ followup_message: 'run the tests' })))).toMatchObject({
      decision: 'deny',
      reason: 'run the tests',
    });
    const ignored = decide('Stop', run(0, json({ permission: 'deny' })));
    expect(ignored.decision).toBe('none');
    expect(ignored.logs.map((log) => log.message).join()).toContain(
      'only a non-empty followup_message',
    );
    expect(decide('Stop', run(2, '', 'x')).decision).toBe('none');
  });

  it('beforeSubmitPrompt continue: false is a deny (recorded as ignored by the engine); updated_input is one warning', () => {
    expect(
      decide('UserPromptSubmit', run(0, json({ continue: false, user_message: 'no' }))),
    ).toMatchObject({ decision: 'deny' });
    const verdict = decide(
      'PreToolUse',
      run(0, json({ permission: 'allow', updated_input: { command: 'ls' } })),
    );
    expect(verdict.logs).toEqual([
      expect.objectContaining({
        source: 'warning',
        message: expect.stringContaining('"updated_input"'),
      }),
    ]);
  });
});

describe('cursor dialect: converter', () => {
  const convert = (value: unknown, options = {}) =>
    cursorDialect.convertConfig?.(JSON.stringify(value), options) as NonNullable<
      ReturnType<NonNullable<typeof cursorDialect.convertConfig>>
    >;

  it('a realistic .cursor/hooks.json', () => {
    const result = convert({
      version: 1,
      hooks: {
        beforeShellExecution: [
          { command: '.cursor/hooks/guard.sh', failClosed: true, timeout: 10 },
        ],
        preToolUse: [{ command: 'node .cursor/hooks/protect.mjs', matcher: 'Write|Read' }],
        beforeReadFile: [{ command: 'python3 .cursor/hooks/secrets.py' }],
        afterFileEdit: [{ command: 'npx prettier --write' }],
        stop: [{ command: '.cursor/hooks/gate.sh', loop_limit: 3 }],
        beforeMCPExecution: [{ command: 'mcp.sh' }],
        afterAgentThought: [{ command: 'think.sh' }],
      },
    });
    const pre = result.hooks.hooks.PreToolUse as {
      matcher: unknown;
      hooks: Record<string, unknown>[];
    }[];
    expect(pre).toEqual([
      {
        matcher: { tool: ['bash'] },
        hooks: [
          {
            type: 'command',
            command: '.cursor/hooks/guard.sh',
            protocol: 'cursor',
            name: 'guard',
            dialect_event: 'beforeShellExecution',
            timeout: 10,
            on_failure: 'deny',
          },
        ],
      },
      {
        matcher: { tool: ['write_file', 'edit_file', 'read_file'] },
        hooks: [
          {
            type: 'command',
            command: 'node .cursor/hooks/protect.mjs',
            protocol: 'cursor',
            name: 'protect',
          },
        ],
      },
      {
        matcher: { tool: ['read_file'] },
        hooks: [expect.objectContaining({ dialect_event: 'beforeReadFile' })],
      },
    ]);
    expect((result.hooks.hooks.PostToolUse as { matcher: unknown }[])[0]?.matcher).toEqual({
      tool: ['write_file', 'edit_file'],
    });
    expect(result.notes).toContainEqual(expect.stringContaining('stop_loop_limit'));
    expect(result.refused.map((refusal) => refusal.path)).toEqual([
      'hooks.beforeMCPExecution',
      'hooks.afterAgentThought',
    ]);
  });

  it('refuses a file that is no object, one without hooks, an event that is no array and an entry that is no object, and converts the rest', () => {
    expect(convert('hooks')).toMatchObject({
      refused: [{ path: '(root)', reason: "not a JSON object (Cursor's hooks.json is one)" }],
      notes: [],
    });
    expect(convert({ version: 2 })).toMatchObject({
      refused: [{ path: 'hooks', reason: 'absent: the file configures no hooks' }],
      notes: ['version: 2: this import knows version 1'],
    });
    expect(convert({ version: 1, hooks: 'stop.sh' }).refused).toEqual([
      { path: 'hooks', reason: 'not an object of events' },
    ]);
    const result = convert({
      version: 1,
      hooks: { stop: { command: 'a.sh' }, preToolUse: [7, { command: 'c.sh' }] },
    });
    expect(result.refused).toEqual([
      { path: 'hooks.stop', reason: 'not an array of hooks' },
      { path: 'hooks.preToolUse[0]', reason: 'not a hook object' },
    ]);
    expect(result.hooks.hooks.PreToolUse).toMatchObject([{ hooks: [{ command: 'c.sh' }] }]);
  });

  it("a command-text matcher on beforeShellExecution is refused; a user-level file's relative scripts become absolute", () => {
    const refused = convert({
      version: 1,
      hooks: { beforeShellExecution: [{ command: 'x.sh', matcher: 'curl|wget' }] },
    });
    expect(refused.refused[0]?.reason).toContain('matched against the command text');
    const user = convert(
      { version: 1, hooks: { stop: [{ command: './hooks/gate.sh --strict' }] } },
      { file: '/home/u/.cursor/hooks.json', scope: 'user' },
    );
    expect(
      (user.hooks.hooks.Stop as { hooks: { command: string }[] }[])[0]?.hooks[0]?.command,
    ).toBe('/home/u/.cursor/hooks/gate.sh --strict');
  });

  it("says once that a Claude Code settings file is not Cursor's format", () => {
    const result = convert({ hooks: { PreToolUse: [], PostToolUse: [] } });
    expect(result.refused).toEqual([
      { path: 'hooks', reason: expect.stringContaining("this is not Cursor's hooks.json") },
    ]);
  });
});

describe('cursor dialect: sessionEnd', () => {
  it('carries the session id and our end reason', () => {
    expect(
      encode('SessionEnd' as never, { ...ourInput('SessionStart'), reason: 'aborted' }),
    ).toMatchObject({
      hook_event_name: 'sessionEnd',
      session_id: context.sessionId,
      reason: 'aborted',
    });
  });
});

describe('cursorDialect', () => {
  const decide = cursorDialect.decide;
  itKeepsDeniesAndBoundsDepth({
    decide,
    run,
    deny: { permission: 'deny', agent_message: 'no rm' },
    reason: 'no rm',
  });

  it("keeps a decision block (not Cursor's word, a deny here) when a log line comes before it", () => {
    for (const answer of [json({ decision: 'block' }), jqPretty({ decision: 'block' })]) {
      const verdict = decide('PreToolUse', run(0, `${LOG_LINE}\n${answer}`));
      expect(verdict).toMatchObject({ decision: 'deny', exitCode: 0 });
      expect(verdict.logs[0]).toEqual({ source: 'logs', message: LOG_LINE });
    }
  });

  it('keeps a stop followup_message when a log line comes before it', () => {
    expect(
      decide('Stop', run(0, `${LOG_LINE}\n${jqPretty({ followup_message: 'run the tests' })}`)),
    ).toMatchObject({ decision: 'deny', reason: 'run the tests' });
  });

  it('rescues no pretty-printed allow when a log line comes before it', () => {
    const stdout = `${LOG_LINE}\n${jqPretty({ permission: 'allow' })}`;
    expect(decide('PreToolUse', run(0, stdout))).toEqual({
      decision: 'none',
      exitCode: 0,
      logs: [{ source: 'logs', message: stdout.trim() }],
    });
  });
});

describe('cursor dialect: converter, user-level paths', () => {
  it('writes a user-level relative script under ~/ (quoted after it when needed) given the home', () => {
    const convert = (file: string) =>
      (
        cursorDialect.convertConfig?.(
          JSON.stringify({
            version: 1,
            hooks: { stop: [{ command: './hooks/gate.sh --strict' }] },
          }),
          { file, scope: 'user', home: '/home/u' },
        )?.hooks.hooks.Stop as { hooks: { command: string }[] }[] | undefined
      )?.[0]?.hooks[0]?.command;
    expect(convert('/home/u/.cursor/hooks.json')).toBe('~/.cursor/hooks/gate.sh --strict');
    expect(convert('/home/u/my dir/.cursor/hooks.json')).toBe(
      "~/'my dir/.cursor/hooks/gate.sh' --strict",
    );
    expect(convert('/srv/cursor/hooks.json')).toBe('/srv/cursor/hooks/gate.sh --strict');
  });
});

describe('cursorDialect.failedToolEvent', () => {
  it('runs postToolUse hooks only for results that succeeded, as Cursor does', () => {
    expect(cursorDialect.failedToolEvent).toBe('PostToolUseFailure');
  });
});
