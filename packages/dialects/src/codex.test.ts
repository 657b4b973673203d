import { describe, expect, it } from 'vitest';
import { codexDialect, codexPatch } from './codex.js';
import { getDialect } from './registry.js';
import {
  DEEP_ANSWER,
  itKeepsDeniesAndBoundsDepth,
  jqPretty,
  LOG_LINE,
} from './test-helpers/answers.js';
import { context, json, ourInput, run, toolInput } from './test-helpers/inputs.js';

const encode = (
  event: Parameters<typeof codexDialect.encodeInput>[0],
  input: Record<string, unknown>,
) =>
  codexDialect.encodeInput(event, input, {
    ...context,
    turnId: 'turn-7',
    model: 'gpt-5',
  }) as Record<string, unknown>;

describe('codex dialect: input (codex-rs/hooks/src/schema.rs *CommandInput)', () => {
  it('is registered', () => {
    expect(getDialect('codex')).toBe(codexDialect);
  });

  it('PreToolUse: the schema fields, Bash with {command}', () => {
    const input = encode('PreToolUse', ourInput('PreToolUse'));
    expect(Object.keys(input).sort()).toEqual(
      [
        'cwd',
        'hook_event_name',
        'model',
        'permission_mode',
        'session_id',
        'tool_input',
        'tool_name',
        'tool_use_id',
        'transcript_path',
        'turn_id',
      ].sort(),
    );
    expect(input).toMatchObject({
      session_id: context.sessionId,
      turn_id: 'turn-7',
      cwd: '/work/project',
      hook_event_name: 'PreToolUse',
      model: 'gpt-5',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
      tool_use_id: 'call_1',
    });
  });

  it('write_file and edit_file reach a hook as apply_patch with the patch text Codex would produce', () => {
    const write = encode(
      'PreToolUse',
      toolInput('write_file', { path: 'src/new.ts', content: 'a\nb\n' }),
    );
    expect(write.tool_name).toBe('apply_patch');
    expect(write.tool_input).toEqual({
      command: '*** Begin Patch\n*** Add File: src/new.ts\n+a\n+b\n*** End Patch\n',
    });
    const edit = encode(
      'PreToolUse',
      toolInput('edit_file', { path: '/work/project/.env', old_string: 'A=1', new_string: 'A=2' }),
    );
    expect(edit.tool_input).toEqual({
      command: '*** Begin Patch\n*** Update File: .env\n@@\n-A=1\n+A=2\n*** End Patch\n',
    });
    expect(
      codexPatch(
        'edit_file',
        { path: '/etc/hosts', old_string: 'x', new_string: 'y' },
        '/work/project',
      ),
    ).toContain('*** Update File: /etc/hosts');
  });

  it('MCP tools keep their name and raw arguments; PostToolUse adds tool_response', () => {
    const mcp = encode('PreToolUse', toolInput('mcp__fs__read', { path: 'x' }));
    expect(mcp).toMatchObject({ tool_name: 'mcp__fs__read', tool_input: { path: 'x' } });
    const post = encode('PostToolUse', ourInput('PostToolUse'));
    expect(post).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_response: 'a\nb\nc\n',
    });
  });

  it('UserPromptSubmit, Stop and SessionStart (no turn_id there)', () => {
    expect(encode('UserPromptSubmit', ourInput('UserPromptSubmit'))).toMatchObject({
      prompt: 'fix the bug',
      turn_id: 'turn-7',
    });
    expect(encode('Stop', ourInput('Stop', { prevented_count: 1 }))).toMatchObject({
      stop_hook_active: true,
      last_assistant_message: 'done',
    });
    const start = encode('SessionStart', ourInput('SessionStart'));
    expect(start).toMatchObject({ source: 'startup', hook_event_name: 'SessionStart' });
    expect(start).not.toHaveProperty('turn_id');
  });
});

describe('codex dialect: answers (output_parser.rs, pre_tool_use.rs)', () => {
  const decide = codexDialect.decide;
  const deny = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm',
    },
  };

  it('exit 0 JSON: permissionDecision deny/allow/ask, legacy decision block/approve', () => {
    expect(decide('PreToolUse', run(0, json(deny)))).toMatchObject({
      decision: 'deny',
      reason: 'no rm',
    });
    expect(
      decide('PreToolUse', run(0, json({ decision: 'block', reason: 'legacy' }))),
    ).toMatchObject({ decision: 'deny', reason: 'legacy' });
    expect(decide('PreToolUse', run(0, json({ decision: 'approve' })))).toMatchObject({
      decision: 'allow',
    });
    expect(
      decide('PreToolUse', run(0, json({ hookSpecificOutput: { permissionDecision: 'ask' } }))),
    ).toMatchObject({ decision: 'ask' });
    expect(decide('Stop', run(0, json({ decision: 'block', reason: 'tests fail' })))).toMatchObject(
      { decision: 'deny', reason: 'tests fail' },
    );
    expect(decide('PreToolUse', run(0, ''))).toMatchObject({ decision: 'none' });
  });

  it('every slightly wrong spelling of a deny stands, with a warning', () => {
    for (const answer of [
      { hookSpecificOutput: { permissionDecision: 'Deny' } },
      { decision: 'Block', reason: 'x' },
      { decision: 'deny' },
      { continue: 'false' },
      { continue: false, stopReason: 'stop' },
    ]) {
      const verdict = decide('PreToolUse', run(0, json(answer)));
      expect(verdict.decision, JSON.stringify(answer)).toBe('deny');
    }
    expect(
      decide('PreToolUse', run(0, json({ hookSpecificOutput: { permissionDecision: 'Deny' } })))
        .logs,
    ).toContainEqual(expect.objectContaining({ source: 'warning' }));
  });

  it('exit 2 blocks with stderr (also with empty stderr, where Codex would fail open), other exits fail', () => {
    expect(decide('PreToolUse', run(2, '', 'blocked: rm\n'))).toMatchObject({
      decision: 'deny',
      reason: 'blocked: rm',
      exitCode: 2,
    });
    const silent = decide('PreToolUse', run(2, '', ''));
    expect(silent.decision).toBe('deny');
    expect(silent.logs.map((log) => log.message).join()).toContain('exit 2 without a reason');
    expect(decide('PreToolUse', run(1, '', 'boom'))).toMatchObject({
      decision: 'none',
      failure: { kind: 'exit_code' },
    });
    // an intended deny on stdout stands even when the hook then exits 1
    expect(decide('PreToolUse', run(1, json(deny)))).toMatchObject({
      decision: 'deny',
      failure: { kind: 'exit_code' },
    });
    expect(decide('PreToolUse', run(null))).toMatchObject({
      failure: { message: 'hook was killed by SIGKILL' },
    });
  });

  it('a log line before the JSON deny keeps the deny; unusable JSON is a protocol error; patch keys are one warning', () => {
    const kept = decide('PreToolUse', run(0, `checking...\n${json(deny)}\n`));
    expect(kept).toMatchObject({ decision: 'deny', reason: 'no rm' });
    expect(kept.logs.map((log) => log.message)).toContain(
      'stdout held more than the JSON answer (Codex reads stdout as one JSON object); its last line denies, and the deny stands',
    );
    expect(decide('PreToolUse', run(0, '{not json'))).toMatchObject({
      failure: {
        kind: 'protocol_error',
        message:
          'stdout starts like JSON but is not a JSON object (Codex would fail this hook and go on)',
      },
    });
    const patch = decide(
      'PreToolUse',
      run(
        0,
        json({
          hookSpecificOutput: {
            permissionDecision: 'allow',
            updatedInput: { command: 'ls' },
            additionalContext: 'x',
          },
          systemMessage: 'hi',
        }),
      ),
    );
    expect(patch.decision).toBe('allow');
    const warnings = patch.logs.filter((log) => log.source === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('"hookSpecificOutput.updatedInput"');
  });
});

describe('codex dialect: converter', () => {
  const convert = (value: unknown) =>
    codexDialect.convertConfig?.(JSON.stringify(value)) as NonNullable<
      ReturnType<NonNullable<typeof codexDialect.convertConfig>>
    >;

  it('a realistic .codex/hooks.json: exact matchers with aliases, a Stop gate, a regex covering three agents', () => {
    const result = convert({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: 'python3 .codex/hooks/guard.py',
                timeout: 10,
                statusMessage: 'checking',
              },
            ],
          },
          {
            matcher: 'apply_patch|Edit|Write',
            hooks: [{ type: 'command', command: '.codex/hooks/protect.sh' }],
          },
          {
            matcher:
              'run_command|view_file|Bash|Read|Edit|Write|(?:functions\\.)?apply_patch|exec_command|shell',
            hooks: [{ type: 'command', command: 'node .codex/hooks/all.mjs' }],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'npm test --silent', timeout: 900 }] }],
        PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x.sh' }] }],
      },
    });
    const pre = result.hooks.hooks.PreToolUse as {
      matcher: unknown;
      hooks: Record<string, unknown>[];
    }[];
    expect(pre.map((rule) => rule.matcher)).toEqual([
      { tool: ['bash'] },
      { tool: ['write_file', 'edit_file'] },
      { tool: ['bash', 'write_file', 'edit_file'] },
    ]);
    expect(pre[0]?.hooks[0]).toMatchObject({ protocol: 'codex', timeout: 10, name: 'guard' });
    expect(pre[1]?.hooks[0]).toMatchObject({ timeout: 600 });
    expect(
      (result.hooks.hooks.Stop as { hooks: Record<string, unknown>[] }[])[0]?.hooks[0]?.timeout,
    ).toBe(600);
    expect(result.notes).toContainEqual(expect.stringContaining('900 s capped at 600 s'));
    expect(result.refused).toEqual([
      {
        path: 'hooks.PermissionRequest',
        reason: expect.stringContaining('no PermissionRequest event'),
      },
    ]);
  });

  it('Codex\'s exact rule: a matcher of [A-Za-z0-9_|] is exact, so "Bash" never meant BashOutput; Read has no Codex hook', () => {
    const result = convert({
      hooks: {
        PostToolUse: [{ matcher: 'Read|Bash', hooks: [{ type: 'command', command: 'log.sh' }] }],
      },
    });
    expect((result.hooks.hooks.PostToolUse as { matcher: unknown }[])[0]?.matcher).toEqual({
      tool: ['bash'],
    });
    expect(result.notes).toContainEqual(
      expect.stringContaining('Read dropped from "Read|Bash": not a Codex tool name'),
    );
  });
});

describe('codex dialect: a host-named tool (spec §11)', () => {
  it("a declared Codex name gets that tool's input conversion; another name keeps the input", () => {
    const declared = codexDialect.encodeInput('PreToolUse', toolInput('run', { command: 'make' }), {
      ...context,
      tool: { name: 'Bash', input: { command: 'make', timeout: 5 } },
    }) as Record<string, unknown>;
    expect(declared).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'make' } });
    const own = codexDialect.encodeInput('PreToolUse', toolInput('deploy', { env: 'prod' }), {
      ...context,
      tool: { name: 'deploy_app' },
    }) as Record<string, unknown>;
    expect(own).toMatchObject({ tool_name: 'deploy_app', tool_input: { env: 'prod' } });
  });
});

describe("codex dialect: every event's stdin has exactly the fields of Codex's schema (schema.rs, deny_unknown_fields)", () => {
  const base = [
    'cwd',
    'hook_event_name',
    'model',
    'permission_mode',
    'session_id',
    'transcript_path',
  ];
  const cases: [Parameters<typeof encode>[0], string[]][] = [
    ['SessionStart', [...base, 'source']],
    ['UserPromptSubmit', [...base, 'turn_id', 'prompt']],
    ['PreToolUse', [...base, 'turn_id', 'tool_name', 'tool_input', 'tool_use_id']],
    [
      'PostToolUse',
      [...base, 'turn_id', 'tool_name', 'tool_input', 'tool_response', 'tool_use_id'],
    ],
    ['Stop', [...base, 'turn_id', 'stop_hook_active', 'last_assistant_message']],
  ];
  it.each(cases)('%s', (event, keys) => {
    const input = encode(event, ourInput(event));
    expect(Object.keys(input).sort()).toEqual([...keys].sort());
    for (const key of [
      'session_id',
      'turn_id',
      'cwd',
      'hook_event_name',
      'model',
      'permission_mode',
      'prompt',
      'last_assistant_message',
      'tool_name',
      'tool_use_id',
      'source',
    ]) {
      if (key in input) expect(typeof input[key], key).toBe('string');
    }
    if ('stop_hook_active' in input) expect(typeof input.stop_hook_active).toBe('boolean');
    if ('tool_input' in input) expect(typeof input.tool_input).toBe('object');
  });
});

describe('codexDialect', () => {
  const decide = codexDialect.decide;
  itKeepsDeniesAndBoundsDepth({
    decide,
    run,
    deny: { decision: 'block', reason: 'no rm' },
    reason: 'no rm',
  });

  it('keeps a pretty-printed permissionDecision deny when a log line comes before it', () => {
    const deny = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no rm',
      },
    };
    expect(decide('PreToolUse', run(0, `${LOG_LINE}\n${jqPretty(deny)}`))).toMatchObject({
      decision: 'deny',
      reason: 'no rm',
      exitCode: 0,
    });
  });

  it('rescues no allow when a log line comes before it, as Codex reads no answer there', () => {
    const allow = {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
    };
    for (const stdout of [`${LOG_LINE}\n${json(allow)}\n`, `${LOG_LINE}\n${jqPretty(allow)}`]) {
      expect(decide('PreToolUse', run(0, stdout))).toEqual({
        decision: 'none',
        exitCode: 0,
        logs: [{ source: 'logs', message: stdout.trim() }],
      });
    }
  });

  it('denies with stderr when an answer 20,000 deep comes with exit 2', () => {
    const verdict = decide('PreToolUse', run(2, DEEP_ANSWER, 'blocked'));
    expect(verdict).toMatchObject({ decision: 'deny', reason: 'blocked', exitCode: 2 });
    expect(verdict.logs.map((log) => log.message).join('\n')).toContain('64 levels deep');
  });
});

describe('codex dialect: converter, notify', () => {
  const notes = (value: unknown) =>
    (codexDialect.convertConfig?.(JSON.stringify(value))?.notes ?? []).filter((note) =>
      note.startsWith('notify: '),
    );

  it('explains notify and gives the Stop hook that replaces it', () => {
    const [note, ...rest] = notes({ hooks: {}, notify: ['python3', '/opt/my notify.py'] });
    expect(rest).toEqual([]);
    expect(note).toContain("runs python3 '/opt/my notify.py' when a Codex turn completes");
    expect(note).toContain('not converted');
    expect(note).toContain(JSON.stringify(`python3 '/opt/my notify.py' "$(cat)"`));
  });

  it('says a notify that is not an argv array is not converted; says nothing without one', () => {
    expect(notes({ hooks: {}, notify: 'x.sh' })[0]).toContain(
      'is not an array of program and arguments',
    );
    expect(notes({ hooks: {} })).toEqual([]);
  });
});

describe('codex dialect: the rules measured against Codex 0.169.0 (spec §13.2)', () => {
  it('fails a PreToolUse hook that answers {"decision": "allow"} (invalid output in Codex; the call goes on)', () => {
    const verdict = codexDialect.decide('PreToolUse', run(0, json({ decision: 'allow' })));
    expect(verdict).toMatchObject({ decision: 'none', failure: { kind: 'protocol_error' } });
    expect(verdict.failure?.message).toContain('"approve" or "block"');
    // The same word in another case fails too; approve and permissionDecision allow still allow.
    expect(
      codexDialect.decide('PreToolUse', run(0, json({ decision: 'Allow' }))).failure,
    ).toMatchObject({ kind: 'protocol_error' });
    expect(codexDialect.decide('PreToolUse', run(0, json({ decision: 'approve' })))).toMatchObject({
      decision: 'allow',
    });
    expect(
      codexDialect.decide(
        'PreToolUse',
        run(
          0,
          json({
            hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
          }),
        ),
      ),
    ).toMatchObject({ decision: 'allow' });
    // A deny elsewhere in the answer still stands.
    expect(
      codexDialect.decide(
        'PreToolUse',
        run(
          0,
          json({
            decision: 'allow',
            hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
          }),
        ),
      ),
    ).toMatchObject({ decision: 'deny' });
    // On other events "allow" is not a PreToolUse answer: no failure.
    expect(
      codexDialect.decide('Stop', run(0, json({ decision: 'allow' }))).failure,
    ).toBeUndefined();
  });

  it("sends PreCompact trigger and the subagent events' fields", () => {
    expect(
      encode('PreCompact', {
        ...ourInput('SessionStart'),
        trigger: 'auto',
        custom_instructions: '',
      }),
    ).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'auto' });
    expect(
      encode('SubagentStop', {
        ...ourInput('SessionStart'),
        agent_id: 'a1',
        agent_type: 'worker',
        stop_hook_active: false,
        last_assistant_message: 'done',
      }),
    ).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_id: 'a1',
      agent_type: 'worker',
      stop_hook_active: false,
      last_assistant_message: 'done',
    });
  });

  it('imports SubagentStart, SubagentStop and PreCompact instead of refusing them', () => {
    const result = codexDialect.convertConfig?.(
      JSON.stringify({
        hooks: {
          SubagentStart: [{ hooks: [{ type: 'command', command: '/opt/hooks/start.sh' }] }],
          SubagentStop: [{ hooks: [{ type: 'command', command: '/opt/hooks/stop.sh' }] }],
          PreCompact: [
            { matcher: 'auto', hooks: [{ type: 'command', command: '/opt/hooks/pc.sh' }] },
          ],
          PostCompact: [{ hooks: [{ type: 'command', command: '/opt/hooks/after.sh' }] }],
        },
      }),
    );
    expect(Object.keys(result?.hooks.hooks ?? {}).sort()).toEqual([
      'PreCompact',
      'SubagentStart',
      'SubagentStop',
    ]);
    expect(result?.refused).toEqual([
      { path: 'hooks.PostCompact', reason: expect.stringContaining('no PostCompact event') },
    ]);
  });
});
