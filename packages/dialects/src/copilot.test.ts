import { describe, expect, it } from 'vitest';
import { copilotDialect } from './copilot.js';
import { getDialect } from './registry.js';
import {
  DEEP_ANSWER,
  itKeepsDeniesAndBoundsDepth,
  jqPretty,
  LOG_LINE,
} from './test-helpers/answers.js';
import { context, json, ourInput, run, toolInput } from './test-helpers/inputs.js';

const encode = (
  event: Parameters<typeof copilotDialect.encodeInput>[0],
  input: Record<string, unknown>,
) => copilotDialect.encodeInput(event, input, context) as Record<string, unknown>;

describe('copilot dialect: input (github/docs hooks-reference)', () => {
  it('is registered; preToolUse {sessionId, timestamp (ms), cwd, toolName, toolArgs as a JSON object}', () => {
    expect(getDialect('copilot')).toBe(copilotDialect);
    const input = encode('PreToolUse', ourInput('PreToolUse'));
    expect(input).toEqual({
      sessionId: context.sessionId,
      timestamp: Date.parse('2026-12-03T05:30:00.000Z'),
      cwd: '/work/project',
      toolName: 'bash',
      toolArgs: { command: 'rm -rf /' },
    });
  });

  it('file tools as view / create / edit; postToolUse toolResult; userPromptSubmitted prompt', () => {
    expect(
      encode('PreToolUse', toolInput('write_file', { path: 'a.ts', content: 'x' })),
    ).toMatchObject({
      toolName: 'create',
      toolArgs: { path: 'a.ts', file_text: 'x' },
    });
    expect(
      encode(
        'PreToolUse',
        toolInput('edit_file', { path: 'a.ts', old_string: 'x', new_string: 'y' }),
      ),
    ).toMatchObject({
      toolName: 'edit',
      toolArgs: { path: 'a.ts', old_str: 'x', new_str: 'y' },
    });
    expect(encode('PostToolUse', ourInput('PostToolUse'))).toMatchObject({
      toolResult: { resultType: 'success', textResultForLlm: 'a\nb\nc\n' },
    });
    expect(encode('UserPromptSubmit', ourInput('UserPromptSubmit'))).toMatchObject({
      prompt: 'fix the bug',
    });
  });
});

describe('copilot dialect: the rules measured against Copilot CLI 1.0.102 (spec §13.2)', () => {
  it('sets CLAUDE_PROJECT_DIR for every hook', () => {
    expect(copilotDialect.env(context)).toEqual({ CLAUDE_PROJECT_DIR: '/work/project' });
    expect(copilotDialect.env({ ...context, dialectEvent: 'PreToolUse' }).CLAUDE_PROJECT_DIR).toBe(
      '/work/project',
    );
  });

  it('sends agentStop stopReason and stop_hook_active', () => {
    expect(
      encode('Stop', { ...ourInput('Stop'), stop_hook_active: true, prevented_count: 1 }),
    ).toMatchObject({
      stopReason: 'end_turn',
      stop_hook_active: true,
      transcriptPath: context.transcriptPath,
    });
    expect(encode('Stop', ourInput('Stop'))).toMatchObject({
      stop_hook_active: false,
    });
  });

  it("gives a PascalCase entry Claude Code's payload with Claude Code's tool names but Copilot's argument names", () => {
    const pascal = { ...context, dialectEvent: 'PreToolUse' };
    const input = copilotDialect.encodeInput(
      'PreToolUse',
      toolInput('read_file', { path: 'src/a.ts' }),
      pascal,
    ) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: 'PreToolUse',
      session_id: context.sessionId,
      tool_name: 'Read',
      tool_input: { path: 'src/a.ts' },
    });
    expect(input).not.toHaveProperty('toolArgs');
    expect(
      copilotDialect.encodeInput(
        'PreToolUse',
        toolInput('write_file', { path: 'a.ts', content: 'x' }),
        pascal,
      ),
    ).toMatchObject({ tool_name: 'Write', tool_input: { path: 'a.ts', file_text: 'x' } });
  });

  it("reads a PascalCase entry's hookSpecificOutput deny, and a top-level permissionDecisionReason as the reason", () => {
    expect(
      copilotDialect.decide(
        'PreToolUse',
        run(
          0,
          json({
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: 'deny',
              permissionDecisionReason: 'inner',
            },
          }),
        ),
      ),
    ).toMatchObject({ decision: 'deny', reason: 'inner' });
    expect(
      copilotDialect.decide(
        'PreToolUse',
        run(0, json({ permissionDecision: 'deny', permissionDecisionReason: 'top', reason: 'r' })),
      ),
    ).toMatchObject({ decision: 'deny', reason: 'top' });
  });

  it('sends postToolUseFailure its error, and runs postToolUse hooks for every result, as Copilot CLI does', () => {
    expect(
      encode('PostToolUseFailure', {
        ...ourInput('PostToolUse'),
        error: 'exit code 1',
      }),
    ).toMatchObject({ toolName: 'bash', error: 'exit code 1' });
    // Measured against Copilot CLI 1.0.102: a failed command runs postToolUse too.
    expect(copilotDialect.failedToolEvent).toBeUndefined();
  });
});

describe('copilot dialect: answers', () => {
  const decide = copilotDialect.decide;
  it('permissionDecision deny | allow | ask; exit 2 denies even when the JSON allows; agentStop decision block', () => {
    expect(
      decide(
        'PreToolUse',
        run(0, json({ permissionDecision: 'deny', permissionDecisionReason: 'no' })),
      ),
    ).toMatchObject({ decision: 'deny', reason: 'no' });
    expect(decide('PreToolUse', run(0, json({ permissionDecision: 'allow' })))).toMatchObject({
      decision: 'allow',
    });
    expect(decide('PreToolUse', run(0, json({ permissionDecision: 'ask' })))).toMatchObject({
      decision: 'ask',
    });
    expect(
      decide('PreToolUse', run(2, json({ permissionDecision: 'allow' }), 'blocked')),
    ).toMatchObject({ decision: 'deny', reason: 'blocked' });
    expect(decide('Stop', run(0, json({ decision: 'block', reason: 'keep going' })))).toMatchObject(
      { decision: 'deny', reason: 'keep going' },
    );
  });

  it('an agentStop hook that exits 2 is a failed hook, not a prevented stop (Copilot CLI only warns and the loop ends)', () => {
    const verdict = decide('Stop', run(2, '', 'keep going'));
    expect(verdict.decision).toBe('none');
    expect(verdict.failure).toMatchObject({ kind: 'exit_code' });
    // A JSON block still prevents the stop, whatever the exit code after it.
    expect(decide('Stop', run(2, json({ decision: 'block', reason: 'tests fail' })))).toMatchObject(
      {
        decision: 'deny',
        reason: 'tests fail',
      },
    );
  });

  it("reads a PascalCase entry's hookSpecificOutput.additionalContext as the context", () => {
    const answer = json({
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'lint: 2 warnings' },
    });
    expect(decide('PostToolUse', run(0, answer)).context).toBe('lint: 2 warnings');
    expect(decide('PostToolUse', run(0, json({ additionalContext: 'top' }))).context).toBe('top');
    // userPromptSubmitted's context reaches Copilot's model too.
    expect(decide('UserPromptSubmit', run(0, json({ additionalContext: 'ticket' }))).context).toBe(
      'ticket',
    );
  });

  it('progress lines before the final JSON; a crash is a failure (the converter makes preToolUse fail closed); modifiedArgs is a warning', () => {
    const stdout = `${json({ type: 'progress', message: 'scanning' })}\n${json({ permissionDecision: 'deny', permissionDecisionReason: 'secret' })}\n`;
    expect(decide('PreToolUse', run(0, stdout))).toMatchObject({
      decision: 'deny',
      reason: 'secret',
    });
    expect(decide('PreToolUse', run(1, '', 'Traceback'))).toMatchObject({
      decision: 'none',
      failure: { kind: 'exit_code' },
    });
    const verdict = decide(
      'PreToolUse',
      run(0, json({ permissionDecision: 'allow', modifiedArgs: { command: 'ls' } })),
    );
    expect(verdict.logs).toEqual([
      expect.objectContaining({ message: expect.stringContaining('"modifiedArgs"') }),
    ]);
  });
});

describe('copilot dialect: converter', () => {
  const convert = (value: unknown) =>
    copilotDialect.convertConfig?.(JSON.stringify(value)) as NonNullable<
      ReturnType<NonNullable<typeof copilotDialect.convertConfig>>
    >;
  it('camelCase entries: bash command, anchored matcher, timeoutSec, cwd, env; preToolUse fails closed', () => {
    const result = convert({
      version: 1,
      hooks: {
        preToolUse: [
          {
            type: 'command',
            bash: './scripts/guard.sh',
            powershell: './scripts/guard.ps1',
            cwd: '.github/hooks',
            timeoutSec: 15,
            matcher: 'bash|edit',
          },
          { type: 'command', bash: 'python3 scripts/all.py', env: { LEVEL: 'strict' } },
        ],
        agentStop: [{ type: 'command', bash: 'npm test' }],
        errorOccurred: [{ type: 'command', bash: 'x.sh' }],
      },
    });
    const pre = result.hooks.hooks.PreToolUse as {
      matcher?: unknown;
      hooks: Record<string, unknown>[];
    }[];
    expect(pre[0]).toEqual({
      matcher: { tool: ['bash', 'edit_file'] },
      hooks: [
        {
          type: 'command',
          command: './scripts/guard.sh',
          protocol: 'copilot',
          name: 'guard',
          timeout: 15,
          working_dir: '.github/hooks',
          on_failure: 'deny',
        },
      ],
    });
    expect(pre[1]?.hooks[0]).toMatchObject({
      command: 'export LEVEL=strict; python3 scripts/all.py',
      timeout: 30,
    });
    expect(result.refused).toEqual([
      { path: 'hooks.errorOccurred', reason: expect.stringContaining('no error event') },
    ]);
  });

  it('refuses a file that is no object, one without hooks, an event that is no array and an entry that is no object, and converts the rest', () => {
    expect(convert([]).refused).toEqual([
      { path: '(root)', reason: 'not a JSON object (a Copilot CLI hooks file is one)' },
    ]);
    expect(convert({ version: 1 }).refused).toEqual([
      { path: 'hooks', reason: 'absent: the file configures no hooks' },
    ]);
    expect(convert({ hooks: [] }).refused).toEqual([
      { path: 'hooks', reason: 'not an object of events' },
    ]);
    const result = convert({
      hooks: {
        preToolUse: { bash: 'a.sh' },
        postToolUse: ['b.sh', { type: 'command', bash: 'c.sh' }, null],
      },
    });
    expect(result.refused).toEqual([
      { path: 'hooks.preToolUse', reason: 'not an array of hooks' },
      { path: 'hooks.postToolUse[0]', reason: 'not a hook object' },
      { path: 'hooks.postToolUse[2]', reason: 'not a hook object' },
    ]);
    expect(result.hooks.hooks.PostToolUse).toMatchObject([{ hooks: [{ command: 'c.sh' }] }]);
  });

  it('an anchored matcher does not match longer names: "edit" is edit only, not str_replace_editor', () => {
    const result = convert({
      version: 1,
      hooks: { postToolUse: [{ type: 'command', bash: 'x.sh', matcher: 'edit' }] },
    });
    expect((result.hooks.hooks.PostToolUse as { matcher: unknown }[])[0]?.matcher).toEqual({
      tool: ['edit_file'],
    });
  });

  it("PascalCase entries are Claude Code's dialect", () => {
    const result = convert({
      hooks: {
        PostToolUse: [
          { type: 'command', bash: 'node .github/hooks/telemetry.js', matcher: 'Edit|Write' },
        ],
      },
    });
    const rule = (
      result.hooks.hooks.PostToolUse as { matcher: unknown; hooks: Record<string, unknown>[] }[]
    )[0];
    expect(rule?.matcher).toEqual({ tool: ['edit_file', 'write_file'] });
    expect(rule?.hooks[0]).toMatchObject({
      protocol: 'copilot',
      dialect_event: 'PostToolUse',
      command: 'node .github/hooks/telemetry.js',
      timeout: 30,
    });
    const grouped = convert({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'check.sh' }, 'oops'] }],
      },
    });
    expect(grouped.hooks.hooks.UserPromptSubmit).toMatchObject([
      {
        hooks: [
          {
            protocol: 'copilot',
            dialect_event: 'UserPromptSubmit',
            command: 'check.sh',
            name: 'check',
          },
        ],
      },
    ]);
    expect(grouped.refused).toEqual([
      { path: 'hooks.UserPromptSubmit[0].hooks[1]', reason: 'not a hook object' },
    ]);
    expect(grouped.notes.join('\n')).toContain(
      'hooks.UserPromptSubmit[0].hooks[0] (check): Copilot CLI lets this hook block the prompt',
    );
  });
});

describe('copilot dialect: converter, the rules of spec §13.2', () => {
  const convert = (value: unknown) =>
    copilotDialect.convertConfig?.(JSON.stringify(value)) as NonNullable<
      ReturnType<NonNullable<typeof copilotDialect.convertConfig>>
    >;

  it('imports postToolUseFailure with its anchored matcher', () => {
    const result = convert({
      version: 1,
      hooks: {
        postToolUseFailure: [{ type: 'command', bash: '/opt/log.sh', matcher: 'bash' }],
      },
    });
    expect(result.refused).toEqual([]);
    expect(result.hooks.hooks.PostToolUseFailure).toMatchObject([
      { matcher: { tool: ['bash'] }, hooks: [{ command: '/opt/log.sh', protocol: 'copilot' }] },
    ]);
  });

  it('lists the programs the hooks run directly, for the CLI to check their exec bit', () => {
    const result = convert({
      version: 1,
      hooks: {
        preToolUse: [
          { type: 'command', bash: './scripts/guard.sh --strict', cwd: '.github/hooks' },
          { type: 'command', bash: 'bash ./scripts/other.sh' },
          { type: 'command', exec: '/opt/hooks/audit.sh', args: ['-v'] },
        ],
        PostToolUse: [{ type: 'command', bash: '~/bin/telemetry.sh' }],
      },
    });
    expect(result.scripts).toEqual([
      {
        path: 'hooks.preToolUse[0]',
        hook: 'guard',
        program: './scripts/guard.sh',
        workingDir: '.github/hooks',
      },
      { path: 'hooks.preToolUse[2]', hook: 'audit', program: '/opt/hooks/audit.sh' },
      { path: 'hooks.PostToolUse[0]', hook: 'telemetry', program: '~/bin/telemetry.sh' },
    ]);
  });
});

describe('copilot dialect: sessionEnd', () => {
  it("maps our end reasons onto Copilot's", () => {
    expect(
      encode('SessionEnd' as never, { ...ourInput('SessionStart'), reason: 'aborted' }),
    ).toMatchObject({ reason: 'abort' });
    expect(
      encode('SessionEnd' as never, { ...ourInput('SessionStart'), reason: 'completed' }),
    ).toMatchObject({ reason: 'complete' });
  });
});

describe('copilotDialect', () => {
  const decide = copilotDialect.decide;
  itKeepsDeniesAndBoundsDepth({
    decide,
    run,
    deny: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' },
    reason: 'no rm',
  });

  it('takes a top-level permissionDecisionReason as the reason of a deny after a log line', () => {
    const deny = { permissionDecision: 'deny', permissionDecisionReason: 'secrets in the diff' };
    expect(decide('PreToolUse', run(0, `${LOG_LINE}\n${jqPretty(deny)}`))).toMatchObject({
      decision: 'deny',
      reason: 'secrets in the diff',
    });
  });

  it('keeps a pretty-printed deny when an allow line or a progress line comes before it', () => {
    const deny = jqPretty({ permissionDecision: 'deny', permissionDecisionReason: 'no' });
    for (const first of [json({ permissionDecision: 'allow' }), json({ type: 'progress' })]) {
      expect(decide('PreToolUse', run(0, `${first}\n${deny}`))).toMatchObject({
        decision: 'deny',
        reason: 'no',
      });
    }
  });

  it('keeps an allow after a log line, as Copilot reads the last JSON line', () => {
    expect(
      decide('PreToolUse', run(0, `${LOG_LINE}\n${json({ permissionDecision: 'allow' })}\n`)),
    ).toEqual({ decision: 'allow', exitCode: 0, logs: [] });
  });

  it('fails rather than read an earlier allow line when a later line nests 20,000 deep', () => {
    const stdout = `${json({ permissionDecision: 'allow' })}\n${DEEP_ANSWER}\n${LOG_LINE}\n`;
    expect(decide('PreToolUse', run(0, stdout))).toMatchObject({
      decision: 'none',
      failure: { kind: 'protocol_error' },
    });
  });
});

describe('copilot dialect: converter, cwd', () => {
  const convert = (cwd: unknown, options = {}) => {
    const result = copilotDialect.convertConfig?.(
      JSON.stringify({
        version: 1,
        hooks: { agentStop: [{ type: 'command', bash: './gate.sh --all', cwd }] },
      }),
      options,
    );
    const hook = (
      result?.hooks.hooks.Stop as { hooks: Record<string, unknown>[] }[] | undefined
    )?.[0]?.hooks[0];
    return { result, hook };
  };

  it('keeps a folder inside the project as working_dir, relative to the project dir', () => {
    expect(convert('.github/hooks/').hook).toMatchObject({
      command: './gate.sh --all',
      working_dir: '.github/hooks',
    });
    expect(convert('.').hook?.working_dir).toBeUndefined();
    expect(convert('./').hook?.working_dir).toBeUndefined();
  });

  it('makes a folder outside the project a quoted cd before the command, ~/ kept under the home', () => {
    expect(convert('/opt/team tools/').hook).toMatchObject({
      command: "cd -- '/opt/team tools' || exit; ./gate.sh --all",
    });
    expect(convert('/home/u/hooks', { home: '/home/u' }).hook?.command).toBe(
      'cd -- ~/hooks || exit; ./gate.sh --all',
    );
    expect(convert('~/my hooks').hook?.command).toBe("cd -- ~/'my hooks' || exit; ./gate.sh --all");
    expect(convert('~').hook?.command).toBe('cd -- ~ || exit; ./gate.sh --all');
    expect(convert('../shared').hook?.command).toBe('cd -- ../shared || exit; ./gate.sh --all');
    const { result, hook } = convert("/x/it's $(here)");
    expect(hook?.command).toBe(`cd -- '/x/it'\\''s $(here)' || exit; ./gate.sh --all`);
    expect(hook?.working_dir).toBeUndefined();
    expect(result?.notes.some((note) => note.startsWith('hooks.agentStop[0].cwd: '))).toBe(true);
  });

  it('refuses a cwd that is not a string', () => {
    expect(convert(7).result?.refused).toEqual([
      { path: 'hooks.agentStop[0].cwd', reason: '7 is not a directory path' },
    ]);
  });

  it("records each hook's source when asked (origin)", () => {
    expect(convert('.', { origin: '~/.copilot/hooks/a.json' }).hook?.imported_from).toEqual({
      file: '~/.copilot/hooks/a.json',
      path: 'hooks.agentStop[0]',
    });
    expect(convert('.').hook?.imported_from).toBeUndefined();
  });

  it('names the environment variables once: the SOONG_AGENT_* ones, no Copilot ones', () => {
    const notes = convert('.').result?.notes.filter((note) => note.startsWith('(environment)'));
    expect(notes).toHaveLength(1);
    expect(notes?.[0]?.match(/SOONG_AGENT_/g)).toHaveLength(1);
  });
});

describe('copilot dialect: converter, cwd on a PascalCase entry', () => {
  it('is converted as on a camelCase one, not dropped', () => {
    const result = copilotDialect.convertConfig?.(
      JSON.stringify({
        hooks: {
          Stop: [{ type: 'command', bash: './gate.sh', cwd: '/opt/tools' }],
          PreToolUse: [{ type: 'command', bash: './guard.sh', cwd: 'scripts', matcher: 'Bash' }],
        },
      }),
    );
    const hook = (event: string) =>
      (result?.hooks.hooks[event] as { hooks: Record<string, unknown>[] }[] | undefined)?.[0]
        ?.hooks[0];
    expect(hook('Stop')).toMatchObject({
      command: 'cd -- /opt/tools || exit; ./gate.sh',
      protocol: 'copilot',
      dialect_event: 'Stop',
    });
    expect(hook('PreToolUse')).toMatchObject({
      command: './guard.sh',
      working_dir: 'scripts',
      protocol: 'copilot',
      dialect_event: 'PreToolUse',
    });
    expect(result?.notes.some((note) => note.includes('unknown key "cwd"'))).toBe(false);
  });
});
