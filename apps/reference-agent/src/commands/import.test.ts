import fs from 'node:fs';
import path from 'node:path';
import { HOOK_EVENTS } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from '../test-helpers/cli.js';

const TIMEOUT = 60_000;

const SETTINGS = {
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: '~/.claude/hooks/guard.sh', timeout: 10 }],
      },
      { matcher: 'Edit.*', hooks: [{ type: 'command', command: 'x' }] },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'node stop.js' }] }],
    Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
  },
};

const NOTIFICATION = HOOK_EVENTS.includes('Notification' as never);

const EXPECTED_HOOKS: Record<string, unknown> = {
  PreToolUse: [
    {
      matcher: { tool: ['bash'] },
      hooks: [
        {
          type: 'command',
          command: '~/.claude/hooks/guard.sh',
          protocol: 'claude-code',
          name: 'guard',
          timeout: 10,
        },
      ],
    },
    {
      matcher: { tool: ['edit_file'] },
      hooks: [{ type: 'command', command: 'x', protocol: 'claude-code', timeout: 600 }],
    },
  ],
  Stop: [
    {
      hooks: [
        {
          type: 'command',
          command: 'node stop.js',
          protocol: 'claude-code',
          name: 'stop',
          timeout: 600,
        },
      ],
    },
  ],
  ...(NOTIFICATION
    ? {
        Notification: [
          {
            hooks: [
              { type: 'command', command: 'notify-send hi', protocol: 'claude-code', timeout: 600 },
            ],
          },
        ],
      }
    : {}),
};

function workspaceWithSettings(settings: unknown = SETTINGS) {
  const workspace = makeWorkspace();
  const file = path.join(workspace.osHome, '.claude', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(settings));
  const where = ['--home', workspace.home, '--project', workspace.project];
  return { ...workspace, settingsFile: file, where };
}

describe('soong-agent hooks import', () => {
  it(
    'prints the converted hooks.json from ~/.claude/settings.json and each refusal with its path',
    async () => {
      const workspace = workspaceWithSettings();
      const result = await runCli(['hooks', 'import', '--from', 'claude', ...workspace.where], {
        env: workspace.env,
      });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ version: 1, hooks: EXPECTED_HOOKS });
      expect(result.stderr).toContain(
        'note hooks.PreToolUse[1].matcher: regular expression "Edit.*" matches exactly Edit, MultiEdit, NotebookEdit among Claude Code\'s tools: converted to {"tool": ["edit_file"]} (NotebookEdit: no soong-agent equivalent)',
      );
      expect(result.stderr).toContain(
        'note (environment): Claude Code gives hooks its whole environment',
      );
      const count = NOTIFICATION ? 4 : 3;
      expect(result.stderr).toContain(
        `converted ${count} hooks in ${count} rules from ${workspace.settingsFile}${NOTIFICATION ? '' : '; 1 refused (listed above)'}\n`,
      );
      expect(fs.existsSync(path.join(workspace.home, 'hooks.json'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'exits 2 with nothing on stdout when nothing can be converted',
    async () => {
      const workspace = workspaceWithSettings({
        hooks: { PostCompact: [{ hooks: [{ type: 'command', command: 'x' }] }] },
      });
      const result = await runCli(
        ['hooks', 'import', '--from', 'claude', workspace.settingsFile, ...workspace.where],
        { env: workspace.env },
      );
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`nothing to import from ${workspace.settingsFile}`);
    },
    TIMEOUT,
  );

  it(
    'exits 2 for another --from, a missing file or a file that is not JSON',
    async () => {
      const workspace = workspaceWithSettings();
      const run = (args: string[]) =>
        runCli(['hooks', 'import', ...args, ...workspace.where], { env: workspace.env });
      const other = await run(['--from', 'cursor']);
      expect(other.code).toBe(2);
      expect(other.stderr).toContain(
        `no Cursor hooks file at ${path.join(workspace.osHome, '.cursor', 'hooks.json')}`,
      );
      const unknown = await run(['--from', 'windsurf']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('sources: claude, codex, gemini, cursor, copilot');
      const missing = await run(['--from', 'claude', path.join(workspace.root, 'nope.json')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('ENOENT');
      const broken = path.join(workspace.root, 'broken.json');
      fs.writeFileSync(broken, '{"hooks": ');
      const notJson = await run(['--from', 'claude', broken]);
      expect(notJson.code).toBe(2);
      expect(notJson.stderr).toContain(
        `${broken}:1:11 invalid JSON: expected a value; write a string, number, object, array, true, false or null; nothing was imported`,
      );
      expect((await run([])).code).toBe(2);
    },
    TIMEOUT,
  );

  it(
    'merges into the home hooks.json with --write, keeps the old file as hooks.json.bak, and validates',
    async () => {
      const workspace = workspaceWithSettings();
      const hooksFile = path.join(workspace.home, 'hooks.json');
      const old = `${JSON.stringify(
        {
          $schema: 'x',
          version: 1,
          hooks: { Stop: [{ hooks: [{ type: 'command', command: 'mine', name: 'mine' }] }] },
        },
        null,
        2,
      )}\n`;
      fs.writeFileSync(hooksFile, old, { mode: 0o600 });
      const importArgs = ['hooks', 'import', '--from', 'claude', '--write', ...workspace.where];
      const written = await runCli(importArgs, { env: workspace.env });
      expect(written.code).toBe(0);
      expect(written.stdout).toContain(`wrote ${NOTIFICATION ? 4 : 3} new rules to ${hooksFile}`);
      expect(fs.readFileSync(`${hooksFile}.bak`, 'utf8')).toBe(old);
      expect(fs.statSync(hooksFile).mode & 0o777).toBe(0o600);
      const merged = JSON.parse(fs.readFileSync(hooksFile, 'utf8'));
      expect(merged.$schema).toBe('x');
      expect(
        merged.hooks.Stop.map((rule: { hooks: { command: string }[] }) => rule.hooks[0]?.command),
      ).toEqual(['mine', 'node stop.js']);
      expect(withoutOrigins(merged.hooks.PreToolUse)).toEqual(EXPECTED_HOOKS.PreToolUse);
      // Each written hook says where it came from, so the next import updates it in place.
      expect(merged.hooks.PreToolUse[0].hooks[0].imported_from).toEqual({
        file: '~/.claude/settings.json',
        path: 'hooks.PreToolUse[0].hooks[0]',
      });

      const validated = await runCli(['hooks', 'validate', ...workspace.where], {
        env: workspace.env,
      });
      expect(validated.code).toBe(0);
      const listed = await runCli(['hooks', 'list', ...workspace.where], { env: workspace.env });
      expect(listed.stdout).toContain(
        'guard  timeout=10s  on_failure=ignore  protocol=claude-code',
      );

      const again = await runCli(importArgs, { env: workspace.env });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('already has every converted rule; nothing written');
      expect(JSON.parse(fs.readFileSync(hooksFile, 'utf8'))).toEqual(merged);
    },
    TIMEOUT,
  );

  it(
    'creates hooks.json with --write when the home has none, without a backup',
    async () => {
      const workspace = workspaceWithSettings();
      fs.rmSync(workspace.home, { recursive: true });
      const result = await runCli(
        ['hooks', 'import', '--from', 'claude', '--write', ...workspace.where],
        { env: workspace.env },
      );
      expect(result.code).toBe(0);
      const hooksFile = path.join(workspace.home, 'hooks.json');
      const written = JSON.parse(fs.readFileSync(hooksFile, 'utf8'));
      expect(written.version).toBe(1);
      expect(
        Object.fromEntries(
          Object.entries(written.hooks).map(([event, rules]) => [event, withoutOrigins(rules)]),
        ),
      ).toEqual(EXPECTED_HOOKS);
      expect(fs.statSync(hooksFile).mode & 0o777).toBe(0o600);
      expect(fs.existsSync(`${hooksFile}.bak`)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'writes nothing with --write when the home hooks.json is broken or the merge would be invalid',
    async () => {
      const workspace = workspaceWithSettings();
      const hooksFile = path.join(workspace.home, 'hooks.json');
      const run = () =>
        runCli(['hooks', 'import', '--from', 'claude', '--write', ...workspace.where], {
          env: workspace.env,
        });
      fs.writeFileSync(hooksFile, '{"version": 1, "hooks": {');
      const broken = await run();
      expect(broken.code).toBe(2);
      expect(broken.stderr).toContain('nothing was written');
      expect(fs.readFileSync(hooksFile, 'utf8')).toBe('{"version": 1, "hooks": {');
      expect(fs.existsSync(`${hooksFile}.bak`)).toBe(false);

      const invalid = '{"version": 2, "hooks": {}}';
      fs.writeFileSync(hooksFile, invalid);
      const rejected = await run();
      expect(rejected.code).toBe(2);
      expect(rejected.stderr).toContain(
        `the merged ${hooksFile} would be invalid; nothing was written`,
      );
      expect(rejected.stderr).toContain(`${hooksFile} version: `);
      expect(fs.readFileSync(hooksFile, 'utf8')).toBe(invalid);
      expect(fs.existsSync(`${hooksFile}.bak`)).toBe(false);
    },
    TIMEOUT,
  );
});

/** Rules as written, without the `imported_from` a --write records on each hook. */
function withoutOrigins(rules: unknown): unknown {
  return (rules as { hooks: Record<string, unknown>[] }[]).map((rule) => ({
    ...rule,
    hooks: rule.hooks.map(({ imported_from: _origin, ...hook }) => hook),
  }));
}
