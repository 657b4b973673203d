import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { convertClaudeSettings, quoteArgument } from './convert-settings.js';

// Claude Code's placeholder, written literally in settings files.
const PROJECT_DIR_PLACEHOLDER = ['$', '{CLAUDE_PROJECT_DIR}'].join('');

const hook = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command,
  ...extra,
});
const converted = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command,
  protocol: 'claude-code',
  timeout: 600,
  ...extra,
});
// The notes about one place of the file (the two about every import are tested on their own).
const placeNotes = (result: ReturnType<typeof convertClaudeSettings>) =>
  result.notes.filter((note) => !note.path.startsWith('('));

describe('convertClaudeSettings', () => {
  it('notes the timeout default and the environment once, and settings env by name, when it converts hooks', () => {
    const result = convertClaudeSettings({
      env: { BASH_DEFAULT_TIMEOUT_MS: '1', CC_PROTECT_BRANCHES: 'main' },
      hooks: { Stop: [{ hooks: [hook('a'), hook('b', { timeout: 7 })] }] },
    });
    expect(result.hooks.Stop).toEqual([
      { hooks: [converted('a'), converted('b', { timeout: 7 })] },
    ]);
    expect(result.notes.map((note) => note.path)).toEqual(['env', '(timeout)', '(environment)']);
    expect(result.notes[0]?.message).toContain('BASH_DEFAULT_TIMEOUT_MS, CC_PROTECT_BRANCHES');
    expect(result.notes[0]?.message).toContain('env_allowlist');
    expect(result.notes[1]?.message).toContain('600 s');
  });

  it('exports CLAUDE_PLUGIN_ROOT for a plugin hook, and refuses one outside a plugin', () => {
    const settings = {
      hooks: {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's placeholder, as written in settings
        PreToolUse: [{ matcher: 'Bash', hooks: [hook('"${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"')] }],
      },
    };
    const plugin = convertClaudeSettings(settings, { pluginRoot: "/opt/my plugin's" });
    expect(plugin.hooks.PreToolUse?.[0]?.hooks[0]?.command).toBe(
      `CLAUDE_PLUGIN_ROOT='/opt/my plugin'\\''s'; export CLAUDE_PLUGIN_ROOT; "\${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"`,
    );
    const printed = execFileSync('/bin/sh', [
      '-c',
      `${(plugin.hooks.PreToolUse?.[0]?.hooks[0]?.command ?? '').replace(/;[^;]*$/, '')}; printf %s "$CLAUDE_PLUGIN_ROOT"`,
    ]).toString();
    expect(printed).toBe("/opt/my plugin's");
    const outside = convertClaudeSettings(settings);
    expect(outside.hooks).toEqual({});
    expect(outside.refusals).toEqual([
      {
        path: 'hooks.PreToolUse[0].hooks[0].command',
        reason:
          "uses CLAUDE_PLUGIN_ROOT, which Claude Code sets for a plugin's hooks only: import the plugin's hooks/hooks.json file",
      },
    ]);
  });

  it('turns every exact matcher form into an exact tool list in our names', () => {
    const result = convertClaudeSettings({
      hooks: {
        PreToolUse: [
          { hooks: [hook('a')] },
          { matcher: '', hooks: [hook('b')] },
          { matcher: '*', hooks: [hook('c')] },
          { matcher: 'Bash', hooks: [hook('d')] },
          { matcher: 'Edit|Write', hooks: [hook('e')] },
          { matcher: 'Write|Edit|MultiEdit', hooks: [hook('f')] },
          { matcher: 'Edit, Write', hooks: [hook('g')] },
          { matcher: 'Read,Grep|LS', hooks: [hook('h')] },
          { matcher: 'mcp__memory__create_entities', hooks: [hook('i')] },
        ],
      },
    });
    expect(result.refusals).toEqual([]);
    expect(placeNotes(result)).toEqual([]);
    expect(result.hooks.PreToolUse).toEqual([
      { hooks: [converted('a')] },
      { hooks: [converted('b')] },
      { hooks: [converted('c')] },
      { matcher: { tool: ['bash'] }, hooks: [converted('d')] },
      { matcher: { tool: ['edit_file', 'write_file'] }, hooks: [converted('e')] },
      { matcher: { tool: ['write_file', 'edit_file'] }, hooks: [converted('f')] },
      { matcher: { tool: ['edit_file', 'write_file'] }, hooks: [converted('g')] },
      { matcher: { tool: ['read_file', 'grep', 'list_dir'] }, hooks: [converted('h')] },
      { matcher: { tool: ['mcp__memory__create_entities'] }, hooks: [converted('i')] },
    ]);
    expect([result.ruleCount, result.hookCount]).toEqual([9, 9]);
  });

  it('drops names without an equivalent with a note and refuses a group whose list empties', () => {
    const result = convertClaudeSettings({
      hooks: {
        PostToolUse: [
          { matcher: 'Bash|Glob', hooks: [hook('a')] },
          { matcher: 'Glob|WebFetch', hooks: [hook('b')] },
        ],
      },
    });
    expect(result.hooks.PostToolUse).toEqual([
      { matcher: { tool: ['bash'] }, hooks: [converted('a')] },
    ]);
    expect(placeNotes(result)).toEqual([
      {
        path: 'hooks.PostToolUse[0].matcher',
        message: 'Glob dropped from "Bash|Glob": no soong-agent equivalent; kept bash',
      },
    ]);
    expect(result.refusals).toEqual([
      {
        path: 'hooks.PostToolUse[1].matcher',
        reason: '"Glob|WebFetch" names no tool soong-agent has (Glob, WebFetch)',
      },
    ]);
  });

  it('refuses regex matchers, suggesting the exact list where one exists', () => {
    const result = convertClaudeSettings({
      hooks: {
        PreToolUse: [
          { matcher: 'Edit.*', hooks: [hook('a')] },
          { matcher: '^Bash$', hooks: [hook('b')] },
          { matcher: '(Edit|Write)', hooks: [hook('c')] },
          { matcher: 'mcp__.*', hooks: [hook('d')] },
          { matcher: '.*', hooks: [hook('e')] },
          { matcher: 'Bash(', hooks: [hook('f')] },
          { matcher: 42, hooks: [hook('g')] },
        ],
      },
    });
    expect(result.hookCount).toBe(0);
    expect(result.hooks).toEqual({});
    const exact = 'is a regular expression; soong-agent matchers are exact';
    expect(result.refusals).toEqual([
      {
        path: 'hooks.PreToolUse[0].matcher',
        reason: `"Edit.*" ${exact}; among our tools it matches Edit, MultiEdit: write {"tool": ["edit_file"]}`,
      },
      {
        path: 'hooks.PreToolUse[1].matcher',
        reason: `"^Bash$" ${exact}; among our tools it matches Bash: write {"tool": ["bash"]}`,
      },
      {
        path: 'hooks.PreToolUse[2].matcher',
        reason: `"(Edit|Write)" ${exact}; among our tools it matches Write, Edit, MultiEdit: write {"tool": ["write_file","edit_file"]}`,
      },
      {
        path: 'hooks.PreToolUse[3].matcher',
        reason: `"mcp__.*" ${exact}; it matches none of our tools: list the tools by name`,
      },
      {
        path: 'hooks.PreToolUse[4].matcher',
        reason: `".*" ${exact}; it matches every tool: write the rule without a matcher`,
      },
      {
        path: 'hooks.PreToolUse[5].matcher',
        reason: `"Bash(" ${exact} (and this one is not a valid regular expression)`,
      },
      { path: 'hooks.PreToolUse[6].matcher', reason: '42 is not a string' },
    ]);
  });

  it('keeps SessionStart matchers that list startup (and *), refuses the other sources, and ignores matchers where Claude Code does', () => {
    const result = convertClaudeSettings({
      hooks: {
        SessionStart: [
          { matcher: 'startup', hooks: [hook('a')] },
          { matcher: '*', hooks: [hook('b')] },
          { matcher: 'resume', hooks: [hook('c')] },
          { matcher: 'startup|clear', hooks: [hook('d')] },
        ],
        UserPromptSubmit: [{ matcher: 'anything', hooks: [hook('e')] }],
        Stop: [{ matcher: 'Bash', hooks: [hook('f')] }],
      },
    });
    expect(result.hooks).toEqual({
      SessionStart: [
        { hooks: [converted('a')] },
        { hooks: [converted('b')] },
        { hooks: [converted('d')] },
      ],
      UserPromptSubmit: [{ hooks: [converted('e')] }],
      Stop: [{ hooks: [converted('f')] }],
    });
    expect(result.refusals).toEqual([
      {
        path: 'hooks.SessionStart[2].matcher',
        reason:
          '"resume" never matches here: soong-agent sessions always start fresh (source "startup")',
      },
    ]);
    expect(placeNotes(result)).toEqual([
      {
        path: 'hooks.SessionStart[3].matcher',
        message:
          'clear dropped from "startup|clear": soong-agent sessions always start fresh (source "startup")',
      },
      {
        path: 'hooks.UserPromptSubmit[0].matcher',
        message: '"anything" ignored (Claude Code ignores matchers on UserPromptSubmit)',
      },
      {
        path: 'hooks.Stop[0].matcher',
        message: '"Bash" ignored (Claude Code ignores matchers on Stop)',
      },
    ]);
  });

  it('refuses events we do not have and every hook construct it cannot keep', () => {
    const result = convertClaudeSettings({
      hooks: {
        Notification: [{ hooks: [hook('n')] }],
        SubagentStop: [{ hooks: [hook('s')] }],
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'http', url: 'https://example.com/hook' },
              { type: 'prompt', prompt: 'is this safe?' },
              { type: 'agent', prompt: 'check it' },
              { type: 'mcp_tool', server: 'x', tool: 'y' },
              hook('a', { async: true }),
              hook('b', { asyncRewake: true }),
              hook('c', { if: 'Bash(git *)' }),
              hook('d', { shell: 'powershell' }),
              hook('   '),
              hook('e', { timeout: '5' }),
              hook('f', { args: ['x', 1] }),
              'guard.sh',
              hook('kept'),
            ],
          },
          { matcher: 'Bash', hooks: [] },
          'not a group',
        ],
        Stop: { hooks: [] },
      },
    });
    expect(result.hooks).toEqual({
      PreToolUse: [{ matcher: { tool: ['bash'] }, hooks: [converted('kept')] }],
    });
    const hooks = 'hooks.PreToolUse[0].hooks';
    expect(result.refusals).toEqual([
      {
        path: 'hooks.Notification',
        reason:
          'soong-agent has no Notification event (it has SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop)',
      },
      {
        path: 'hooks.SubagentStop',
        reason:
          'soong-agent has no SubagentStop event (it has SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop)',
      },
      {
        path: `${hooks}[0].type`,
        reason: '"http" hooks are not supported: soong-agent runs command hooks',
      },
      {
        path: `${hooks}[1].type`,
        reason: '"prompt" hooks are not supported: soong-agent runs command hooks',
      },
      {
        path: `${hooks}[2].type`,
        reason: '"agent" hooks are not supported: soong-agent runs command hooks',
      },
      {
        path: `${hooks}[3].type`,
        reason: '"mcp_tool" hooks are not supported: soong-agent runs command hooks',
      },
      {
        path: `${hooks}[4].async`,
        reason:
          'async hooks are not supported: soong-agent waits for every hook, and an async hook cannot block',
      },
      {
        path: `${hooks}[5].asyncRewake`,
        reason:
          'asyncRewake hooks are not supported: soong-agent waits for every hook, and an async hook cannot block',
      },
      {
        path: `${hooks}[6].if`,
        reason:
          'permission-rule filters ("Bash(git *)") are not supported: use a matcher, or test the input in the script',
      },
      {
        path: `${hooks}[7].shell`,
        reason: '"powershell" is not supported: hooks run by /bin/sh (or bash)',
      },
      { path: `${hooks}[8].command`, reason: 'missing or blank' },
      { path: `${hooks}[9].timeout`, reason: '"5" is not a number of seconds > 0' },
      { path: `${hooks}[10].args`, reason: 'not an array of strings' },
      { path: `${hooks}[11]`, reason: 'not a hook object' },
      { path: 'hooks.PreToolUse[1].hooks', reason: 'not a non-empty array of hooks' },
      {
        path: 'hooks.PreToolUse[2]',
        reason: 'not a matcher group (expected {"matcher": …, "hooks": [...]})',
      },
      { path: 'hooks.Stop', reason: 'not an array of matcher groups' },
    ]);
  });

  it('quotes args into one shell command, wraps shell "bash", caps timeouts and notes dropped keys', () => {
    const result = convertClaudeSettings({
      disableAllHooks: true,
      hooks: {
        PreToolUse: [
          {
            hooks: [
              hook('python3', {
                args: [`${PROJECT_DIR_PLACEHOLDER}/.claude/hooks/guard.py`, "it's", ''],
                timeout: 900,
              }),
              hook('[[ -n "$x" ]] && echo y', { shell: 'bash', timeout: 5, async: false }),
              hook('true', { statusMessage: 'checking…', once: true, colour: 'red' }),
            ],
          },
        ],
      },
    });
    expect(result.refusals).toEqual([]);
    expect(result.hooks.PreToolUse?.[0]?.hooks).toEqual([
      converted(`python3 "$CLAUDE_PROJECT_DIR"'/.claude/hooks/guard.py' 'it'\\''s' ''`, {
        timeout: 600,
      }),
      converted(`bash -c '[[ -n "$x" ]] && echo y'`, { timeout: 5 }),
      converted('true'),
    ]);
    expect(placeNotes(result)).toEqual([
      {
        path: 'disableAllHooks',
        message:
          'is true: Claude Code runs none of these hooks; converted anyway (hooks.enabled = false in config.toml turns all hooks off here)',
      },
      {
        path: 'hooks.PreToolUse[0].hooks[0].timeout',
        message: '900 s capped at 600 s (the most a hook may run here)',
      },
      {
        path: 'hooks.PreToolUse[0].hooks[2].statusMessage',
        message: 'statusMessage dropped (soong-agent shows no hook status line)',
      },
      {
        path: 'hooks.PreToolUse[0].hooks[2].once',
        message: 'once dropped (it applies to skills only)',
      },
      {
        path: 'hooks.PreToolUse[0].hooks[2].colour',
        message: 'unknown key "colour" dropped',
      },
    ]);
  });

  it('refuses a file without hooks', () => {
    expect(convertClaudeSettings({ permissions: {} }).refusals).toEqual([
      { path: 'hooks', reason: 'absent: the file configures no hooks' },
    ]);
    expect(convertClaudeSettings([]).refusals).toEqual([
      { path: '(root)', reason: 'not a JSON object (a Claude Code settings file is one)' },
    ]);
    expect(convertClaudeSettings({ hooks: 'x' }).refusals).toEqual([
      { path: 'hooks', reason: 'not an object of events' },
    ]);
  });
});

describe('quoteArgument', () => {
  it('gives /bin/sh back every word exactly, whatever characters it holds', () => {
    const words = ['plain', '', "it's", 'a b', '$HOME', '`id`', '"q"', 'back\\slash', 'new\nline'];
    const printed = execFileSync('/bin/sh', [
      '-c',
      `for word in ${words.map(quoteArgument).join(' ')}; do printf '%s\\0' "$word"; done`,
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
