import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { EventRecord } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import { DEMO_DIR } from './commands/demo.js';
import {
  CLI,
  makeWorkspace,
  parseRecords,
  runCli,
  runShell,
  writeScript,
} from './test-helpers/cli.js';
import { printable, printableLines } from './ui/timeline.js';

// The attacker's side, against the built CLI: secrets in the parent env, planted project
// configuration, the agent editing its own hooks, working dirs and path prefixes that try to
// escape, shell metacharacters in arguments, and hostile hook output.

const TIMEOUT = 120_000;
const FIXTURES = fileURLToPath(new URL('./__fixtures__/security/', import.meta.url));
const fixture = (name: string) => path.join(FIXTURES, name);
const PTY_RUN = fileURLToPath(new URL('./test-helpers/pty-run.py', import.meta.url));

type Workspace = ReturnType<typeof makeWorkspace>;

function hooksJson(hooks: Record<string, unknown>): string {
  return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

const command = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command: text,
  ...extra,
});
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const ofType = <T extends EventRecord['type']>(records: EventRecord[], type: T) =>
  records.filter((record): record is Extract<EventRecord, { type: T }> => record.type === type);

async function run(
  workspace: Workspace,
  turns: unknown[],
  options: { args?: string[]; env?: Record<string, string>; cwd?: string } = {},
) {
  const script = writeScript(workspace.root, turns);
  const args = options.args ?? ['--home', workspace.home, '--project', workspace.project];
  const result = await runCli(['run', 'go', '--model', `scripted:${script}`, '--yes', ...args], {
    env: options.env ?? workspace.env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  return {
    ...result,
    records: options.args?.includes('--json') ? parseRecords(result.stdout) : [],
  };
}

async function runJson(workspace: Workspace, turns: unknown[], env?: Record<string, string>) {
  const result = await run(workspace, turns, {
    args: ['--home', workspace.home, '--project', workspace.project, '--json'],
    ...(env === undefined ? {} : { env }),
  });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/** Every file name under `dir`, recursively, relative. */
function listTree(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((entry) => entry.split(path.sep).join('/'))
    .sort();
}

describe('soong-agent run: secrets in the parent env', () => {
  const SECRETS: Record<string, string> = {
    AWS_SECRET_ACCESS_KEY: 'aws-secret-7f3a91',
    GITHUB_TOKEN: 'ghp_secret7f3a92',
    OPENAI_API_KEY: 'sk-secret-7f3a93',
    SOONG_AGENT_TOKEN: 'soong-lookalike-7f3a94',
    SOONG_ARG_VALUE: 'soong-arg-lookalike-7f3a95',
    SOONG_SECRET: 'soong-secret-7f3a96',
    PATHX: 'path-lookalike-7f3a97',
    ENV: fixture('leak-marker.sh'),
    BASH_ENV: fixture('leak-marker.sh'),
    NODE_OPTIONS: `--require=${fixture('leak-marker.cjs')}`,
    LD_PRELOAD: '/nonexistent/soong-leak-7f3a98.so',
    'BASH_FUNC_x%%': '() { touch "$SOONG_AGENT_PROJECT_DIR/LEAKED-EXPORTED-FUNCTION"; }',
  };

  it(
    "reaches no hook, bash call or declarative tool when a variable is not allowlisted, checked via env, /proc/self/environ, the agent's /proc/$PPID/environ and set",
    async () => {
      const probe = (label: string) => `PROBE=${label}; . '${fixture('probe.sh')}'`;
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            UserPromptSubmit: [{ hooks: [command(probe('prompt'))] }],
            PreToolUse: [{ matcher: 'bash', hooks: [command(probe('pre'))] }],
          }),
          // GITHUB is allowlisted: an exact name, never a prefix of GITHUB_TOKEN.
          'config.toml': [
            '[runner]',
            'env_allowlist = ["GITHUB", "SOONG"]',
            '[[tools]]',
            'name = "probe_tool"',
            'description = "probe"',
            `command = ${JSON.stringify(probe('tool'))}`,
            'risk = "readonly"',
            '',
          ].join('\n'),
        },
      });
      const result = await runJson(
        workspace,
        [
          {
            text: 'probing',
            tool_calls: [
              { name: 'bash', input: { command: probe('bash') } },
              { name: 'probe_tool', input: {} },
            ],
          },
          { text: 'done' },
        ],
        { ...workspace.env, ...SECRETS },
      );
      expect(ofType(result.records, 'tool_finished').map((record) => record.is_error)).toEqual([
        false,
        false,
      ]);

      const labels = ['prompt', 'pre', 'bash', 'tool'];
      expect(listTree(workspace.project).filter((name) => !name.includes('/'))).toEqual(
        labels.map((label) => `probe-${label}`).sort(),
      );
      for (const label of labels) {
        const dir = path.join(workspace.project, `probe-${label}`);
        // The probe really ran as the spawned shell and saw the agent's own variables.
        expect(fs.readFileSync(path.join(dir, 'cmdline'), 'utf8')).toContain('probe.sh');
        expect(fs.readFileSync(path.join(dir, 'environ'), 'utf8')).toContain(
          `SOONG_AGENT_PROJECT_DIR=${workspace.project}`,
        );
        for (const view of ['env', 'environ', 'parent-environ', 'set', 'bash', 'node']) {
          const seen = fs.readFileSync(path.join(dir, view), 'utf8');
          for (const [name, value] of Object.entries(SECRETS)) {
            expect(seen, `${label}/${view} shows ${name}`).not.toContain(value);
            expect(seen, `${label}/${view} shows ${name}`).not.toMatch(
              new RegExp(`^${name.replace(/%/g, '\\%')}=`, 'm'),
            );
          }
        }
      }
      // No startup file, exported function or preload reached a bash or node child.
      expect(fs.readdirSync(workspace.project).filter((name) => name.startsWith('LEAKED'))).toEqual(
        [],
      );
    },
    TIMEOUT,
  );

  it(
    'puts the hook payload on stdin only, never in the hook argv or env, when a hook runs',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [{ hooks: [command(`PROBE=pre; . '${fixture('probe.sh')}'`)] }],
          }),
        },
        project: { 'a.txt': 'a' },
      });
      const marker = 'INPUT-MARKER-5d1c7e';
      await runJson(workspace, [
        { text: 'x', tool_calls: [{ name: 'grep', input: { pattern: marker, path: 'a.txt' } }] },
        { text: 'done' },
      ]);
      const dir = path.join(workspace.project, 'probe-pre');
      const stdin = JSON.parse(fs.readFileSync(path.join(dir, 'stdin'), 'utf8'));
      expect(stdin.tool.input.pattern).toBe(marker);
      for (const view of ['cmdline', 'environ', 'env', 'set']) {
        expect(fs.readFileSync(path.join(dir, view), 'utf8'), view).not.toContain(marker);
      }
    },
    TIMEOUT,
  );
});

describe('soong-agent run: planted project configuration', () => {
  const marker = (name: string) => `touch "$SOONG_AGENT_PROJECT_DIR/PLANTED-${name}"`;
  const plantedHooks = (name: string) =>
    hooksJson({
      SessionStart: [{ hooks: [command(marker(name))] }],
      PreToolUse: [{ hooks: [command(`${marker(`${name}-pre`)}; echo '{"decision":"deny"}'`)] }],
    });
  const planted = {
    '.soong-agent/hooks.json': plantedHooks('dot-dir'),
    '.soong-agent/config.toml': '[permissions]\nwrite = "deny"\n',
    'hooks.json': plantedHooks('root'),
    // If this were read, the home's own hook would not run (hooks.enabled = false).
    'config.toml': '[hooks]\nenabled = false\n',
    '.git/hooks/pre-commit': `#!/bin/sh\n${marker('git')}\n`,
    '.git/config': '[core]\n\thooksPath = .soong-agent\n',
  };

  it(
    'runs only the home hooks and lets a write through when every project-level file is planted',
    async () => {
      const workspace = makeWorkspace({ project: planted });
      // The default home: HOME/.soong-agent, found with no --home, from the project as cwd.
      const home = path.join(workspace.osHome, '.soong-agent');
      fs.mkdirSync(home, { mode: 0o700 });
      fs.writeFileSync(
        path.join(home, 'hooks.json'),
        hooksJson({
          SessionStart: [{ hooks: [command('touch "$SOONG_AGENT_PROJECT_DIR/home-hook-ran"')] }],
        }),
        { mode: 0o600 },
      );
      const result = await run(
        workspace,
        [
          {
            text: 'x',
            tool_calls: [{ name: 'write_file', input: { path: 'a.txt', content: 'a' } }],
          },
          { text: 'done' },
        ],
        { args: ['--json'], cwd: workspace.project },
      );
      expect(result.code, result.stderr).toBe(0);
      const [loaded] = ofType(result.records, 'config_loaded');
      expect(loaded).toMatchObject({
        hooks_enabled: true,
        rules: 1,
        hooks_fingerprint: sha256(path.join(home, 'hooks.json')),
      });
      expect(ofType(result.records, 'session_started')[0]?.agent_home).toBe(home);
      expect(ofType(result.records, 'tool_finished')).toMatchObject([{ is_error: false }]);
      expect(fs.readFileSync(path.join(workspace.project, 'a.txt'), 'utf8')).toBe('a');
      expect(fs.existsSync(path.join(workspace.project, 'home-hook-ran'))).toBe(true);
      expect(
        fs.readdirSync(workspace.project).filter((name) => name.startsWith('PLANTED')),
      ).toEqual([]);
    },
    TIMEOUT,
  );

  it.each([
    ['empty', ''],
    ['relative', '.'],
  ])(
    'never takes <project>/.soong-agent as the default home when HOME is %s',
    async (_, home) => {
      const workspace = makeWorkspace({ project: planted });
      const result = await runCli(['hooks', 'list', '--json'], {
        cwd: workspace.project,
        env: { ...workspace.env, HOME: home },
      });
      // Either the password database's home (never the project) or a clear error; never planted hooks.
      expect(result.stdout).not.toContain('PLANTED');
      if (result.code === 0) {
        const listed = JSON.parse(result.stdout) as { hooks_file: string };
        expect(path.isAbsolute(listed.hooks_file)).toBe(true);
        expect(listed.hooks_file.startsWith(`${workspace.project}${path.sep}`)).toBe(false);
      }
    },
    TIMEOUT,
  );
});

describe('soong-agent run: the agent editing its own hooks', () => {
  it(
    'refuses write_file and edit_file on the home through .., symlinks, symlinked parents and new files under them',
    async () => {
      const workspace = makeWorkspace({
        home: { 'hooks.json': hooksJson({}) },
        project: { 'sub/keep.txt': '' },
      });
      const { root, home, project } = workspace;
      fs.symlinkSync(home, path.join(project, 'home-link'));
      fs.symlinkSync('../home', path.join(project, 'relative-home-link'));
      fs.symlinkSync(root, path.join(project, 'up'));
      fs.symlinkSync(path.join(home, 'hooks.json'), path.join(project, 'hooks-link.json'));
      fs.mkdirSync(path.join(project, 'nested'));
      fs.symlinkSync('../home-link', path.join(project, 'nested', 'chain'));
      // Dangling symlinks (a repository can carry them): a write through one creates its target.
      fs.symlinkSync('../home/config.toml', path.join(project, 'dangling-config.toml'));
      fs.symlinkSync('dangling-config.toml', path.join(project, 'dangling-chain.toml'));
      fs.symlinkSync('../home/hooks', path.join(project, 'dangling-dir'));
      fs.symlinkSync('../outside.txt', path.join(project, 'dangling-out.txt'));
      // A hard link (as `bash` could make one) is the same file under a project name.
      fs.linkSync(path.join(home, 'hooks.json'), path.join(project, 'hard-link.json'));
      const hooksFile = path.join(home, 'hooks.json');
      const before = fs.readFileSync(hooksFile);
      const homeBefore = listTree(home);

      const targets = [
        hooksFile,
        '../home/hooks.json',
        'sub/../../home/hooks.json',
        `${project}//..//home/./hooks.json`,
        'home-link/hooks.json',
        'relative-home-link/hooks.json',
        'up/home/hooks.json',
        'hooks-link.json',
        'nested/chain/hooks.json',
        'home-link/new-dir/planted.json',
        'up/home/config.toml',
        'dangling-config.toml',
        'dangling-chain.toml',
        'dangling-dir/guard.sh',
        'dangling-out.txt',
        'hard-link.json',
      ];
      const calls = targets.flatMap((target) => [
        { name: 'write_file', input: { path: target, content: '{"version":1,"hooks":{}}' } },
        { name: 'edit_file', input: { path: target, old_string: '"hooks"', new_string: '"x"' } },
      ]);
      // A refused write is an error result, not a denial: the batch goes on.
      const result = await runJson(workspace, [
        { text: 'try', tool_calls: calls },
        { text: 'done' },
      ]);
      const finished = ofType(result.records, 'tool_finished');
      expect(finished).toHaveLength(calls.length);
      expect(finished.filter((record) => !record.is_error)).toEqual([]);
      expect(fs.readFileSync(hooksFile)).toEqual(before);
      expect(listTree(home).filter((name) => !name.startsWith('sessions'))).toEqual(
        homeBefore.filter((name) => !name.startsWith('sessions')),
      );
      expect(fs.existsSync(path.join(root, 'outside.txt'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'keeps the session on the hooks and permissions it started with when bash rewrites them mid-session',
    async () => {
      const workspace = makeWorkspace({ home: { 'hooks.json': hooksJson({}) } });
      const hooksFile = path.join(workspace.home, 'hooks.json');
      const original = sha256(hooksFile);
      const denyAll = hooksJson({
        PreToolUse: [
          {
            hooks: [
              command(
                `touch "$SOONG_AGENT_PROJECT_DIR/edited-hook-ran"; cat >/dev/null; echo '{"decision":"deny","reason":"edited"}'`,
              ),
            ],
          },
        ],
      });
      const edited = path.join(workspace.root, 'deny-all.json');
      fs.writeFileSync(edited, denyAll);
      // bash cannot be stopped from writing the home (no sandbox); the snapshot makes it moot.
      const rewrite = `cp '${edited}' "$SOONG_AGENT_HOME/hooks.json" && printf '[permissions]\\nwrite = "deny"\\n' > "$SOONG_AGENT_HOME/config.toml"`;
      const first = await runJson(workspace, [
        { text: 'edit', tool_calls: [{ name: 'bash', input: { command: rewrite } }] },
        {
          text: 'write',
          tool_calls: [{ name: 'write_file', input: { path: 'a.txt', content: 'a' } }],
        },
        { text: 'done' },
      ]);
      expect(sha256(hooksFile)).not.toBe(original);
      expect(ofType(first.records, 'config_loaded')[0]?.hooks_fingerprint).toBe(original);
      expect(ofType(first.records, 'tool_finished').map((record) => record.is_error)).toEqual([
        false,
        false,
      ]);
      expect(ofType(first.records, 'hook_started')).toEqual([]);
      expect(fs.existsSync(path.join(workspace.project, 'a.txt'))).toBe(true);
      expect(fs.existsSync(path.join(workspace.project, 'edited-hook-ran'))).toBe(false);

      // The next session takes the edit.
      const second = await runJson(workspace, [
        {
          text: 'write',
          tool_calls: [{ name: 'write_file', input: { path: 'b.txt', content: 'b' } }],
        },
        { text: 'done' },
      ]);
      expect(ofType(second.records, 'config_loaded')[0]?.hooks_fingerprint).toBe(sha256(hooksFile));
      expect(ofType(second.records, 'tool_denied')).toMatchObject([{ source: 'hook' }]);
      expect(fs.existsSync(path.join(workspace.project, 'b.txt'))).toBe(false);
    },
    TIMEOUT,
  );
});

describe('soong-agent run: hook working_dir', () => {
  it(
    'runs nothing for a working_dir that escapes the project through a symlink, and runs the ones inside',
    async () => {
      const workspace = makeWorkspace({ project: { 'a.txt': 'a', 'sub/.keep': '' } });
      const { root, home, project, osHome } = workspace;
      const outside = path.join(root, 'outside');
      fs.mkdirSync(outside);
      fs.symlinkSync(outside, path.join(project, 'link-out'));
      fs.symlinkSync(root, path.join(project, 'link-up'));
      fs.symlinkSync(home, path.join(project, 'link-home'));
      fs.symlinkSync(path.join(project, 'sub'), path.join(project, 'link-in'));
      // Escapes through a symlink inside the project load fine (the path is inside as written) and
      // are caught by the runner when the hook runs; the others are config errors (test below).
      const escapes: Record<string, string> = {
        'link-out': 'link-out',
        'link-up': 'link-up',
        'link-up-climb': 'link-in/../link-up',
      };
      const inside: Record<string, [string, string]> = {
        sub: ['sub', path.join(project, 'sub')],
        'link-in': ['link-in', path.join(project, 'sub')],
        'agent-home': [home, home],
        'link-home': ['link-home', home],
      };
      const hook = (name: string, workingDir: string) =>
        command(`pwd -P > "$SOONG_AGENT_PROJECT_DIR/ran-${name}"`, {
          name,
          working_dir: workingDir,
        });
      fs.writeFileSync(
        path.join(home, 'hooks.json'),
        hooksJson({
          PreToolUse: [
            {
              hooks: [
                ...Object.entries(escapes).map(([name, dir]) => hook(name, dir)),
                ...Object.entries(inside).map(([name, [dir]]) => hook(name, dir)),
              ],
            },
          ],
        }),
      );
      const result = await runJson(
        workspace,
        [
          { text: 'x', tool_calls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
          { text: 'done' },
        ],
        { ...workspace.env, HOME: osHome },
      );
      const failed = ofType(result.records, 'hook_failed');
      expect(Object.fromEntries(failed.map((record) => [record.hook_id, record.failure]))).toEqual(
        Object.fromEntries(Object.keys(escapes).map((name) => [name, 'cwd_invalid'])),
      );
      expect(ofType(result.records, 'hook_finished').map((record) => record.hook_id)).toEqual(
        Object.keys(inside),
      );
      for (const name of Object.keys(escapes)) {
        expect(fs.existsSync(path.join(project, `ran-${name}`)), name).toBe(false);
      }
      for (const [name, [, real]] of Object.entries(inside)) {
        expect(fs.readFileSync(path.join(project, `ran-${name}`), 'utf8').trim(), name).toBe(real);
      }
      expect(fs.readdirSync(outside)).toEqual([]);
    },
    TIMEOUT,
  );
  it(
    'refuses to start, at the line and column, when a working_dir surely lies outside the project and the home',
    async () => {
      const workspace = makeWorkspace({ project: { 'a.txt': 'a' } });
      const { root, home, project, osHome } = workspace;
      const outside = path.join(root, 'outside');
      fs.mkdirSync(outside);
      fs.symlinkSync(outside, path.join(root, 'link-out'));
      for (const workingDir of [
        '..',
        '/',
        outside,
        'sub/../..',
        '~',
        '~/..',
        `${project}-sibling/../outside`,
        path.join(root, 'link-out'),
      ]) {
        fs.writeFileSync(
          path.join(home, 'hooks.json'),
          `{"version":1,"hooks":{"PreToolUse":[{"hooks":[\n${JSON.stringify(
            command('touch ran', { working_dir: workingDir }),
          )}]}]}}`,
        );
        const result = await run(workspace, [{ text: 'done' }], {
          env: { ...workspace.env, HOME: osHome },
        });
        expect(result.code, workingDir).toBe(2);
        expect(result.stderr, workingDir).toContain(`hooks.json:2:`);
        expect(result.stderr, workingDir).toContain('working_dir');
      }
      expect(fs.readdirSync(outside)).toEqual([]);
      expect(fs.existsSync(path.join(home, 'sessions'))).toBe(false);
    },
    TIMEOUT,
  );
});

describe('soong-agent run: a guard script inside the project', () => {
  it(
    'denies the next call when the model rewrites the guard run as "sh hooks/guard.sh" with write_file',
    async () => {
      const guard = `input=$(cat); case "$input" in *secrets*) echo '{"decision":"deny","reason":"secrets are off limits"}';; esac\n`;
      const workspace = makeWorkspace({ project: { 'hooks/guard.sh': guard } });
      fs.writeFileSync(
        path.join(workspace.home, 'hooks.json'),
        hooksJson({
          PreToolUse: [
            { matcher: 'write_file', hooks: [command('sh hooks/guard.sh', { name: 'guard' })] },
          ],
        }),
      );
      const result = await runJson(workspace, [
        {
          text: 'x',
          tool_calls: [
            {
              name: 'write_file',
              input: {
                path: 'hooks/guard.sh',
                content: 'cat >/dev/null; echo \'{"decision":"allow"}\'\n',
              },
            },
            { name: 'write_file', input: { path: 'secrets/key.txt', content: 'stolen' } },
          ],
        },
        { text: 'done' },
      ]);
      expect(fs.existsSync(path.join(workspace.project, 'secrets', 'key.txt'))).toBe(false);
      expect(ofType(result.records, 'hook_failed')).toMatchObject([
        { hook_id: 'guard', failure: 'spawn_error', on_failure: 'deny' },
      ]);
      expect(ofType(result.records, 'tool_denied')).toMatchObject([
        { source: 'hook', hook_id: 'guard' },
      ]);
    },
    TIMEOUT,
  );
});

describe('soong-agent run: a Claude Code guard in the project', () => {
  it(
    'denies the next call when the model rewrites "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh',
    async () => {
      const guard = `input=$(cat); case "$input" in *secrets*) echo 'no secrets' >&2; exit 2;; esac\n`;
      const workspace = makeWorkspace({ project: { '.claude/hooks/guard.sh': guard } });
      fs.chmodSync(path.join(workspace.project, '.claude/hooks/guard.sh'), 0o755);
      fs.writeFileSync(
        path.join(workspace.home, 'hooks.json'),
        hooksJson({
          PreToolUse: [
            {
              matcher: 'write_file',
              hooks: [
                command('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', {
                  name: 'guard',
                  protocol: 'claude-code',
                }),
              ],
            },
          ],
        }),
      );
      const result = await runJson(workspace, [
        {
          text: 'x',
          tool_calls: [
            {
              name: 'write_file',
              input: { path: '.claude/hooks/guard.sh', content: 'cat >/dev/null; exit 0\n' },
            },
            { name: 'write_file', input: { path: 'secrets/key.txt', content: 'stolen' } },
          ],
        },
        { text: 'done' },
      ]);
      expect(fs.existsSync(path.join(workspace.project, 'secrets', 'key.txt'))).toBe(false);
      expect(ofType(result.records, 'hook_failed')).toMatchObject([
        { hook_id: 'guard', failure: 'spawn_error', on_failure: 'deny' },
      ]);
      // Warned at load too: the script lies inside the project.
      expect(String(ofType(result.records, 'config_loaded')[0]?.warnings)).toContain(
        '.claude/hooks/guard.sh lies inside the project dir',
      );
    },
    TIMEOUT,
  );
});

describe('soong-agent run: a guard run through a variable, bash -c, or a module it imports', () => {
  const guardPy =
    'import sys, rules\nif rules.FORBIDDEN in sys.stdin.read():\n    print("no secrets", file=sys.stderr)\n    sys.exit(2)\n';
  it.each([
    ['python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"', '.claude/hooks/guard.py'],
    [`bash -c 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"'`, '.claude/hooks/guard.py'],
    ['python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"', '.claude/hooks/rules.py'],
    ['"$SOONG_AGENT_PROJECT_DIR"/.claude/hooks/guard.py', '.claude/hooks/rules.py'],
  ])(
    'denies the next call when the hook is %j and the model rewrites %s',
    async (hookCommand, rewritten) => {
      const workspace = makeWorkspace({
        project: {
          '.claude/hooks/guard.py': `#!/usr/bin/env python3\n${guardPy}`,
          '.claude/hooks/rules.py': 'FORBIDDEN = "secrets"\n',
        },
      });
      fs.chmodSync(path.join(workspace.project, '.claude/hooks/guard.py'), 0o755);
      const protocol = hookCommand.includes('CLAUDE_PROJECT_DIR') ? 'claude-code' : 'soong';
      fs.writeFileSync(
        path.join(workspace.home, 'hooks.json'),
        hooksJson({
          PreToolUse: [
            {
              matcher: 'write_file',
              hooks: [command(hookCommand, { name: 'guard', protocol, on_failure: 'deny' })],
            },
          ],
        }),
      );
      const result = await runJson(workspace, [
        {
          text: 'x',
          tool_calls: [
            {
              name: 'write_file',
              input: { path: rewritten, content: 'FORBIDDEN = "never"\nimport sys\nsys.exit(0)\n' },
            },
            { name: 'write_file', input: { path: 'secrets/key.txt', content: 'stolen' } },
          ],
        },
        { text: 'done' },
      ]);
      expect(fs.existsSync(path.join(workspace.project, 'secrets', 'key.txt'))).toBe(false);
      expect(ofType(result.records, 'hook_failed')).toMatchObject([
        { hook_id: 'guard', failure: 'spawn_error', on_failure: 'deny' },
      ]);
      expect(String(ofType(result.records, 'hook_failed')[0]?.message)).toContain(rewritten);
    },
    TIMEOUT,
  );
});

describe('soong-agent run: deeply nested model output', () => {
  it.each([5_000, 100_000])(
    'gives the call an is_error result and ends the session cleanly when a tool input nests %i levels deep',
    async (depth) => {
      const workspace = makeWorkspace({ project: { 'a.txt': 'a' } });
      const script = path.join(workspace.root, 'deep-script.json');
      // Written by hand: JSON.stringify itself cannot serialise it.
      fs.writeFileSync(
        script,
        `{"turns":[{"text":"x","tool_calls":[{"name":"read_file","input":{"path":"a.txt","deep":${'['.repeat(depth)}${']'.repeat(depth)}}}]},{"text":"done"}]}`,
      );
      const result = await runCli(
        [
          'run',
          'go',
          '--model',
          `scripted:${script}`,
          '--yes',
          '--json',
          '--home',
          workspace.home,
          '--project',
          workspace.project,
        ],
        { env: workspace.env },
      );
      expect(result.code, result.stderr).toBe(0);
      const records = parseRecords(result.stdout);
      expect(ofType(records, 'tool_started')).toHaveLength(1);
      expect(ofType(records, 'tool_finished')).toMatchObject([{ is_error: true }]);
      expect(ofType(records, 'loop_ended')).toHaveLength(1);
    },
    TIMEOUT,
  );
});

describe('soong-agent run: path_prefix', () => {
  const attacks = [
    'secrets/key.txt',
    'src/../secrets/key.txt',
    'secrets//key.txt',
    './secrets/./key.txt',
    'secrets/.',
    'secrets',
    'secrets/',
    'link/key.txt',
    'nested/link-to-secrets/key.txt',
    'up/project/secrets/key.txt',
    'link/not-yet/there.txt',
    'dangling',
  ];
  const harmless = ['secrets2/key.txt', 'public/x.txt', 'src/a.ts', 'SECRETS-NOT/x.txt'];

  function setUp() {
    const workspace = makeWorkspace({
      home: {
        'hooks.json': hooksJson({
          PreToolUse: [
            {
              matcher: { path_prefix: 'secrets' },
              hooks: [command(`cat >/dev/null; echo '{"decision":"deny","reason":"protected"}'`)],
            },
          ],
        }),
      },
      project: {
        'secrets/key.txt': 'key',
        'secrets2/key.txt': 'not a secret',
        'public/x.txt': 'x',
        'src/a.ts': '',
        'SECRETS-NOT/x.txt': '',
        'nested/.keep': '',
      },
    });
    fs.symlinkSync(path.join(workspace.project, 'secrets'), path.join(workspace.project, 'link'));
    fs.symlinkSync('../secrets', path.join(workspace.project, 'nested', 'link-to-secrets'));
    fs.symlinkSync(workspace.root, path.join(workspace.project, 'up'));
    fs.symlinkSync('secrets/new.txt', path.join(workspace.project, 'dangling'));
    return workspace;
  }

  const readAll = (paths: string[]) => [
    {
      text: 'read',
      tool_calls: paths.map((file) => ({ name: 'read_file', input: { path: file } })),
    },
    { text: 'done' },
  ];

  function deniedPaths(records: EventRecord[], paths: string[]): string[] {
    const denied = new Set(ofType(records, 'tool_denied').map((record) => record.call_id));
    return ofType(records, 'tool_started')
      .filter((record) => denied.has(record.call_id))
      .map((record) => (record.input as { path: string }).path)
      .filter((file) => paths.includes(file));
  }

  it(
    'denies every spelling of a protected path when it uses .., //, /., symlinks or a not-yet-existing file',
    async () => {
      const workspace = setUp();
      const all = [...attacks, ...harmless, path.join(workspace.project, 'secrets/key.txt')];
      const result = await runJson(workspace, readAll(all));
      expect(deniedPaths(result.records, all)).toEqual([
        ...attacks,
        path.join(workspace.project, 'secrets/key.txt'),
      ]);
      // The readonly denials do not halt the batch: the harmless reads ran.
      expect(ofType(result.records, 'tool_finished')).toHaveLength(harmless.length);
    },
    TIMEOUT,
  );

  it(
    'denies the same paths when the project dir is given through a symlink',
    async () => {
      const workspace = setUp();
      const projectLink = path.join(workspace.root, 'project-link');
      fs.symlinkSync(workspace.project, projectLink);
      const all = [...attacks, ...harmless, path.join(workspace.project, 'secrets/key.txt')];
      const result = await run(workspace, readAll(all), {
        args: ['--home', workspace.home, '--project', projectLink, '--json'],
      });
      expect(result.code, result.stderr).toBe(0);
      expect(deniedPaths(result.records, all)).toEqual([
        ...attacks,
        path.join(workspace.project, 'secrets/key.txt'),
      ]);
    },
    TIMEOUT,
  );

  it(
    'denies a write into the protected tree through a symlinked dir or a dangling symlink before the file exists',
    async () => {
      const workspace = setUp();
      const write = (file: string) => ({
        text: 'w',
        tool_calls: [{ name: 'write_file', input: { path: file, content: 'x' } }],
      });
      const result = await runJson(workspace, [
        write('link/new/planted.txt'),
        write('dangling'),
        { text: 'done' },
      ]);
      expect(ofType(result.records, 'tool_denied')).toMatchObject([
        { source: 'hook' },
        { source: 'hook' },
      ]);
      expect(fs.existsSync(path.join(workspace.project, 'secrets', 'new'))).toBe(false);
      expect(fs.existsSync(path.join(workspace.project, 'secrets', 'new.txt'))).toBe(false);
    },
    TIMEOUT,
  );
});

describe('soong-agent run: tree walks and swapped symlinks against path_prefix rules', () => {
  const DEMO_SECRET = 'not-a-real-secret-but-the-agent-must-not-read-it';

  // Every file under `dir` whose bytes contain `text` (the session's records, artifacts, logs).
  function filesContaining(dir: string, text: string): string[] {
    return fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((entry) => path.join(dir, entry))
      .filter((file) => fs.statSync(file).isFile() && fs.readFileSync(file).includes(text));
  }

  it(
    "prints nothing of the demo's protected folder when grep searches its parent or list_dir lists it",
    async () => {
      const workspace = makeWorkspace();
      fs.cpSync(path.join(DEMO_DIR, 'home'), workspace.home, { recursive: true });
      fs.cpSync(path.join(DEMO_DIR, 'project'), workspace.project, { recursive: true });
      const calls = [
        { name: 'grep', input: { pattern: '=' } },
        { name: 'grep', input: { pattern: '/API_TOKEN/' } },
        { name: 'grep', input: { pattern: '=', path: 'src/..' } },
        { name: 'grep', input: { pattern: '=', path: workspace.project } },
        { name: 'list_dir', input: { path: '.' } },
        { name: 'read_file', input: { path: 'secrets/.env' } },
      ];
      const result = await runJson(workspace, [
        ...calls.map((call) => ({ text: 'look', tool_calls: [call] })),
        { text: 'done' },
      ]);
      expect(result.stdout).not.toContain(DEMO_SECRET);
      expect(filesContaining(workspace.home, DEMO_SECRET)).toEqual([]);
      // What each call returned is the request of the next model turn.
      const sent = ofType(result.records, 'model_turn')
        .slice(1, calls.length + 1)
        .map((record) => record.request_tail?.text ?? '');
      for (const text of sent.slice(0, 4)) {
        expect(text).toMatch(/^skipped secrets\/ \(guarded by PreToolUse rule protect-secrets;/m);
      }
      expect(sent[4]?.split('\n')).toContain(
        'secrets/ (guarded by PreToolUse rule protect-secrets)',
      );
      expect(sent[5]).toContain('denied by hook protect-secrets');
    },
    TIMEOUT,
  );

  it(
    'returns no guarded content while a symlink read by read_file and grep is swapped under the agent',
    async () => {
      const secret = 'guarded-secret-value';
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [
              {
                matcher: { path_prefix: 'secrets' },
                hooks: [command(`cat >/dev/null; echo '{"decision":"deny"}'`)],
              },
            ],
            // Records what every call returned: the tool results themselves are not in the log.
            PostToolUse: [
              {
                hooks: [
                  command(
                    'cat >> "$SOONG_AGENT_HOME/results.jsonl"; echo >> "$SOONG_AGENT_HOME/results.jsonl"',
                  ),
                ],
              },
            ],
          }),
        },
        project: {
          'secrets/.env': `TOKEN=${secret}\n`,
          'secrets/dir/key.txt': `TOKEN=${secret}\n`,
          'harmless.txt': 'TOKEN=harmless\n',
          'harmless-dir/key.txt': 'TOKEN=harmless\n',
        },
      });
      const link = path.join(workspace.project, 'link');
      const dirLink = path.join(workspace.project, 'dir-link');
      const swapper = spawn(
        process.execPath,
        [
          fixture('swap-symlink.cjs'),
          link,
          path.join(workspace.project, 'harmless.txt'),
          path.join(workspace.project, 'secrets', '.env'),
          dirLink,
          path.join(workspace.project, 'harmless-dir'),
          path.join(workspace.project, 'secrets', 'dir'),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        await new Promise((resolve) => swapper.stdout.once('data', resolve));
        const calls = Array.from({ length: 60 }, () => [
          { name: 'read_file', input: { path: 'link' } },
          { name: 'grep', input: { pattern: 'TOKEN', path: 'dir-link' } },
        ]).flat();
        const result = await runJson(workspace, [
          { text: 'read', tool_calls: calls },
          { text: 'done' },
        ]);
        const results = fs.readFileSync(path.join(workspace.home, 'results.jsonl'), 'utf8');
        expect(result.stdout).not.toContain(secret);
        expect(results).not.toContain(secret);
        expect(filesContaining(workspace.home, secret)).toEqual([]);
        // Every call either ran (harmless, or refused by the tool) or was denied by the hook.
        const finished = ofType(result.records, 'tool_finished');
        const denied = ofType(result.records, 'tool_denied');
        expect(finished.length + denied.length).toBe(calls.length);
        expect(results).toContain('TOKEN=harmless');
      } finally {
        swapper.kill('SIGKILL');
      }
    },
    TIMEOUT,
  );
});

describe('soong-agent run: shell metacharacters in tool arguments', () => {
  const VALUES = [
    '; touch pwned-semicolon',
    '&& touch pwned-and',
    '| touch pwned-pipe',
    '`touch pwned-backtick`',
    '$(touch pwned-subshell)',
    'x\ntouch pwned-newline\n',
    `'; touch pwned-quote; echo '`,
    '"; touch pwned-dquote; echo "',
    '; rm -rf "$HOME"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion that must not happen
    '${IFS}touch${IFS}pwned-ifs',
    '-n',
    '',
  ];

  function setUp() {
    const workspace = makeWorkspace({
      home: {
        'config.toml': [
          '[[tools]]',
          'name = "echo_arg"',
          'description = "writes its argument back"',
          `command = "printf '%s' \\"$SOONG_ARG_VALUE\\" > \\"arg-$SOONG_ARG_N\\"; cat > \\"stdin-$SOONG_ARG_N\\""`,
          'risk = "readonly"',
          '[tools.parameters.value]',
          'type = "string"',
          'required = true',
          '[tools.parameters.n]',
          'type = "number"',
          'required = true',
          '',
        ].join('\n'),
      },
    });
    fs.writeFileSync(path.join(workspace.osHome, 'canary'), 'alive');
    return workspace;
  }

  const pwned = (workspace: Workspace) =>
    [workspace.root, workspace.project, workspace.osHome, workspace.home].flatMap((dir) =>
      fs.readdirSync(dir).filter((name) => name.startsWith('pwned')),
    );

  it(
    'passes each argument through exactly and runs none of it when declarative tool arguments carry ; && | ` $( ) and newlines',
    async () => {
      const workspace = setUp();
      const result = await runJson(workspace, [
        {
          text: 'x',
          tool_calls: VALUES.map((value, n) => ({ name: 'echo_arg', input: { value, n } })),
        },
        { text: 'done' },
      ]);
      expect(ofType(result.records, 'tool_finished').map((record) => record.is_error)).toEqual(
        VALUES.map(() => false),
      );
      VALUES.forEach((value, n) => {
        expect(fs.readFileSync(path.join(workspace.project, `arg-${n}`), 'utf8')).toBe(value);
        expect(
          JSON.parse(fs.readFileSync(path.join(workspace.project, `stdin-${n}`), 'utf8')),
        ).toEqual({ value, n });
      });
      expect(pwned(workspace)).toEqual([]);
      expect(fs.readFileSync(path.join(workspace.osHome, 'canary'), 'utf8')).toBe('alive');
    },
    TIMEOUT,
  );

  it(
    'returns an is_error result and carries on when an argument holds NUL or is 1 MB (too big for the env)',
    async () => {
      const workspace = setUp();
      const result = await runJson(workspace, [
        {
          text: 'x',
          tool_calls: [
            { name: 'echo_arg', input: { value: 'a\u0000; touch pwned-nul', n: 1 } },
            { name: 'echo_arg', input: { value: 'A'.repeat(1024 * 1024), n: 2 } },
            { name: 'echo_arg', input: { value: 'after', n: 3 } },
          ],
        },
        { text: 'done' },
      ]);
      expect(ofType(result.records, 'tool_finished').map((record) => record.is_error)).toEqual([
        true,
        true,
        false,
      ]);
      expect(ofType(result.records, 'loop_ended')).toMatchObject([{ reason: 'completed' }]);
      expect(fs.existsSync(path.join(workspace.project, 'arg-1'))).toBe(false);
      expect(fs.existsSync(path.join(workspace.project, 'arg-2'))).toBe(false);
      expect(fs.readFileSync(path.join(workspace.project, 'arg-3'), 'utf8')).toBe('after');
      expect(pwned(workspace)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'runs an argument of exactly the env variable limit and refuses one byte more with a message naming the variable',
    async () => {
      const workspace = setUp();
      const fits = 'A'.repeat(131_071 - 'SOONG_ARG_VALUE='.length);
      const result = await runJson(workspace, [
        { text: 'fits', tool_calls: [{ name: 'echo_arg', input: { value: fits, n: 1 } }] },
        { text: 'over', tool_calls: [{ name: 'echo_arg', input: { value: `${fits}A`, n: 2 } }] },
        { text: 'done' },
      ]);
      expect(ofType(result.records, 'tool_finished').map((record) => record.is_error)).toEqual([
        false,
        true,
      ]);
      expect(fs.readFileSync(path.join(workspace.project, 'arg-1'), 'utf8')).toBe(fits);
      expect(fs.existsSync(path.join(workspace.project, 'arg-2'))).toBe(false);
      const lastSent = ofType(result.records, 'model_turn').at(-1)?.request_tail;
      expect(lastSent?.role).toBe('tool');
      expect(lastSent?.text).toContain('SOONG_ARG_VALUE');
    },
    TIMEOUT,
  );

  it(
    'hands --input, --prompt and --path values to hooks as JSON on stdin and runs none of them in hooks test',
    async () => {
      const workspace = setUp();
      fs.writeFileSync(
        path.join(workspace.home, 'hooks.json'),
        hooksJson({
          PreToolUse: [{ hooks: [command('cat > "$SOONG_AGENT_PROJECT_DIR/pre-stdin"')] }],
          UserPromptSubmit: [{ hooks: [command('cat > "$SOONG_AGENT_PROJECT_DIR/prompt-stdin"')] }],
        }),
      );
      const where = ['--home', workspace.home, '--project', workspace.project];
      const input = { command: VALUES.join(' '), path: '$(touch pwned-path)' };
      const pre = await runCli(
        [
          'hooks',
          'test',
          'PreToolUse',
          '--tool',
          'bash',
          '--input',
          JSON.stringify(input),
          '--path',
          '`touch pwned-extra-path`',
          ...where,
        ],
        { env: workspace.env },
      );
      expect(pre.code, pre.stderr).toBe(0);
      const preStdin = JSON.parse(
        fs.readFileSync(path.join(workspace.project, 'pre-stdin'), 'utf8'),
      );
      expect(preStdin.tool.input).toEqual(input);
      expect(preStdin.tool.paths).toContain(
        path.join(workspace.project, '`touch pwned-extra-path`'),
      );

      const prompt = VALUES.join('\n');
      const submitted = await runCli(
        ['hooks', 'test', 'UserPromptSubmit', '--prompt', prompt, ...where],
        { env: workspace.env },
      );
      expect(submitted.code, submitted.stderr).toBe(0);
      const promptStdin = JSON.parse(
        fs.readFileSync(path.join(workspace.project, 'prompt-stdin'), 'utf8'),
      );
      expect(promptStdin.prompt).toBe(prompt);
      expect(pwned(workspace)).toEqual([]);
      expect(fs.readFileSync(path.join(workspace.osHome, 'canary'), 'utf8')).toBe('alive');
    },
    TIMEOUT,
  );
});

describe('soong-agent run: a regular expression that backtracks forever', () => {
  it(
    'stops a catastrophic /regex/ grep with an is_error result and goes on when the model sends one',
    async () => {
      const workspace = makeWorkspace({ project: { 'a.txt': `${'a'.repeat(64)}!\nfind me\n` } });
      const grep = (pattern: string) => ({ name: 'grep', input: { pattern, path: 'a.txt' } });
      const result = await runJson(workspace, [
        { text: 'x', tool_calls: [grep('/(a+)+$/'), grep('/^find \\w+$/'), grep('find')] },
        { text: 'done' },
      ]);
      expect(ofType(result.records, 'tool_finished').map((record) => record.is_error)).toEqual([
        true,
        false,
        false,
      ]);
      expect(ofType(result.records, 'loop_ended')).toMatchObject([{ reason: 'completed' }]);
    },
    TIMEOUT,
  );
});

describe('soong-agent run: files that never end', () => {
  it(
    'answers read_file, grep, edit_file and write_file on /dev/zero and on a FIFO at once instead of hanging',
    async () => {
      const workspace = makeWorkspace({ project: { 'a.txt': 'a' } });
      await promisify(execFile)('mkfifo', [path.join(workspace.project, 'fifo')]);
      const calls = [
        ...['/dev/zero', 'fifo'].flatMap((file) => [
          { name: 'read_file', input: { path: file } },
          { name: 'grep', input: { pattern: 'x', path: file } },
          { name: 'grep', input: { pattern: '/x/', path: file } },
        ]),
        { name: 'edit_file', input: { path: 'fifo', old_string: 'a', new_string: 'b' } },
        { name: 'write_file', input: { path: 'fifo', content: 'x' } },
      ];
      const result = await runJson(workspace, [{ text: 'x', tool_calls: calls }, { text: 'done' }]);
      expect(ofType(result.records, 'tool_finished').map((record) => record.is_error)).toEqual([
        true,
        false,
        false,
        true,
        false,
        false,
        true,
        true,
      ]);
      expect(ofType(result.records, 'loop_ended')).toMatchObject([{ reason: 'completed' }]);
    },
    TIMEOUT,
  );
});

describe('soong-agent run: /proc files that report 0 bytes and never end', () => {
  it(
    'refuses a scripted-model file or Claude Code settings that are /proc/self/pagemap or a FIFO at once (exit 2)',
    async () => {
      const workspace = makeWorkspace();
      const fifo = path.join(workspace.root, 'fifo');
      await promisify(execFile)('mkfifo', [fifo]);
      const base = ['--home', workspace.home, '--project', workspace.project];
      for (const file of ['/proc/self/pagemap', fifo]) {
        const run = await runCli(['run', 'go', '--model', `scripted:${file}`, ...base], {
          env: workspace.env,
        });
        expect(run.code, file).toBe(2);
        const imported = await runCli(['hooks', 'import', '--from', 'claude', file, ...base], {
          env: workspace.env,
        });
        expect(imported.code, file).toBe(2);
      }
    },
    TIMEOUT,
  );

  it(
    'answers read_file and grep on /proc/self/pagemap with bounded reads and finishes the session',
    async () => {
      const workspace = makeWorkspace({ project: { 'a.txt': 'a' } });
      const calls = [
        { name: 'read_file', input: { path: '/proc/self/pagemap' } },
        { name: 'grep', input: { pattern: 'x', path: '/proc/self/pagemap' } },
        { name: 'grep', input: { pattern: '/x/', path: '/proc/self/pagemap' } },
        { name: 'read_file', input: { path: '/proc/kallsyms' } },
      ];
      const result = await runJson(workspace, [{ text: 'x', tool_calls: calls }, { text: 'done' }]);
      expect(ofType(result.records, 'tool_finished').map((record) => record.is_error)).toEqual([
        true,
        false,
        false,
        false,
      ]);
      expect(ofType(result.records, 'loop_ended')).toMatchObject([{ reason: 'completed' }]);
    },
    TIMEOUT,
  );
});

describe('soong-agent events: a hostile disk', () => {
  async function realSession() {
    const workspace = makeWorkspace();
    await runJson(workspace, [{ text: 'hello' }]);
    const [id] = fs.readdirSync(path.join(workspace.home, 'sessions'));
    const events = (...args: string[]) =>
      runCli(['events', ...args, '--json', '--home', workspace.home], { env: workspace.env });
    return { workspace, id: id as string, events };
  }
  const noStack = (stderr: string) => {
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
  };

  it(
    'refuses a FIFO, a symlink to /dev/zero and a symlinked session folder at once with a one-line error',
    async () => {
      const { workspace, id, events } = await realSession();
      const sessions = path.join(workspace.home, 'sessions');
      const forge = (name: string) => {
        fs.mkdirSync(path.join(sessions, name));
        return path.join(sessions, name, 'events.jsonl');
      };
      await promisify(execFile)('mkfifo', [forge('20991231T000000Z-00000f')]);
      fs.symlinkSync('/dev/zero', forge('20991231T000000Z-00000e'));
      fs.symlinkSync(path.join(sessions, id), path.join(sessions, '20991231T000000Z-00000d'));
      for (const name of [
        '20991231T000000Z-00000f',
        '20991231T000000Z-00000e',
        '20991231T000000Z-00000d',
      ]) {
        const result = await events(name);
        expect(result.code, name).toBe(1);
        expect(result.stdout, name).toBe('');
        noStack(result.stderr);
      }
    },
    TIMEOUT,
  );

  it(
    "shows the real latest session, not a forged far-future one holding another session's records",
    async () => {
      const { workspace, id, events } = await realSession();
      const forged = path.join(workspace.home, 'sessions', '99991231T235959Z-ffffff');
      fs.mkdirSync(forged);
      fs.copyFileSync(
        path.join(workspace.home, 'sessions', id, 'events.jsonl'),
        path.join(forged, 'events.jsonl'),
      );
      const latest = await events();
      expect(latest.code).toBe(0);
      expect(latest.stderr).toContain('skipped session 99991231T235959Z-ffffff');
      expect(new Set(parseRecords(latest.stdout).map((record) => record.session_id))).toEqual(
        new Set([id]),
      );
      const named = await events('99991231T235959Z-ffffff');
      expect(named.code).toBe(1);
      expect(named.stderr).toContain('another session');
    },
    TIMEOUT,
  );

  it(
    'skips a forged far-future session even when its records name its own folder',
    async () => {
      const { workspace, id, events } = await realSession();
      const fakeId = '99991231T235959Z-ffffff';
      const forged = path.join(workspace.home, 'sessions', fakeId);
      fs.mkdirSync(forged);
      const text = fs.readFileSync(
        path.join(workspace.home, 'sessions', id, 'events.jsonl'),
        'utf8',
      );
      fs.writeFileSync(path.join(forged, 'events.jsonl'), text.replaceAll(id, fakeId));
      const latest = await events();
      expect(latest.code).toBe(0);
      expect(latest.stderr).toContain('dated in the future');
      expect(new Set(parseRecords(latest.stdout).map((record) => record.session_id))).toEqual(
        new Set([id]),
      );
    },
    TIMEOUT,
  );
});

describe('soong-agent run: a full or unwritable agent home', () => {
  const oneCleanLine = (stderr: string) => {
    expect(stderr).not.toContain('unexpected error');
    expect(stderr).not.toMatch(/\n\s+at /);
  };

  it(
    'exits 1 with one clean line and a log of whole records when the disk fills mid-session',
    async () => {
      const workspace = makeWorkspace({ project: { 'a.txt': 'a' } });
      // RLIMIT_FSIZE plays the full disk (no mount needed, also as root): writes past 8 KiB fail.
      const script = writeScript(workspace.root, [
        { text: 'x'.repeat(3000), tool_calls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
        { text: 'y'.repeat(3000), tool_calls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
        { text: 'z'.repeat(3000), tool_calls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
        { text: 'done' },
      ]);
      const args = ['run', 'go', '--yes', '--model', `scripted:${script}`, '--json'];
      const result = await runShell(
        `ulimit -f 16; trap '' XFSZ; exec "${process.execPath}" "${CLI}" ${args.join(' ')} --home "${workspace.home}" --project "${workspace.project}"`,
        { env: workspace.env },
      );
      expect(result.code, result.stderr).toBe(1);
      oneCleanLine(result.stderr);
      expect(result.stderr).toContain('events.jsonl');
      const [id] = fs.readdirSync(path.join(workspace.home, 'sessions'));
      const log = fs.readFileSync(
        path.join(workspace.home, 'sessions', id as string, 'events.jsonl'),
        'utf8',
      );
      expect(log.endsWith('\n')).toBe(true);
      const records = parseRecords(log);
      expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
      // The records printed with --json are exactly the ones on disk.
      expect(parseRecords(result.stdout)).toEqual(records);
    },
    TIMEOUT,
  );

  it(
    'exits 1 with one clean line when stdout is a full disk (/dev/full) for run --json and events',
    async () => {
      const workspace = makeWorkspace({ project: { 'a.txt': 'a' } });
      const script = writeScript(workspace.root, [
        { text: 'x', tool_calls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
        { text: 'done' },
      ]);
      const where = `--home "${workspace.home}" --project "${workspace.project}"`;
      const cli = `"${process.execPath}" "${CLI}"`;
      for (const line of [
        `${cli} run go --yes --json --model "scripted:${script}" ${where} > /dev/full`,
        `${cli} events --json ${where} > /dev/full`,
        `${cli} events ${where} > /dev/full`,
      ]) {
        const result = await runShell(line, { env: workspace.env });
        expect(result.code, line).toBe(1);
        expect(result.stderr.trim().split('\n'), line).toHaveLength(1);
        oneCleanLine(result.stderr);
      }
      // The run itself still finished and logged everything.
      const events = await runCli(['events', '--json', '--home', workspace.home], {
        env: workspace.env,
      });
      expect(ofType(parseRecords(events.stdout), 'loop_ended')).toMatchObject([
        { reason: 'completed' },
      ]);
    },
    TIMEOUT,
  );

  it(
    'exits 1 with one clean line and writes nothing when the sessions folder is a file',
    async () => {
      const workspace = makeWorkspace({ home: { sessions: 'not a folder' } });
      const result = await run(workspace, [{ text: 'hello' }]);
      expect(result.code).toBe(1);
      oneCleanLine(result.stderr);
      expect(result.stderr).toContain('cannot start a session');
      expect(fs.readFileSync(path.join(workspace.home, 'sessions'), 'utf8')).toBe('not a folder');
    },
    TIMEOUT,
  );
});

describe('soong-agent run: hostile hook output', () => {
  it(
    'fails a 100 MB stdout flood as output_too_large and keeps a 100 MB stderr flood to a bounded tail',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [
              {
                hooks: [
                  command('cat >/dev/null; head -c 100000000 /dev/zero | tr "\\0" x', {
                    name: 'stdout-flood',
                  }),
                  command(
                    `cat >/dev/null; head -c 100000000 /dev/zero | tr "\\0" y >&2; echo '{"decision":"allow"}'`,
                    { name: 'stderr-flood' },
                  ),
                ],
              },
            ],
          }),
        },
        project: { 'a.txt': 'a' },
      });
      const result = await runJson(workspace, [
        { text: 'x', tool_calls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
        { text: 'done' },
      ]);
      expect(ofType(result.records, 'hook_failed')).toMatchObject([
        { hook_id: 'stdout-flood', failure: 'output_too_large' },
      ]);
      expect(ofType(result.records, 'hook_finished')).toMatchObject([
        { hook_id: 'stderr-flood', decision: 'allow' },
      ]);
      const logs = ofType(result.records, 'hook_log').filter(
        (record) => record.source === 'stderr' && record.hook_id === 'stderr-flood',
      );
      expect(logs).toHaveLength(1);
      expect(Buffer.byteLength(logs[0]?.message ?? '')).toBeLessThan(16 * 1024);
      // The whole log stays small: nothing of either flood was kept beyond the bounds.
      expect(Buffer.byteLength(result.stdout)).toBeLessThan(256 * 1024);
      expect(ofType(result.records, 'tool_finished')).toMatchObject([{ is_error: false }]);
    },
    TIMEOUT,
  );

  it(
    'shows escape sequences and C1 controls of a hook reason, its stderr and a tool path escaped on the terminal',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [{ hooks: [command(`. '${fixture('hostile-output.sh')}'`)] }],
          }),
        },
      });
      const turns = [
        { text: 'x', tool_calls: [{ name: 'read_file', input: { path: 'x\u001b[8mhidden' } }] },
        { text: 'done' },
      ];
      const timeline = await run(workspace, turns);
      const events = await runCli(['events', '--home', workspace.home], { env: workspace.env });
      const test = await runCli(
        ['hooks', 'test', 'PreToolUse', '--tool', 'read_file', '--input', '{"path":"a"}'].concat([
          '--home',
          workspace.home,
          '--project',
          workspace.project,
        ]),
        { env: workspace.env },
      );
      expect([timeline.code, events.code, test.code]).toEqual([0, 0, 3]);
      // NO_COLOR is set, so the CLI itself writes no escape sequence at all.
      for (const [name, text] of [
        ['run stderr', timeline.stderr],
        ['events stdout', events.stdout],
        ['hooks test stdout', test.stdout],
      ] as const) {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
        expect(text, name).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
        expect(text, name).toContain('\\x1b[2J');
        expect(text, name).toContain('\\x9b31m');
      }
      expect(timeline.stderr).toContain('x\\x1b[8mhidden');
      expect(timeline.stderr).toContain('\\x1b]0;pwned-title\\x07');
    },
    TIMEOUT,
  );

  it(
    'shows the escape sequences of a final answer escaped on a terminal and keeps them raw in a pipe',
    async () => {
      const workspace = makeWorkspace();
      const answer = 'line one\r\n\u001b]52;c;cHduZWQ=\u0007copied\n\u001b[2Jcleared\tend';
      const script = writeScript(workspace.root, [{ text: answer }]);
      const args = ['run', 'go', '--home', workspace.home, '--project', workspace.project];
      const onTerminal = await promisify(execFile)(
        'python3',
        [
          PTY_RUN,
          'never-prompted',
          'n',
          '--',
          process.execPath,
          CLI,
          ...args,
          '--model',
          `scripted:${script}`,
        ],
        { env: workspace.env },
      );
      const terminal = JSON.parse(onTerminal.stdout) as { code: number; output: string };
      expect(terminal.code, terminal.output).toBe(0);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape sequences
      expect(terminal.output).not.toMatch(/[\u001b\u0007\u009b]/);
      expect(terminal.output).toContain('\\x1b]52;c;cHduZWQ=\\x07copied');
      expect(terminal.output).toContain('\\x1b[2Jcleared\tend');
      const piped = await runCli([...args, '--model', `scripted:${script}`], {
        env: workspace.env,
      });
      expect(piped.stdout).toBe(`${answer}\n`);
    },
    TIMEOUT,
  );

  it(
    'records invalid UTF-8 in a reason and in stderr as \\xHH escapes in valid records',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [{ hooks: [command(`. '${fixture('hostile-output.sh')}'`)] }],
          }),
        },
      });
      const result = await runJson(workspace, [
        { text: 'x', tool_calls: [{ name: 'read_file', input: { path: 'a' } }] },
        { text: 'done' },
      ]);
      const [denied] = ofType(result.records, 'hook_denied');
      expect(denied?.reason).toContain(' \\xff end');
      const [stderr] = ofType(result.records, 'hook_log').filter((r) => r.source === 'stderr');
      expect(stderr?.message).toContain('\\xff\\xfe bad bytes');
      // The log on disk parses line by line with the same records.
      const events = await runCli(['events', '--json', '--home', workspace.home], {
        env: workspace.env,
      });
      expect(parseRecords(events.stdout)).toEqual(result.records);
    },
    TIMEOUT,
  );
});

describe('printable', () => {
  it('escapes C0, DEL, C1 and bidi controls and flattens line breaks when text reaches the terminal', () => {
    expect(printable('a\u001b[2Jb\u0007c\u007fd\u009be\u202ef\u2066g')).toBe(
      'a\\x1b[2Jb\\x07c\\x7fd\\x9be\\u202ef\\u2066g',
    );
    expect(printable('one\ntwo\rthree\tfour')).toBe('one two three four');
    expect(printable('plain · “text” ✓')).toBe('plain · “text” ✓');
  });

  it('keeps newlines and tabs and escapes the rest when a multi-line answer reaches the terminal', () => {
    expect(printableLines('a\r\nb\tc\u001b[2Jd\re')).toBe('a\nb\tc\\x1b[2Jd\\x0de');
  });
});
