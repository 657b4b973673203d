import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DialectError } from '../dialect-error.js';
import { convertClaudeCodeConfig, quoteArgument } from './claude.js';

// Claude Code's placeholders, written literally in settings files.
const PROJECT_DIR_PLACEHOLDER = ['$', '{CLAUDE_PROJECT_DIR}'].join('');
const PLUGIN_ROOT_PLACEHOLDER = ['$', '{CLAUDE_PLUGIN_ROOT}'].join('');

const convert = (settings: unknown, options = {}) =>
  convertClaudeCodeConfig(JSON.stringify(settings), options);
const group = (
  matcher: string | undefined,
  command: string,
  extra: Record<string, unknown> = {},
) => ({
  ...(matcher === undefined ? {} : { matcher }),
  hooks: [{ type: 'command', command, ...extra }],
});
const rules = (result: ReturnType<typeof convert>, event: string) =>
  (result.hooks.hooks[event] ?? []) as { matcher?: unknown; hooks: Record<string, unknown>[] }[];

describe('convertClaudeCodeConfig', () => {
  it('converts exact matchers and lists to our names, naming each hook after its script', () => {
    const result = convert({
      hooks: {
        PreToolUse: [
          group('Bash', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'),
          group('Edit|Write|MultiEdit', 'python3 .claude/hooks/protect.py'),
          group('Edit, Write', 'node .claude/hooks/guard.mjs'),
        ],
      },
    });
    expect(result.refused).toEqual([]);
    expect(rules(result, 'PreToolUse').map((rule) => rule.matcher)).toEqual([
      { tool: ['bash'] },
      { tool: ['edit_file', 'write_file'] },
      { tool: ['edit_file', 'write_file'] },
    ]);
    expect(rules(result, 'PreToolUse').map((rule) => rule.hooks[0]?.name)).toEqual([
      'guard',
      'protect',
      'guard-2',
    ]);
    expect(rules(result, 'PreToolUse')[0]?.hooks[0]).toMatchObject({
      protocol: 'claude-code',
      timeout: 600,
    });
  });

  it('converts a regex that equals an exact set, saying which set, and every-tool regexes to no matcher', () => {
    const result = convert({
      hooks: {
        PreToolUse: [group('(Edit|Write)', 'a.sh'), group('^Bash$', 'b.sh'), group('.*', 'c.sh')],
        PostToolUse: [group('.*', 'd.sh')],
      },
    });
    expect(result.refused).toEqual([]);
    expect(rules(result, 'PreToolUse').map((rule) => rule.matcher)).toEqual([
      { tool: ['edit_file', 'write_file'] },
      { tool: ['bash'] },
      undefined,
    ]);
    expect(rules(result, 'PostToolUse')[0]?.matcher).toBeUndefined();
    const note = result.notes.find((text) => text.startsWith('hooks.PreToolUse[0].matcher'));
    expect(note).toContain('matches exactly Edit, MultiEdit, NotebookEdit, Write, TodoWrite');
    expect(note).toContain('{"tool": ["edit_file","write_file"]}');
  });

  it('expands mcp__s__(a|b|c) to three names, and converts built-ins mixed with one server', () => {
    const result = convert({
      hooks: {
        PreToolUse: [
          group('mcp__fs__(read|write|delete)', 'a.sh'),
          group('Bash|mcp__github__.*', 'b.sh'),
        ],
      },
    });
    expect(rules(result, 'PreToolUse')[0]?.matcher).toEqual({
      tool: ['mcp__fs__read', 'mcp__fs__write', 'mcp__fs__delete'],
    });
    const mixed = rules(result, 'PreToolUse').slice(1);
    expect(mixed.map((rule) => rule.matcher)).toEqual([
      { tool: ['bash'] },
      { mcp_server: ['github'] },
    ]);
  });

  it("refuses a regex that also matches every server's MCP tools, with the list to write", () => {
    const result = convert({ hooks: { PreToolUse: [group('.*e.*', 'a.sh')] } });
    expect(rules(result, 'PreToolUse')).toEqual([]);
    expect(result.refused[0]?.reason).toContain('matches MCP tools of every server');
    expect(result.refused[0]?.reason).toContain('write {"tool": [...]}');
  });

  it('says a permission-rule spelling never fired in Claude Code', () => {
    const result = convert({ hooks: { PreToolUse: [group('Bash(git commit:*)', 'a.sh')] } });
    expect(result.refused).toEqual([
      {
        path: 'hooks.PreToolUse[0].matcher',
        reason: expect.stringContaining(
          'never ran there; to run it on Bash calls write {"tool": ["bash"]}',
        ),
      },
    ]);
  });

  it('does not hang on a ReDoS matcher', () => {
    const result = convert({
      hooks: { PreToolUse: [group('^(.*.*.*.*.*.*.*.*.*.*)*!$', 'a.sh')] },
    });
    expect(rules(result, 'PreToolUse')).toEqual([]);
    expect(result.refused[0]?.path).toBe('hooks.PreToolUse[0].matcher');
  });

  it('refuses 100,000-deep nesting with a clear error instead of crashing', () => {
    const deep = `{"hooks":{"PreToolUse":[{"matcher":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}}`;
    expect(() => convertClaudeCodeConfig(deep, { file: 'settings.json' })).toThrow(
      /nested deeper than/,
    );
  });

  it('reports invalid JSON as file:line:col', () => {
    const text = '{\n  "hooks": {\n    "Stop": [,]\n  }\n}';
    try {
      convertClaudeCodeConfig(text, { file: '/x/settings.json' });
      expect.unreachable();
    } catch (error) {
      expect(DialectError.isInstance(error) && error.code).toBe('CONFIG_PARSE_FAILED');
      expect((error as Error).message).toMatch(/^\/x\/settings\.json:3:\d+: not valid JSON/);
    }
  });

  it("converts SessionEnd and Notification, gives UserPromptSubmit Claude Code's 30 s, and notes what is lost", () => {
    const result = convert({
      hooks: {
        UserPromptSubmit: [group(undefined, 'python3 ~/.claude/hooks/prompt-check.py')],
        PostToolUse: [group('Write', 'npx prettier --write')],
        SessionEnd: [group(undefined, '~/.claude/hooks/log-end.sh')],
        Notification: [group('permission_prompt', 'notify-send "Claude"')],
      },
    });
    expect(rules(result, 'UserPromptSubmit')[0]?.hooks[0]?.timeout).toBe(30);
    // SessionEnd and Notification convert (spec §2.3).
    expect(rules(result, 'SessionEnd')).toHaveLength(1);
    expect(rules(result, 'Notification')).toHaveLength(1);
    expect(result.notes).toContainEqual(
      expect.stringMatching(
        /^hooks\.UserPromptSubmit\[0\]\.hooks\[0\] \(prompt-check\): Claude Code lets this hook block the prompt/,
      ),
    );
    expect(result.notes).toContainEqual(
      expect.stringMatching(
        /^hooks\.PostToolUse\[0\]\.hooks\[0\] \(unnamed\): Claude Code feeds this hook's feedback/,
      ),
    );
  });

  it('converts async observe-only hooks with a note, refuses async on blocking events', () => {
    const result = convert({
      hooks: {
        PostToolUse: [group(undefined, 'log.sh', { async: true })],
        PreToolUse: [group('Bash', 'guard.sh', { async: true })],
      },
    });
    expect(rules(result, 'PostToolUse')).toHaveLength(1);
    expect(result.notes).toContainEqual(expect.stringContaining('runs in order with the others'));
    expect(result.refused).toEqual([
      {
        path: 'hooks.PreToolUse[0].hooks[0].async',
        reason: expect.stringContaining('cannot block in Claude Code'),
      },
    ]);
  });

  it("gives a plugin's hooks CLAUDE_PLUGIN_ROOT in every spelling, substitutes it in args, refuses it outside a plugin", () => {
    const settings = {
      hooks: {
        PreToolUse: [
          group('Bash', `node -e "require(process.env.CLAUDE_PLUGIN_ROOT + '/x.js')"`),
          group('Bash', `\${CLAUDE_PLUGIN_ROOT:-.}/scripts/guard.sh`),
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: 'node',
                args: [`${PLUGIN_ROOT_PLACEHOLDER}/scripts/guard.mjs`],
              },
            ],
          },
        ],
      },
    };
    const plugin = convert(settings, { plugin: { root: '/opt/my plugin' } });
    expect(plugin.refused).toEqual([]);
    const commands = rules(plugin, 'PreToolUse').map((rule) => rule.hooks[0]?.command as string);
    for (const command of commands)
      expect(
        command.startsWith("CLAUDE_PLUGIN_ROOT='/opt/my plugin'; export CLAUDE_PLUGIN_ROOT; "),
      ).toBe(true);
    expect(commands[2]).toContain("node '/opt/my plugin/scripts/guard.mjs'");
    const printed = execFileSync('/bin/sh', [
      '-c',
      `${commands[1]?.split('; ').slice(0, 2).join('; ')}; printf %s "$CLAUDE_PLUGIN_ROOT"`,
    ]).toString();
    expect(printed).toBe('/opt/my plugin');
    const outside = convert(settings);
    expect(rules(outside, 'PreToolUse')).toEqual([]);
    expect(outside.refused.map((refusal) => refusal.reason)).toEqual(
      Array(3).fill(expect.stringContaining('--plugin-root')),
    );
  });

  it("says once that a file is not Claude Code's format at all", () => {
    const result = convert({
      version: 1,
      hooks: {
        preToolUse: [{ command: 'a' }],
        beforeShellExecution: [{ command: 'b' }],
        stop: [{ command: 'c' }],
      },
    });
    expect(result.refused).toEqual([
      {
        path: 'hooks',
        reason: expect.stringContaining("it looks like Cursor's hooks.json: use --from cursor"),
      },
    ]);
  });

  it('refuses events we do not have and non-command hooks with their JSON path', () => {
    const result = convert({
      hooks: {
        PostCompact: [group(undefined, 'a.sh')],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'is it safe?' }] }],
      },
    });
    expect(result.refused).toEqual([
      { path: 'hooks.PostCompact', reason: expect.stringContaining('no PostCompact event') },
      {
        path: 'hooks.PreToolUse[0].hooks[0].type',
        reason: expect.stringContaining('"prompt" hooks are not supported'),
      },
    ]);
  });
});

describe('convertClaudeCodeConfig: the events of spec §13.2', () => {
  it('converts PostToolUseFailure with its tool matcher, and PreCompact, SubagentStart and SubagentStop', () => {
    const result = convert({
      hooks: {
        PostToolUseFailure: [group('Bash|Edit', '~/.claude/hooks/log-failure.sh', { timeout: 5 })],
        PreCompact: [group('manual', '~/.claude/hooks/save-transcript.sh')],
        SubagentStart: [group(undefined, '~/.claude/hooks/subagent-start.sh')],
        SubagentStop: [group('Explore', '~/.claude/hooks/subagent-stop.sh')],
      },
    });
    expect(result.refused).toEqual([]);
    expect(result.hooks.hooks).toEqual({
      PostToolUseFailure: [
        {
          matcher: { tool: ['bash', 'edit_file'] },
          hooks: [
            expect.objectContaining({
              command: '~/.claude/hooks/log-failure.sh',
              protocol: 'claude-code',
              timeout: 5,
            }),
          ],
        },
      ],
      PreCompact: [
        { hooks: [expect.objectContaining({ command: '~/.claude/hooks/save-transcript.sh' })] },
      ],
      SubagentStart: [
        { hooks: [expect.objectContaining({ command: '~/.claude/hooks/subagent-start.sh' })] },
      ],
      SubagentStop: [
        { hooks: [expect.objectContaining({ command: '~/.claude/hooks/subagent-stop.sh' })] },
      ],
    });
    const notes = result.notes.join('\n');
    // The matchers of the observe-only events are dropped with a note; what Claude Code would do
    // and we do not is named per hook.
    expect(notes).toContain('hooks.PreCompact[0].matcher: "manual" dropped');
    expect(notes).toContain('hooks.SubagentStop[0].matcher: "Explore" dropped');
    expect(notes).toMatch(
      /PreCompact\[0\]\.hooks\[0\] \([^)]*\): here this hook only observes: whatever it answers, the compaction goes on/,
    );
    expect(notes).toMatch(
      /SubagentStop\[0\]\.hooks\[0\] \([^)]*\): here this hook only observes: a block does not keep the subagent going/,
    );
    expect(notes).toMatch(
      /PostToolUseFailure\[0\]\.hooks\[0\] \([^)]*\): Claude Code feeds this hook's added context/,
    );
  });
});

describe('quoteArgument', () => {
  it('gives /bin/sh back every word exactly, whatever characters it holds', () => {
    const words = ['plain', '', "it's", 'a b', '$HOME', '`id`', '"q"', 'back\\slash', 'new\nline'];
    const printed = execFileSync('/bin/sh', [
      '-c',
      `for word in ${words.map((word) => quoteArgument(word)).join(' ')}; do printf '%s\\0' "$word"; done`,
    ]).toString();
    expect(printed.split('\0').slice(0, -1)).toEqual(words);
  });

  it('leaves $CLAUDE_PROJECT_DIR expandable and quotes the rest', () => {
    const printed = execFileSync(
      '/bin/sh',
      ['-c', `printf '%s' ${quoteArgument(`${PROJECT_DIR_PLACEHOLDER}/a b/$CLAUDE_PROJECT_DIR'`)}`],
      { env: { CLAUDE_PROJECT_DIR: '/p q' } },
    ).toString();
    expect(printed).toBe("/p q/a b//p q'");
  });
});
