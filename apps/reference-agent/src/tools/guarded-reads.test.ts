import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@soong-agent/config';
import { makeTempDir, writeTree } from '@soong-agent/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestTools } from '../test-helpers/tools.js';

// The read tools against PreToolUse path rules, from the attacker's side: a walk over a parent
// folder, symlinks into the guarded tree, `..`, absolute and ~/ prefixes, and symlinks swapped
// while the tool reads. A tool call here is what runs after the hooks let it through.

const SWAPPER = fileURLToPath(
  new URL('../__fixtures__/security/swap-symlink.cjs', import.meta.url),
);
const SECRET = 's3cret-value';

const deny = { type: 'command', command: 'echo \'{"decision":"deny"}\'' };

function setUp(
  matchers:
    | Record<string, unknown>[]
    | ((dirs: { projectDir: string }) => Record<string, unknown>[]),
) {
  const root = makeTempDir();
  const projectDir = path.join(root, 'project');
  const agentHome = path.join(root, 'home');
  const osHome = path.join(root, 'os-home');
  writeTree(projectDir, {
    'secrets/.env': `API_TOKEN=${SECRET}-project\n`,
    'secrets/deep/key.txt': `TOKEN=${SECRET}-deep\n`,
    'vault/key.txt': 'TOKEN=vault-value\n',
    'src/config.js': 'const TOKEN = "public";\n',
    'secrets2/not-guarded.txt': 'TOKEN=public-too\n',
  });
  writeTree(osHome, { '.ssh/id': `TOKEN=${SECRET}-home\n`, 'notes.txt': 'TOKEN=public-home\n' });
  writeTree(agentHome, {
    'hooks.json': JSON.stringify({
      version: 1,
      hooks: {
        PreToolUse: (typeof matchers === 'function' ? matchers({ projectDir }) : matchers).map(
          (matcher, index) => ({
            matcher,
            hooks: [{ ...deny, name: `guard-${index}` }],
          }),
        ),
      },
    }),
  });
  const config = loadConfig({ home: agentHome, projectDir, homeDir: osHome });
  const { call } = createTestTools({ projectDir, agentHome, hooks: config.hooks });
  return { root, projectDir, osHome, call };
}

describe('grep', () => {
  it('skips a guarded folder and says so when searching its parent with no path', async () => {
    const { call } = setUp([{ path_prefix: 'secrets' }]);
    // (A /regex/ search runs the same walk in a worker thread, from the built files: the CLI
    // tests in security.test.ts cover it.)
    for (const pattern of ['=', 'TOKEN']) {
      const result = await call('grep', { pattern });
      expect(result.isError).toBe(false);
      expect(result.content).not.toContain(SECRET);
      expect(result.content).toContain('src/config.js:1:');
      expect(result.content).toContain('secrets2/not-guarded.txt:1:');
      expect(result.content).toMatch(/^skipped secrets\/ \(guarded by PreToolUse rule guard-0;/m);
    }
  });

  it('skips the guarded folder when the walk starts at .., an absolute path or through a symlink', async () => {
    const { call, projectDir, root } = setUp([{ path_prefix: 'secrets' }]);
    fs.symlinkSync(projectDir, path.join(root, 'project-link'));
    fs.symlinkSync(path.join(projectDir, 'secrets'), path.join(projectDir, 'src', 'inner-link'));
    fs.symlinkSync(
      path.join(projectDir, 'secrets', '.env'),
      path.join(projectDir, 'src', 'file-link'),
    );
    for (const target of ['src/..', projectDir, path.join(root, 'project-link'), root, 'src']) {
      const result = await call('grep', { pattern: 'TOKEN', path: target });
      expect(result.content, target).not.toContain(`${SECRET}-project`);
      expect(result.content, target).not.toContain(`${SECRET}-deep`);
      expect(result.content, target).toContain('config.js:1:');
    }
  });

  it('skips a folder guarded by an absolute or ~/ prefix', async () => {
    const { call, osHome } = setUp(({ projectDir }) => [
      { path_prefix: [path.join(projectDir, 'vault'), '~/.ssh'] },
    ]);
    const inProject = await call('grep', { pattern: 'TOKEN', path: '.' });
    expect(inProject.content).toMatch(/^skipped vault\/ /m);
    const inHome = await call('grep', { pattern: 'TOKEN', path: osHome });
    expect(inHome.content).toContain('notes.txt:1: TOKEN=public-home');
    expect(inHome.content).toMatch(/^skipped \.\.\/os-home\/\.ssh\/ /m);
    for (const result of [inProject, inHome]) {
      expect(result.content).not.toContain(`${SECRET}-home`);
      expect(result.content).not.toContain('vault-value');
    }
  });

  it('searches nothing when the guarded folder is the root and the rule does not match grep', async () => {
    const { call, projectDir } = setUp([{ tool: 'read_file', path_prefix: 'secrets' }]);
    fs.symlinkSync(path.join(projectDir, 'secrets'), path.join(projectDir, 'link'));
    for (const target of ['secrets', 'secrets/deep', 'secrets/.env', 'link', 'link/.env']) {
      const result = await call('grep', { pattern: 'TOKEN', path: target });
      expect(result.content, target).not.toContain(SECRET);
      expect(result.content, target).toMatch(/^skipped /m);
    }
  });

  it('searches a guarded folder it was called on when the rule matches grep, since its hooks saw the call', async () => {
    const { call } = setUp([{ path_prefix: 'secrets' }]);
    // Here the rule's hooks ran on `secrets/deep` and let it through (this test calls the tool
    // directly, as the session does after the hooks).
    const result = await call('grep', { pattern: 'TOKEN', path: 'secrets/deep' });
    expect(result.content).toContain(`key.txt:1: TOKEN=${SECRET}-deep`);
  });
});

describe('list_dir', () => {
  it('marks a guarded entry when listing its parent', async () => {
    const { call } = setUp([{ path_prefix: 'secrets' }]);
    const result = await call('list_dir', { path: '.' });
    expect(result.isError).toBe(false);
    expect(result.content.split('\n')).toEqual([
      'secrets/ (guarded by PreToolUse rule guard-0)',
      'secrets2/',
      'src/',
      'vault/',
    ]);
  });

  it('refuses a guarded folder, or a symlink into it, when the rule does not match list_dir', async () => {
    const { call, projectDir } = setUp([{ tool: 'read_file', path_prefix: 'secrets' }]);
    fs.symlinkSync(path.join(projectDir, 'secrets'), path.join(projectDir, 'link'));
    for (const target of ['secrets', 'secrets/deep', 'link', 'src/../secrets']) {
      const result = await call('list_dir', { path: target });
      expect(result.isError, target).toBe(true);
      expect(result.content, target).not.toContain('key.txt');
      expect(result.content, target).not.toContain('.env');
    }
  });
});

describe('read_file', () => {
  it('refuses a symlink into a guarded folder that the hooks saw only as the link', async () => {
    const { call, projectDir } = setUp([{ path_prefix: 'secrets' }]);
    fs.symlinkSync(path.join(projectDir, 'secrets', '.env'), path.join(projectDir, 'link'));
    const result = await call('read_file', { path: 'link' });
    expect(result.isError).toBe(true);
    expect(result.content).not.toContain(SECRET);
    // Read by its own path, the rule's hooks decided (here: the call ran, so they allowed it).
    expect((await call('read_file', { path: 'secrets/.env' })).content).toContain(SECRET);
  });
});

// A reader racing a swapper: `link` (or each walked name) flips between a harmless target and a
// guarded one as fast as a process can rename symlinks. Each read either returns the harmless
// content or refuses; it never returns the guarded content.
describe('read_file, grep and list_dir against a concurrent symlink swap', () => {
  let swapper: ChildProcess | undefined;
  afterEach(() => {
    swapper?.kill('SIGKILL');
    swapper = undefined;
  });

  async function startSwapper(args: string[]): Promise<void> {
    const child = spawn(process.execPath, [SWAPPER, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    swapper = child;
    await new Promise<void>((resolve, reject) => {
      child.stdout?.once('data', () => resolve());
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`swapper exited with ${code}`)));
    });
  }

  it('returns no guarded content in any of the bounded reads while the link is swapped', async () => {
    const { call, projectDir } = setUp([{ path_prefix: 'secrets' }]);
    writeTree(projectDir, {
      'harmless.txt': 'TOKEN=harmless\n',
      'harmless-dir/a.txt': 'TOKEN=harmless\n',
    });
    const link = path.join(projectDir, 'link');
    const dirLink = path.join(projectDir, 'dir-link');
    await startSwapper([
      link,
      path.join(projectDir, 'harmless.txt'),
      path.join(projectDir, 'secrets', '.env'),
      dirLink,
      path.join(projectDir, 'harmless-dir'),
      path.join(projectDir, 'secrets', 'deep'),
    ]);
    const outcomes = { harmless: 0, refused: 0, leaked: 0 };
    const count = (content: string, isError: boolean) => {
      if (content.includes(SECRET)) outcomes.leaked += 1;
      else if (isError || /^skipped |refused/m.test(content)) outcomes.refused += 1;
      else outcomes.harmless += 1;
    };
    // Bounded: at most 3000 rounds, and at least 300 once both outcomes were seen.
    for (let round = 0; round < 3000; round += 1) {
      const read = await call('read_file', { path: 'link' });
      count(read.content, read.isError);
      const grep = await call('grep', { pattern: 'TOKEN', path: 'dir-link' });
      count(grep.content, grep.isError);
      const list = await call('list_dir', { path: 'dir-link' });
      if (list.content.includes('key.txt')) outcomes.leaked += 1;
      if (round >= 300 && outcomes.harmless > 0 && outcomes.refused > 0) break;
    }
    expect(outcomes.leaked).toBe(0);
    // The race was real: some reads saw the guarded target and were refused.
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.harmless).toBeGreaterThan(0);
  }, 120_000);
});
