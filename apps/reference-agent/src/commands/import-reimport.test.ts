import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli, runShell } from '../test-helpers/cli.js';

const TIMEOUT = 60_000;
// Claude Code's placeholder, written literally in plugin hooks files.
const PLUGIN_ROOT = ['$', '{CLAUDE_PLUGIN_ROOT}'].join('');

function workspace(files: Record<string, string> = {}) {
  const made = makeWorkspace();
  const write = (relative: string, content: string, mode = 0o600) => {
    const file = path.join(made.osHome, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content, { mode });
    return file;
  };
  for (const [relative, content] of Object.entries(files)) write(relative, content);
  const where = ['--home', made.home, '--project', made.project];
  const run = (args: string[]) => runCli(['hooks', 'import', ...args, ...where], { env: made.env });
  const hooksFile = path.join(made.home, 'hooks.json');
  const written = () =>
    JSON.parse(fs.readFileSync(hooksFile, 'utf8')) as {
      hooks: Record<string, { matcher?: unknown; hooks: Record<string, unknown>[] }[]>;
    };
  return { ...made, write, where, run, hooksFile, written };
}

const claudeSettings = (guard: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: guard, timeout: 10 }],
        },
      ],
      ...extra,
    },
  });

describe('soong-agent hooks import --write, again', () => {
  it(
    'updates the rule that came from the same source hook in place, keeps hand-written rules, removes a deleted hook',
    async () => {
      const made = workspace({
        '.claude/settings.json': claudeSettings('~/.claude/hooks/bash_guard.sh', {
          Stop: [{ hooks: [{ type: 'command', command: 'npm test --silent' }] }],
        }),
      });
      // A hand-written rule before the import, which no import may touch.
      fs.writeFileSync(
        made.hooksFile,
        JSON.stringify({
          version: 1,
          hooks: {
            PreToolUse: [{ hooks: [{ type: 'command', command: 'mine.sh', name: 'mine' }] }],
          },
        }),
        { mode: 0o600 },
      );
      const first = await made.run(['--from', 'claude', '--write']);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('wrote 2 new rules');
      expect(made.written().hooks.PreToolUse).toHaveLength(2);

      // The user edits the hook in Claude Code's settings (a new flag, a new timeout) and
      // drops the Stop hook.
      made.write(
        '.claude/settings.json',
        claudeSettings('~/.claude/hooks/bash_guard.sh --strict').replace('10', '20'),
      );
      const second = await made.run(['--from', 'claude', '--write']);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(`updated ${made.hooksFile} (the previous file is kept`);
      expect(second.stdout).toContain('updated 1 rule in place');
      expect(second.stdout).toContain(
        'removed hooks.Stop[0]: it came from ~/.claude/settings.json hooks.Stop[0].hooks[0], which no longer has that hook',
      );
      const after = made.written();
      // One rule for bash_guard, updated, named as before (no bash_guard-2), after the user's own.
      expect(after.hooks.PreToolUse).toEqual([
        { hooks: [{ type: 'command', command: 'mine.sh', name: 'mine' }] },
        {
          matcher: { tool: ['bash'] },
          hooks: [
            {
              type: 'command',
              command: '~/.claude/hooks/bash_guard.sh --strict',
              protocol: 'claude-code',
              name: 'bash_guard',
              timeout: 20,
              imported_from: {
                file: '~/.claude/settings.json',
                path: 'hooks.PreToolUse[0].hooks[0]',
              },
            },
          ],
        },
      ]);
      expect(after.hooks.Stop).toBeUndefined();
      expect(fs.readFileSync(`${made.hooksFile}.bak`, 'utf8')).toContain('npm test --silent');

      const third = await made.run(['--from', 'claude', '--write']);
      expect(third.stdout).toContain('already has every converted rule; nothing written');
      const validated = await runCli(['hooks', 'validate', ...made.where], { env: made.env });
      expect(validated.code).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'names the rules an earlier import made when the source has no hook left (nothing is written)',
    async () => {
      const made = workspace({
        '.claude/settings.json': claudeSettings('~/.claude/hooks/bash_guard.sh'),
      });
      expect((await made.run(['--from', 'claude', '--write'])).code).toBe(0);
      const before = fs.readFileSync(made.hooksFile, 'utf8');
      made.write('.claude/settings.json', JSON.stringify({ hooks: {} }));
      const emptied = await made.run(['--from', 'claude', '--write']);
      expect(emptied.code).toBe(2);
      expect(emptied.stderr).toContain(
        `hooks.PreToolUse[0] (bash_guard) in ${made.hooksFile} was imported from this file, which no longer has its hook`,
      );
      expect(fs.readFileSync(made.hooksFile, 'utf8')).toBe(before);
    },
    TIMEOUT,
  );

  it(
    'adopts an identical rule written by an older import (without imported_from) instead of doubling it',
    async () => {
      const made = workspace({
        '.claude/settings.json': claudeSettings('~/.claude/hooks/bash_guard.sh'),
      });
      const printed = await made.run(['--from', 'claude']);
      // What an older import wrote: the printed rules, no origins.
      fs.writeFileSync(made.hooksFile, printed.stdout, { mode: 0o600 });
      const again = await made.run(['--from', 'claude', '--write']);
      expect(again.code).toBe(0);
      const rules = made.written().hooks.PreToolUse ?? [];
      expect(rules).toHaveLength(1);
      expect(rules[0]?.hooks[0]?.imported_from).toEqual({
        file: '~/.claude/settings.json',
        path: 'hooks.PreToolUse[0].hooks[0]',
      });
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks import --from copilot: cwd', () => {
  it(
    'a cwd outside the project becomes a cd the hook really runs in; inside it stays working_dir',
    async () => {
      const made = workspace();
      const tools = path.join(made.root, "team's tools");
      fs.mkdirSync(tools);
      const seen = path.join(made.root, 'seen');
      fs.writeFileSync(
        path.join(tools, 'guard.sh'),
        `#!/bin/sh\ncat >/dev/null\npwd > '${seen}'\n`,
        {
          mode: 0o700,
        },
      );
      fs.mkdirSync(path.join(made.project, '.github', 'hooks'), { recursive: true });
      made.write(
        '.copilot/hooks/guard.json',
        JSON.stringify({
          version: 1,
          hooks: {
            preToolUse: [
              { type: 'command', bash: './guard.sh', cwd: tools, matcher: 'bash' },
              { type: 'command', bash: 'true', cwd: '.github/hooks', matcher: 'bash' },
              { type: 'command', bash: 'true', cwd: '~/.copilot', matcher: 'bash' },
            ],
          },
        }),
      );
      const result = await made.run(['--from', 'copilot', '--write']);
      expect(result.stderr).toContain('lies outside the project dir');
      expect(result.code).toBe(0);
      const hooks = (made.written().hooks.PreToolUse ?? []).map((rule) => rule.hooks[0]);
      expect(hooks[0]?.command).toBe(
        `cd -- '${tools.replaceAll("'", `'\\''`)}' || exit; ./guard.sh`,
      );
      expect(hooks[0]?.working_dir).toBeUndefined();
      expect(hooks[1]?.working_dir).toBe('.github/hooks');
      expect(hooks[2]?.command).toBe('cd -- ~/.copilot || exit; true');

      const tested = await runCli(
        [
          'hooks',
          'test',
          'PreToolUse',
          '--tool',
          'bash',
          '--input',
          '{"command":"ls"}',
          ...made.where,
        ],
        { env: made.env },
      );
      expect(tested.code).toBe(0);
      expect(fs.readFileSync(seen, 'utf8').trim()).toBe(tools);
    },
    TIMEOUT,
  );

  it(
    'a converted hook the config rejects is named by its source file and JSON path, not a line of a file not on disk',
    async () => {
      const made = workspace();
      made.write(
        '.copilot/hooks/bad.json',
        JSON.stringify({
          version: 1,
          hooks: { agentStop: [{ type: 'command', bash: 'printf a\u0000b' }] },
        }),
      );
      const result = await made.run(['--from', 'copilot', '--write']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('would be invalid; nothing was written');
      expect(result.stderr).toContain(
        '~/.copilot/hooks/bad.json hooks.agentStop[0] (converted as command): ',
      );
      expect(result.stderr).not.toMatch(/hooks\.json:\d+:\d+/);
      expect(fs.existsSync(made.hooksFile)).toBe(false);
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks import: notes', () => {
  it(
    'codex: notify is explained once, and the environment note is printed once for two files',
    async () => {
      const made = workspace({
        '.codex/hooks.json': JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
        }),
        '.codex/config.toml': [
          'notify = ["python3", "/opt/notify.py"]',
          '[[hooks.PreToolUse]]',
          'matcher = "Bash"',
          '[[hooks.PreToolUse.hooks]]',
          'type = "command"',
          'command = "true"',
        ].join('\n'),
      });
      const result = await made.run(['--from', 'codex']);
      expect(result.code).toBe(0);
      const notes = result.stderr.split('\n').filter((line) => line.startsWith('note '));
      const environment = notes.filter((line) => line.includes('(environment)'));
      expect(environment).toHaveLength(1);
      expect(environment[0]?.match(/SOONG_AGENT_/g)).toHaveLength(1);
      const notify = notes.filter((line) => line.includes('notify'));
      expect(notify).toHaveLength(1);
      expect(notify[0]).toContain('a Stop hook');
      expect(notify[0]).toContain('"python3 /opt/notify.py \\"$(cat)\\""');
    },
    TIMEOUT,
  );

  it(
    'a broken Claude Code settings file gets file:line:column, the problem and the fix',
    async () => {
      const made = workspace({ '.claude/settings.json': '{\n  "hooks": {},\n}\n' });
      const result = await made.run(['--from', 'claude']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        '~/.claude/settings.json:3:1 invalid JSON: trailing comma; remove the comma before "}"; nothing was imported',
      );
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks import --from claude: plugins', () => {
  const pluginHooks = JSON.stringify({
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: `${PLUGIN_ROOT}/scripts/guard.sh` }],
        },
      ],
    },
  });
  const manifest = JSON.stringify({ name: 'guard', version: '1.2.0' });

  it(
    'names each enabled plugin with the command that imports its hooks, from the unversioned marketplace copy',
    async () => {
      const made = workspace({
        '.claude/settings.json': JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
          enabledPlugins: { 'guard@tools': true, 'cached@tools': true, 'off@tools': false },
        }),
        '.claude/plugins/marketplaces/tools/.claude-plugin/marketplace.json': JSON.stringify({
          name: 'tools',
          plugins: [{ name: 'guard', source: './plugins/guard' }],
        }),
        '.claude/plugins/marketplaces/tools/plugins/guard/.claude-plugin/plugin.json': manifest,
        '.claude/plugins/marketplaces/tools/plugins/guard/hooks/hooks.json': pluginHooks,
        '.claude/plugins/cache/tools/cached/0.3.1/.claude-plugin/plugin.json': manifest,
        '.claude/plugins/cache/tools/cached/0.3.1/hooks/hooks.json': pluginHooks,
      });
      const result = await made.run(['--from', 'claude']);
      expect(result.code).toBe(0);
      const notes = result.stderr.split('\n').filter((line) => line.includes('enabledPlugins'));
      expect(notes).toHaveLength(2);
      const command = (note: string | undefined) =>
        /with: (soong-agent .*?)(?:;|$)/.exec(note ?? '')?.[1];
      const guard = notes.find((note) => note.includes('"guard@tools"'));
      expect(command(guard)).toBe(
        `soong-agent hooks import --from claude ~/.claude/plugins/marketplaces/tools/plugins/guard/hooks/hooks.json --plugin-root ~/.claude/plugins/marketplaces/tools/plugins/guard --home ${made.home}`,
      );
      const cached = notes.find((note) => note.includes('"cached@tools"'));
      expect(cached).toContain('version 0.3.1');
      expect(cached).toContain('run the import again after each update');

      // The command as printed works (the shell expands ~), here with --write added.
      const cli = `node ${JSON.stringify(path.resolve('dist/cli.js'))}`;
      const pasted = await runShell(
        `${(command(guard) ?? '').replace('soong-agent', cli)} --project ${made.project} --write`,
        { env: made.env },
      );
      expect(pasted.code).toBe(0);
      const rule = made.written().hooks.PreToolUse?.[0];
      expect(rule?.hooks[0]?.command).toContain('scripts/guard.sh');
    },
    TIMEOUT,
  );

  it(
    'quotes a hostile marketplace folder name in the printed command, and ignores a source outside the marketplace',
    async () => {
      const evil = "m'$(touch PWNED)";
      const made = workspace({
        '.claude/settings.json': JSON.stringify({
          enabledPlugins: { [`guard@${evil}`]: true, 'escape@tools': true },
        }),
        [`.claude/plugins/marketplaces/${evil}/.claude-plugin/marketplace.json`]: JSON.stringify({
          plugins: [{ name: 'guard', source: './guard' }],
        }),
        [`.claude/plugins/marketplaces/${evil}/guard/hooks/hooks.json`]: pluginHooks,
        '.claude/plugins/marketplaces/tools/.claude-plugin/marketplace.json': JSON.stringify({
          plugins: [{ name: 'escape', source: '../../cache/x' }],
        }),
        '.claude/plugins/cache/x/hooks/hooks.json': pluginHooks,
      });
      const result = await made.run(['--from', 'claude']);
      const notes = result.stderr.split('\n').filter((line) => line.includes('enabledPlugins'));
      expect(notes.find((note) => note.includes('escape@tools'))).toContain('is not installed');
      const guard = notes.find((note) => note.includes('guard@'));
      const command = /with: (soong-agent .*?)(?:; |$)/.exec(guard ?? '')?.[1] ?? '';
      expect(command).toContain(
        "--plugin-root ~/'.claude/plugins/marketplaces/m'\\''$(touch PWNED)/guard'",
      );
      const cli = `node ${JSON.stringify(path.resolve('dist/cli.js'))}`;
      const pasted = await runShell(
        `${command.replace('soong-agent', cli)} --project ${made.project} --write`,
        { env: made.env, cwd: made.root },
      );
      expect(pasted.code).toBe(0);
      expect(fs.existsSync(path.join(made.root, 'PWNED'))).toBe(false);
      expect(made.written().hooks.PreToolUse).toHaveLength(1);
    },
    TIMEOUT,
  );

  it(
    'importing from the versioned cache says the path breaks on update; an import of the next version updates in place',
    async () => {
      const made = workspace({
        '.claude/plugins/cache/tools/cached/0.3.1/.claude-plugin/plugin.json': manifest,
        '.claude/plugins/cache/tools/cached/0.3.1/hooks/hooks.json': pluginHooks,
        '.claude/plugins/cache/tools/cached/0.4.0/.claude-plugin/plugin.json': manifest,
        '.claude/plugins/cache/tools/cached/0.4.0/hooks/hooks.json': pluginHooks,
      });
      const file = (version: string) =>
        path.join(made.osHome, '.claude/plugins/cache/tools/cached', version, 'hooks/hooks.json');
      const first = await made.run(['--from', 'claude', file('0.3.1'), '--write']);
      expect(first.code).toBe(0);
      expect(first.stderr).toContain('(plugin cache)');
      expect(first.stderr).toContain('version 0.3.1');
      expect(first.stderr).toContain(
        'a plugin update installs a new version folder and removes this one',
      );
      const second = await made.run(['--from', 'claude', file('0.4.0'), '--write']);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('updated 1 rule in place');
      const rules = made.written().hooks.PreToolUse ?? [];
      expect(rules).toHaveLength(1);
      expect(rules[0]?.hooks[0]?.command).toContain('0.4.0');
    },
    TIMEOUT,
  );
});
