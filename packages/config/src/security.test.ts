import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveAgentHome } from './index.js';
import { catchConfigError } from './test-helpers/catch-config-error.js';
import { createTempLayout, type TempLayout } from './test-helpers/temp-dirs.js';

// The attacker's side: a hostile project, a hostile environment, hostile bytes in the home.

let layout: TempLayout;
beforeEach(() => {
  layout = createTempLayout();
});
afterEach(() => layout.cleanup());

const load = () => layout.load();

const PLANTED_HOOKS = JSON.stringify({
  version: 1,
  hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch planted' }] }] },
});

describe('resolveAgentHome', () => {
  const savedHome = process.env.HOME;
  const savedCwd = process.cwd();
  afterEach(() => {
    if (savedHome === undefined) delete process.env.HOME;
    else process.env.HOME = savedHome;
    process.chdir(savedCwd);
  });

  it.each([
    ['empty', ''],
    ['relative', '.'],
    ['relative name', 'home'],
  ])('never resolves the default home inside the current dir when HOME is %s', (_, value) => {
    // The project is the current dir and carries a planted .soong-agent/hooks.json.
    fs.mkdirSync(path.join(layout.projectDir, '.soong-agent'));
    fs.writeFileSync(path.join(layout.projectDir, '.soong-agent', 'hooks.json'), PLANTED_HOOKS);
    process.chdir(layout.projectDir);
    process.env.HOME = value;
    expect(os.homedir()).toBe(value);
    let home: string;
    try {
      home = resolveAgentHome({ env: {} });
    } catch (error) {
      // Allowed when the password database has no home either; a silent relative home is not.
      expect(ConfigError.isInstance(error) && error.code).toBe('CONFIG_READ_FAILED');
      return;
    }
    expect(path.isAbsolute(home)).toBe(true);
    expect(home).toBe(path.join(os.userInfo().homedir, '.soong-agent'));
    expect(home.startsWith(`${layout.projectDir}${path.sep}`)).toBe(false);
  });

  it('never points a ~/ path prefix into the current dir when HOME is empty', () => {
    process.chdir(layout.projectDir);
    process.env.HOME = '';
    layout.write(
      'hooks.json',
      JSON.stringify({
        version: 1,
        hooks: {
          PreToolUse: [
            { matcher: { path_prefix: '~/.ssh' }, hooks: [{ type: 'command', command: 'x' }] },
          ],
        },
      }),
    );
    let config: ReturnType<typeof loadConfig>;
    try {
      config = loadConfig({ home: layout.home, projectDir: layout.projectDir });
    } catch (error) {
      expect(ConfigError.isInstance(error) && error.code).toBe('CONFIG_READ_FAILED');
      return;
    }
    const subject = (file: string) => ({ event: 'PreToolUse', tool: 'write_file', paths: [file] });
    expect(config.hooks.match(subject(path.join(layout.projectDir, '.ssh', 'id')))).toEqual([]);
    const sshKey = path.join(os.userInfo().homedir, '.ssh', 'id');
    expect(config.hooks.match(subject(sshKey))).toHaveLength(1);
  });

  it('takes an empty SOONG_AGENT_HOME or --home as unset instead of the current dir', () => {
    process.chdir(layout.projectDir);
    const home = resolveAgentHome({ home: '', env: { SOONG_AGENT_HOME: '' }, homeDir: '/u' });
    expect(home).toBe('/u/.soong-agent');
  });
});

describe('loadConfig', () => {
  it('ignores every project file a confused loader might read, even broken ones', () => {
    layout.write('hooks.json', JSON.stringify({ version: 1, hooks: {} }));
    const before = load();
    // Broken files prove they are not even parsed; valid ones that they change nothing.
    for (const [relative, content] of [
      ['.soong-agent/hooks.json', PLANTED_HOOKS],
      [
        '.soong-agent/config.toml',
        '[hooks]\ndefault_timeout = 1\n[permissions]\nwrite = "allow"\n',
      ],
      ['hooks.json', '{ broken'],
      ['config.toml', '= broken'],
      ['.soong-agent.json', PLANTED_HOOKS],
      ['.git/hooks/pre-commit', '#!/bin/sh\ntouch planted\n'],
      ['.claude/settings.json', PLANTED_HOOKS],
    ]) {
      layout.write(path.join(layout.projectDir, relative as string), content as string);
    }
    const after = load();
    expect(after.hooks.ruleCount).toBe(0);
    expect(after.hooksFingerprint).toBe(before.hooksFingerprint);
    expect(after.settings).toEqual(before.settings);
  });

  it('throws CONFIG_READ_FAILED at once when hooks.json is a symlink to /dev/zero', () => {
    fs.symlinkSync('/dev/zero', path.join(layout.home, 'hooks.json'));
    expect(catchConfigError(load).code).toBe('CONFIG_READ_FAILED');
  });

  it.each(['config.toml', 'hooks.json'])(
    'throws CONFIG_READ_FAILED after a bounded read when %s is a symlink to /proc/self/pagemap',
    (name) => {
      // stat reports 0 bytes; the file is 8 bytes per page of the address space (terabytes).
      expect(fs.statSync('/proc/self/pagemap').size).toBe(0);
      fs.symlinkSync('/proc/self/pagemap', path.join(layout.home, name));
      expect(catchConfigError(load).code).toBe('CONFIG_READ_FAILED');
    },
  );

  it('reads a /proc file to its end when stat reports 0 bytes and it is under the limit', () => {
    // /proc/kallsyms: megabytes of text behind a stat size of 0; read whole, then not JSON.
    expect(fs.statSync('/proc/kallsyms').size).toBe(0);
    fs.symlinkSync('/proc/kallsyms', path.join(layout.home, 'hooks.json'));
    expect(catchConfigError(load).code).toBe('CONFIG_PARSE_FAILED');
  });

  it('throws CONFIG_READ_FAILED without reading when hooks.json is larger than the limit', () => {
    const file = layout.write('hooks.json', '');
    fs.truncateSync(file, 17 * 1024 * 1024);
    expect(catchConfigError(load).code).toBe('CONFIG_READ_FAILED');
  });

  it.each([
    ['hooks.json arrays', 'hooks.json', `{"version":1,"hooks":${'['.repeat(200_000)}`],
    ['hooks.json objects', 'hooks.json', `{"version":1,"x":${'{"a":'.repeat(100_000)}1}`],
    ['config.toml arrays', 'config.toml', `a = ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`],
    ['config.toml tables', 'config.toml', `a = ${'{b='.repeat(50_000)}1${'}'.repeat(50_000)}\n`],
  ])('throws CONFIG_PARSE_FAILED, not a stack overflow, when %s nest deeply', (_, file, text) => {
    layout.write(file, text);
    expect(catchConfigError(load).code).toBe('CONFIG_PARSE_FAILED');
  });

  it.each([
    ['top level', '{"version":1,"hooks":{},"__proto__":{"polluted":true}}'],
    ['event', '{"version":1,"hooks":{"__proto__":[{"hooks":[{"type":"command","command":"x"}]}]}}'],
    [
      'event named constructor',
      '{"version":1,"hooks":{"constructor":[{"hooks":[{"type":"command","command":"x"}]}]}}',
    ],
    [
      'hook',
      '{"version":1,"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","__proto__":{"polluted":true}}]}]}}',
    ],
  ])('rejects a __proto__-style key in hooks.json (%s) and pollutes nothing', (_, text) => {
    layout.write('hooks.json', text);
    expect(catchConfigError(load).code).toBe('CONFIG_INVALID');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(['[__proto__]\npolluted = true\n', '[runner]\n__proto__ = { polluted = true }\n'])(
    'rejects a __proto__ key in config.toml and pollutes nothing: %j',
    (text) => {
      layout.write('config.toml', text);
      expect(catchConfigError(load).code).toBe('CONFIG_INVALID');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it.each(['*', 'AWS_*', 'GITHUB_TOKEN*', 'SOONG_?', 'BASH_FUNC_x%%', 'PATH HOME'])(
    'rejects the env_allowlist entry %j: entries are exact names, never patterns',
    (entry) => {
      layout.write('config.toml', `[runner]\nenv_allowlist = [${JSON.stringify(entry)}]\n`);
      const error = catchConfigError(load);
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.path).toBe('runner.env_allowlist[0]');
    },
  );

  it('keeps a name that is a prefix of secrets as that exact name only', () => {
    layout.write('config.toml', '[runner]\nenv_allowlist = ["GITHUB", "AWS_SECRET"]\n');
    const { envAllowlist } = load();
    expect(envAllowlist).toContain('GITHUB');
    expect(envAllowlist).toContain('AWS_SECRET');
    expect(envAllowlist.filter((name) => name.startsWith('GITHUB'))).toEqual(['GITHUB']);
    expect(envAllowlist).not.toContain('AWS_SECRET_ACCESS_KEY');
  });

  it('fingerprints hooks.json as it was read, so a later edit is visible in the next load only', () => {
    layout.write('hooks.json', JSON.stringify({ version: 1, hooks: {} }));
    const first = load();
    layout.write('hooks.json', PLANTED_HOOKS);
    expect(first.hooks.ruleCount).toBe(0);
    const second = load();
    expect(second.hooks.ruleCount).toBe(1);
    expect(second.hooksFingerprint).not.toBe(first.hooksFingerprint);
  });
});

// Settings that would validate but make every hook (or tool) fail, so that guards fail open, are
// refused. Each is now a config error at the value's line and column.
describe('loadConfig run bounds', () => {
  const hooksWith = (hook: Record<string, unknown>) =>
    `{\n  "version": 1,\n  "hooks": {\n    "PreToolUse": [\n      { "hooks": [${JSON.stringify({ type: 'command', command: 'true', ...hook })}] }\n    ]\n  }\n}\n`;

  it.each([
    [
      'kill_grace_ms = 2147483648',
      '[runner]\nkill_grace_ms = 2147483648\n',
      'runner.kill_grace_ms',
      2,
    ],
    [
      'kill_grace_ms over the runner bound',
      '[runner]\nkill_grace_ms = 60001\n',
      'runner.kill_grace_ms',
      2,
    ],
    [
      'max_output_bytes = 2e9',
      '[runner]\nmax_output_bytes = 2_000_000_000\n',
      'runner.max_output_bytes',
      2,
    ],
    ['default_timeout = 1e-300', '[hooks]\ndefault_timeout = 1e-300\n', 'hooks.default_timeout', 2],
    [
      'a tool timeout of 1e-300',
      '[[tools]]\nname = "t"\ndescription = "d"\ncommand = "true"\nrisk = "readonly"\ntimeout = 1e-300\n',
      'tools[0].timeout',
      6,
    ],
    [
      'a NUL in a tool command',
      '[[tools]]\nname = "t"\ndescription = "d"\ncommand = "true\\u0000rm"\nrisk = "readonly"\n',
      'tools[0].command',
      4,
    ],
    [
      'a NUL in a tool argv',
      '[[tools]]\nname = "t"\ndescription = "d"\ncommand = ["echo", "a\\u0000b"]\nrisk = "readonly"\n',
      'tools[0].command[1]',
      4,
    ],
    [
      'parameters a-b and a_b',
      '[[tools]]\nname = "t"\ndescription = "d"\ncommand = "true"\nrisk = "readonly"\n[tools.parameters]\na-b = { type = "string" }\na_b = { type = "string" }\n',
      'tools[0].parameters.a_b',
      8,
    ],
  ])('reports %s in config.toml with its line', (_what, toml, jsonPath, line) => {
    layout.write('config.toml', toml);
    const error = catchConfigError(load);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.issues).toMatchObject([{ path: jsonPath, line }]);
    expect(error.issues[0]?.column).toBeGreaterThan(0);
  });

  it.each([
    ['a timeout of 1e-300', { timeout: 1e-300 }, 'timeout'],
    ['a NUL in the command', { command: 'true\u0000; rm -rf x' }, 'command'],
    ['a NUL in working_dir', { working_dir: 'sub\u0000' }, 'working_dir'],
    ['a relative working_dir escaping with ..', { working_dir: '../elsewhere' }, 'working_dir'],
    ['an absolute working_dir outside both roots', { working_dir: '/' }, 'working_dir'],
    ['a ~ working_dir outside the agent home', { working_dir: '~/other' }, 'working_dir'],
  ])('reports %s in hooks.json at its line and column', (_what, hook, key) => {
    layout.write('hooks.json', hooksWith(hook));
    const error = catchConfigError(load);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.issues).toMatchObject([{ path: `hooks.PreToolUse[0].hooks[0].${key}`, line: 5 }]);
    expect(error.issues[0]?.column).toBeGreaterThan(10);
  });

  it('accepts a working_dir when it lies in the project or the agent home, does not exist yet, or is a symlink into the project', () => {
    fs.mkdirSync(path.join(layout.projectDir, 'sub'));
    fs.symlinkSync(path.join(layout.projectDir, 'sub'), path.join(layout.root, 'link-in'));
    for (const working_dir of [
      'sub',
      'not/created/yet',
      '.',
      `${layout.projectDir}/sub`,
      '~/.soong-agent/hooks',
      layout.home,
      path.join(layout.root, 'link-in'),
      '../project/sub',
    ]) {
      layout.write('hooks.json', hooksWith({ working_dir }));
      expect(load().hooks.ruleCount, working_dir).toBe(1);
    }
  });

  it('leaves the check to run time when working_dir is a project symlink pointing outside', () => {
    // Lexically inside the project: the runner resolves it again at run time (cwd_invalid there).
    fs.symlinkSync(layout.root, path.join(layout.projectDir, 'out'));
    layout.write('hooks.json', hooksWith({ working_dir: 'out' }));
    expect(load().hooks.ruleCount).toBe(1);
  });

  it('accepts every value when it sits exactly on a bound', () => {
    layout.write(
      'config.toml',
      '[hooks]\ndefault_timeout = 0.1\n[runner]\nkill_grace_ms = 60000\nmax_output_bytes = 67108864\n',
    );
    layout.write('hooks.json', hooksWith({ timeout: 600 }));
    const config = load();
    expect(config.settings.runner).toMatchObject({
      kill_grace_ms: 60_000,
      max_output_bytes: 67_108_864,
    });
    expect(config.settings.hooks.default_timeout).toBe(0.1);
  });
});
