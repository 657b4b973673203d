import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from '../test-helpers/cli.js';

const TIMEOUT = 60_000;
// Claude Code's placeholder, written literally in settings files.
const PLUGIN_ROOT = ['$', '{CLAUDE_PLUGIN_ROOT}'].join('');

function workspace(files: Record<string, string>) {
  const made = makeWorkspace();
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(made.osHome, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  const where = ['--home', made.home, '--project', made.project];
  const run = (args: string[]) => runCli(['hooks', 'import', ...args, ...where], { env: made.env });
  return { ...made, where, run };
}

const rulesOf = (stdout: string) =>
  JSON.parse(stdout).hooks as Record<
    string,
    { matcher?: unknown; hooks: Record<string, unknown>[] }[]
  >;

describe('soong-agent hooks import --from <agent>', () => {
  it(
    'codex: ~/.codex/hooks.json and the [hooks] table of ~/.codex/config.toml by default',
    async () => {
      const made = workspace({
        '.codex/hooks.json': JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [{ type: 'command', command: 'python3 ~/.codex/hooks/guard.py' }],
              },
            ],
          },
        }),
        '.codex/config.toml': [
          'model = "gpt-5"',
          '[[hooks.Stop]]',
          '[[hooks.Stop.hooks]]',
          'type = "command"',
          'command = "npm test --silent"',
          'timeout = 120',
        ].join('\n'),
      });
      const result = await made.run(['--from', 'codex']);
      expect(result.code).toBe(0);
      const rules = rulesOf(result.stdout);
      expect(rules.PreToolUse?.[0]).toEqual({
        matcher: { tool: ['bash'] },
        hooks: [
          {
            type: 'command',
            command: 'python3 ~/.codex/hooks/guard.py',
            protocol: 'codex',
            name: 'guard',
            timeout: 600,
          },
        ],
      });
      expect(rules.Stop?.[0]?.hooks[0]).toMatchObject({
        command: 'npm test --silent',
        protocol: 'codex',
        timeout: 120,
      });
    },
    TIMEOUT,
  );

  it(
    "gemini: milliseconds become seconds; cursor: a user-level file's relative scripts are written under ~/ and run",
    async () => {
      const made = workspace({
        '.gemini/settings.json': JSON.stringify({
          hooks: {
            BeforeTool: [
              {
                matcher: 'run_shell_command',
                hooks: [{ type: 'command', command: '~/.gemini/guard.sh', timeout: 3000 }],
              },
            ],
          },
        }),
        '.cursor/hooks.json': JSON.stringify({
          version: 1,
          hooks: { stop: [{ command: './hooks/gate.sh' }] },
        }),
      });
      const gemini = await made.run(['--from', 'gemini']);
      expect(gemini.code).toBe(0);
      expect(rulesOf(gemini.stdout).PreToolUse?.[0]?.hooks[0]).toMatchObject({
        protocol: 'gemini',
        timeout: 3,
      });
      const cursor = await made.run(['--from', 'cursor']);
      expect(cursor.code).toBe(0);
      // Kept under ~/ as the other converters keep it, not pinned to this machine's home folder.
      expect(rulesOf(cursor.stdout).Stop?.[0]?.hooks[0]?.command).toBe('~/.cursor/hooks/gate.sh');
      // And it runs: the shell expands ~ to the home the script is in.
      const gate = path.join(made.osHome, '.cursor', 'hooks', 'gate.sh');
      const marker = path.join(made.root, 'gate-ran');
      fs.mkdirSync(path.dirname(gate), { recursive: true });
      fs.writeFileSync(gate, `#!/bin/sh\ncat >/dev/null\ntouch '${marker}'\n`, { mode: 0o700 });
      expect((await made.run(['--from', 'cursor', '--write'])).code).toBe(0);
      const tested = await runCli(['hooks', 'test', 'Stop', ...made.where], { env: made.env });
      expect(tested.code).toBe(0);
      expect(fs.existsSync(marker)).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'copilot: every ~/.copilot/hooks/*.json, refusals named by file',
    async () => {
      const made = workspace({
        '.copilot/hooks/a.json': JSON.stringify({
          version: 1,
          hooks: { preToolUse: [{ type: 'command', bash: './a.sh', matcher: 'bash' }] },
        }),
        '.copilot/hooks/b.json': JSON.stringify({
          version: 1,
          hooks: {
            errorOccurred: [{ type: 'command', bash: './b.sh' }],
            postToolUse: [{ type: 'command', bash: './a.sh' }],
          },
        }),
      });
      const result = await made.run(['--from', 'copilot']);
      expect(result.code).toBe(0);
      expect(rulesOf(result.stdout).PreToolUse?.[0]?.hooks[0]).toMatchObject({
        protocol: 'copilot',
        on_failure: 'deny',
        timeout: 30,
      });
      expect(result.stderr).toContain('refused b.json: hooks.errorOccurred:');
      // the same script in two files: two hooks, two names
      const rules = rulesOf(result.stdout);
      expect([
        rules.PreToolUse?.[0]?.hooks[0]?.name,
        rules.PostToolUse?.[0]?.hooks[0]?.name,
      ]).toEqual(['a', 'a-2']);
    },
    TIMEOUT,
  );

  it(
    'claude: real-looking settings with PostToolUseFailure, PreCompact, SubagentStart and SubagentStop convert, write and validate',
    async () => {
      const made = workspace({
        '.claude/settings.json': JSON.stringify({
          permissions: { allow: ['Bash(npm test)'] },
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [{ type: 'command', command: '~/.claude/hooks/bash-guard.sh', timeout: 10 }],
              },
            ],
            PostToolUseFailure: [
              {
                matcher: 'Bash|Edit|Write',
                hooks: [{ type: 'command', command: '~/.claude/hooks/log-failure.sh' }],
              },
            ],
            PreCompact: [
              {
                matcher: 'auto',
                hooks: [{ type: 'command', command: '~/.claude/hooks/save-transcript.sh' }],
              },
            ],
            SubagentStart: [
              { hooks: [{ type: 'command', command: '~/.claude/hooks/subagent-log.sh start' }] },
            ],
            SubagentStop: [
              {
                matcher: 'code-reviewer',
                hooks: [{ type: 'command', command: '~/.claude/hooks/subagent-log.sh stop' }],
              },
            ],
          },
        }),
      });
      const printed = await made.run(['--from', 'claude']);
      expect(printed.code).toBe(0);
      expect(printed.stderr).not.toContain('refused');
      const rules = rulesOf(printed.stdout);
      expect(Object.keys(rules).sort()).toEqual([
        'PostToolUseFailure',
        'PreCompact',
        'PreToolUse',
        'SubagentStart',
        'SubagentStop',
      ]);
      expect(rules.PostToolUseFailure?.[0]).toMatchObject({
        matcher: { tool: ['bash', 'edit_file', 'write_file'] },
        hooks: [{ command: '~/.claude/hooks/log-failure.sh', protocol: 'claude-code' }],
      });
      expect(rules.SubagentStop?.[0]?.hooks[0]).toMatchObject({
        command: '~/.claude/hooks/subagent-log.sh stop',
        protocol: 'claude-code',
      });
      expect(printed.stderr).toContain(
        'a block does not keep the subagent going (Claude Code may let it)',
      );
      const written = await made.run(['--from', 'claude', '--write']);
      expect(written.code).toBe(0);
      const validated = await runCli(['hooks', 'validate', ...made.where], { env: made.env });
      expect(validated.code).toBe(0);
      const hooksJson = JSON.parse(fs.readFileSync(path.join(made.home, 'hooks.json'), 'utf8'));
      expect(Object.keys(hooksJson.hooks).sort()).toEqual(Object.keys(rules).sort());
    },
    TIMEOUT,
  );

  it(
    'copilot: a script without its exec bit is named with the chmod +x that fixes it',
    async () => {
      const made = workspace({
        '.copilot/hooks/guard.json': JSON.stringify({
          version: 1,
          hooks: {
            preToolUse: [
              { type: 'command', bash: './scripts/guard.sh', matcher: 'bash' },
              { type: 'command', bash: './scripts/ok.sh', matcher: 'bash' },
              { type: 'command', bash: './scripts/missing.sh', matcher: 'bash' },
            ],
            PostToolUse: [{ type: 'command', bash: '~/bin/telemetry.sh' }],
          },
        }),
        'bin/telemetry.sh': '#!/bin/sh\nexit 0\n',
      });
      const scripts = path.join(made.project, 'scripts');
      fs.mkdirSync(scripts, { recursive: true });
      fs.writeFileSync(path.join(scripts, 'guard.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o644 });
      fs.writeFileSync(path.join(scripts, 'ok.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      fs.chmodSync(path.join(made.osHome, 'bin', 'telemetry.sh'), 0o600);
      const result = await made.run(['--from', 'copilot']);
      expect(result.code).toBe(0);
      const notes = result.stderr.split('\n').filter((line) => line.includes('no exec bit'));
      expect(notes).toEqual([
        expect.stringContaining(
          `hooks.preToolUse[0] (guard): ${path.join(scripts, 'guard.sh')} has no exec bit`,
        ),
        expect.stringContaining(
          `hooks.PostToolUse[0] (telemetry): ${path.join(made.osHome, 'bin', 'telemetry.sh')} has no exec bit`,
        ),
      ]);
      expect(notes[0]).toContain(`chmod +x ${path.join(scripts, 'guard.sh')}`);
      // What the note says is true: /bin/sh cannot run the script as the hook command does.
      const ran = spawnSync('/bin/sh', ['-c', './scripts/guard.sh'], { cwd: made.project });
      expect(ran.status).toBe(126);
    },
    TIMEOUT,
  );

  it(
    'a plugin found by its .claude-plugin/plugin.json (hooks file elsewhere) or --plugin-root gets CLAUDE_PLUGIN_ROOT',
    async () => {
      const made = workspace({
        'plugins/guard/.claude-plugin/plugin.json': JSON.stringify({
          name: 'guard',
          hooks: './config/hooks.json',
        }),
        'plugins/guard/config/hooks.json': JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [{ type: 'command', command: `node "${PLUGIN_ROOT}/guard.mjs"` }],
              },
            ],
          },
        }),
        'loose/hooks.json': JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [{ type: 'command', command: '$CLAUDE_PLUGIN_ROOT/x.sh' }],
              },
            ],
          },
        }),
      });
      const root = path.join(made.osHome, 'plugins', 'guard');
      for (const file of [
        path.join(root, '.claude-plugin', 'plugin.json'),
        path.join(root, 'config', 'hooks.json'),
      ]) {
        const result = await made.run(['--from', 'claude', file]);
        expect(result.code, result.stderr).toBe(0);
        expect(rulesOf(result.stdout).PreToolUse?.[0]?.hooks[0]?.command).toContain(
          `CLAUDE_PLUGIN_ROOT=${root}; export CLAUDE_PLUGIN_ROOT;`,
        );
      }
      const loose = path.join(made.osHome, 'loose', 'hooks.json');
      const refused = await made.run(['--from', 'claude', loose]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--plugin-root');
      const named = await made.run(['--from', 'claude', loose, '--plugin-root', root]);
      expect(named.code).toBe(0);
    },
    TIMEOUT,
  );

  it(
    "--write replaces a planted hooks.json.bak symlink instead of writing through it, and says a project's hooks now run for every project",
    async () => {
      const made = workspace({});
      const settings = path.join(made.project, '.claude', 'settings.json');
      fs.mkdirSync(path.dirname(settings), { recursive: true });
      fs.writeFileSync(
        settings,
        JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npm test' }] }] },
        }),
      );
      const hooksFile = path.join(made.home, 'hooks.json');
      fs.writeFileSync(hooksFile, '{"version": 1, "hooks": {}}\n', { mode: 0o600 });
      const victim = path.join(made.root, 'victim.txt');
      fs.writeFileSync(victim, 'precious');
      fs.symlinkSync(victim, `${hooksFile}.bak`);
      const result = await made.run(['--from', 'claude', settings, '--write']);
      expect(result.code, result.stderr).toBe(0);
      expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
      expect(fs.lstatSync(`${hooksFile}.bak`).isSymbolicLink()).toBe(false);
      expect(fs.readFileSync(`${hooksFile}.bak`, 'utf8')).toBe('{"version": 1, "hooks": {}}\n');
      expect(result.stdout).toContain(
        "these hooks came from a project's settings; in the agent home they run for every project",
      );
    },
    TIMEOUT,
  );

  it(
    'a ReDoS matcher does not hang the import and 100,000-deep nesting is a clear error',
    async () => {
      const made = workspace({
        'redos.json': JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                matcher: '^(.*.*.*.*.*.*.*.*.*.*)*!$',
                hooks: [{ type: 'command', command: 'a.sh' }],
              },
            ],
          },
        }),
        'deep.json': `{"hooks":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      });
      const redos = await made.run(['--from', 'claude', path.join(made.osHome, 'redos.json')]);
      expect(redos.code).toBe(2);
      expect(redos.stderr).toContain('refused hooks.PreToolUse[0].matcher');
      const deep = await made.run(['--from', 'claude', path.join(made.osHome, 'deep.json')]);
      expect(deep.code).toBe(2);
      expect(deep.stderr).toContain('nested deeper than 256 levels');
    },
    TIMEOUT,
  );
});
