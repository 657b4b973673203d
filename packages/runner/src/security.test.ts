import fs from 'node:fs';
import path from 'node:path';
import { allGone, makeTempDir } from '@soong-agent/test-utils';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { buildChildEnv } from './child-env.js';
import { RunnerError, type RunOptions, runCommand } from './index.js';

// The attacker's side: a hostile parent environment, working dirs that try to leave the allowed
// roots, arguments that cannot travel, and a child that tries to outlive or hang the call.

const ENV = '/usr/bin/env';

async function rejection(options: RunOptions): Promise<RunnerError> {
  try {
    await runCommand(options);
  } catch (error) {
    if (RunnerError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected runCommand to reject');
}

function envNames(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.slice(0, line.indexOf('=')))
    .sort();
}

describe('runCommand environment', () => {
  const parentEnv = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/ada',
    AWS_SECRET_ACCESS_KEY: 'aws-secret',
    GITHUB_TOKEN: 'ghp-secret',
    OPENAI_API_KEY: 'sk-secret',
    SOONG_AGENT_TOKEN: 'lookalike',
    SOONG_ARG_X: 'lookalike',
    PATHX: 'lookalike',
    path: 'lower-case lookalike',
    LD_PRELOAD: '/nonexistent/evil.so',
    BASH_ENV: '/nonexistent/evil.sh',
    ENV: '/nonexistent/evil.sh',
    NODE_OPTIONS: '--require=/nonexistent/evil.js',
    'BASH_FUNC_x%%': '() { echo pwned; }',
  };

  it('passes only exact allowlisted names when allowlist entries look like prefixes or globs', async () => {
    const result = await runCommand({
      command: [ENV],
      parentEnv,
      envAllowlist: ['PATH', 'GITHUB', 'AWS_*', 'SOONG_*', '*', 'OPENAI', 'PATH*', 'SOONG_ARG_'],
    });
    expect(envNames(result.stdout)).toEqual(['PATH']);
  }, 20_000);

  it('drops LD_PRELOAD, BASH_ENV, ENV, NODE_OPTIONS and exported functions by default', async () => {
    const result = await runCommand({ command: [ENV], parentEnv });
    expect(envNames(result.stdout)).toEqual(['HOME', 'PATH']);
  }, 20_000);

  it('leaves a bash child no imported function when an allowlisted value is a shellshock-style function', async () => {
    const dir = makeTempDir();
    const marker = path.join(dir, 'pwned');
    const evil = `() { :; }; touch ${marker}`;
    const result = await runCommand({
      command: ['/bin/bash', '-c', 'type x >/dev/null 2>&1 && echo imported; env'],
      parentEnv: { PATH: '/usr/bin:/bin', 'BASH_FUNC_x%%': evil, TERM: evil, LANG: '(){ :;}' },
      envAllowlist: ['PATH', 'BASH_FUNC_x%%', 'TERM', 'LANG'],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain('imported');
    expect(
      envNames(result.stdout).filter((name) => name !== 'PWD' && name !== 'SHLVL' && name !== '_'),
    ).toEqual(['PATH']);
    expect(fs.existsSync(marker)).toBe(false);
  }, 20_000);

  it('yields nothing for allowlist names of Object.prototype members when the parent env is a plain object', () => {
    const env = buildChildEnv({
      allowlist: ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'],
      parentEnv: {},
    });
    expect(Object.keys(env)).toEqual([]);
  });

  it('never passes a parent name outside the allowlist, whatever the names and values', () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_%]{0,12}$/);
    fc.assert(
      fc.property(
        fc.dictionary(name, fc.string({ maxLength: 20 })),
        fc.array(name, { maxLength: 8 }),
        (parent, allowlist) => {
          const env = buildChildEnv({ allowlist, parentEnv: parent });
          for (const [key, value] of Object.entries(env)) {
            expect(allowlist).toContain(key);
            expect(value).toBe(parent[key]);
            expect(value.startsWith('()')).toBe(false);
          }
        },
      ),
    );
  });
});

describe('runCommand arguments that cannot travel', () => {
  it.each([
    ['an env extra holding NUL', { command: [ENV], env: { X: 'a\u0000; touch pwned' } }],
    ['a shell string holding NUL', { command: 'echo a\u0000; touch pwned' }],
    ['an argv entry holding NUL', { command: ['/bin/echo', 'a\u0000b'] }],
  ] as const)('rejects without spawning when given %s', async (_, options) => {
    const dir = makeTempDir();
    const error = await rejection({ ...options, cwd: dir });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('rejects with SPAWN_FAILED, not a crash, when an env value is 1 MB (beyond the kernel limit)', async () => {
    const error = await rejection({ command: [ENV], env: { BIG: 'A'.repeat(1024 * 1024) } });
    expect(error.code).toBe('SPAWN_FAILED');
    // The runner is still usable afterwards.
    expect((await runCommand({ command: 'echo ok' })).stdout).toBe('ok\n');
  }, 20_000);
});

describe('runCommand cwd', () => {
  let root: string;
  let outside: string;
  const setUp = () => {
    const base = makeTempDir();
    root = path.join(base, 'root');
    outside = path.join(base, 'outside');
    fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    fs.mkdirSync(outside);
    fs.symlinkSync(path.join(root, 'a'), path.join(root, 'in'));
    fs.symlinkSync(outside, path.join(root, 'out'));
    fs.symlinkSync('../outside', path.join(root, 'a', 'rel-out'));
    fs.symlinkSync(path.join(root, 'a', 'rel-out'), path.join(root, 'chain'));
    fs.writeFileSync(path.join(root, 'file'), '');
  };

  it.each([
    ['..', '..'],
    ['a/../..', 'a/../..'],
    ['an absolute path outside', () => outside],
    ['a symlink pointing outside', 'out'],
    ['a relative symlink pointing outside', 'a/rel-out'],
    ['a chain of symlinks ending outside', 'chain'],
    ['a dir under a symlink pointing outside', 'out/.'],
    ['the parent of the filesystem root', '/..'],
    ['a file', 'file'],
  ])('rejects with CWD_INVALID and spawns nothing when cwd is %s', async (_, written) => {
    setUp();
    const cwd = typeof written === 'function' ? written() : `${root}/${written}`;
    const marker = path.join(outside, 'ran');
    const error = await rejection({ command: `touch ${marker}`, cwd, allowedRoots: [root] });
    expect(error.code).toBe('CWD_INVALID');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('runs inside the root or rejects CWD_INVALID, for any mix of .., ., // and symlinks in cwd', async () => {
    setUp();
    const realRoot = fs.realpathSync(root);
    const segment = fc.constantFrom('..', '.', '', 'a', 'b', 'in', 'out', 'chain', 'file');
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { maxLength: 5 }), async (segments) => {
        const cwd = `${root}/${segments.join('/')}`;
        let expectedReal: string | undefined;
        try {
          // The runner resolves cwd lexically (path.resolve), then checks its real path.
          const real = fs.realpathSync(path.resolve(cwd));
          if (fs.statSync(real).isDirectory()) expectedReal = real;
        } catch {
          expectedReal = undefined;
        }
        const inside =
          expectedReal !== undefined &&
          (expectedReal === realRoot || expectedReal.startsWith(`${realRoot}${path.sep}`));
        let outcome: string;
        try {
          const result = await runCommand({
            command: ['/bin/pwd', '-P'],
            cwd,
            allowedRoots: [root],
          });
          outcome = result.stdout.trim();
        } catch (error) {
          outcome = RunnerError.isInstance(error) ? error.code : String(error);
        }
        expect(outcome, cwd).toBe(inside ? expectedReal : 'CWD_INVALID');
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('runCommand hostile children', () => {
  const strays: number[] = [];
  afterEach(() => {
    for (const pid of strays.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });

  it('returns when a grandchild leaves the process group with setsid and keeps stdout open', async () => {
    // A process that leaves its group on purpose escapes the group kill (README: no sandbox),
    // but it cannot hang the call: the runner stops waiting for the pipes after the child exits.
    const result = await runCommand({
      command: "setsid sh -c 'echo $$; exec sleep 60' & sleep 0.2; echo done",
      timeoutMs: 60_000,
    });
    const [grandchild] = result.stdout.trim().split('\n').map(Number);
    if (grandchild !== undefined && Number.isInteger(grandchild)) strays.push(grandchild);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
    expect(result.stdout).toContain('done');
  }, 60_000);

  it('keeps invalid UTF-8 and escape sequences as data when the child prints them', async () => {
    const result = await runCommand({ command: "printf '\\377\\033[2J\\000ok'" });
    expect(result.stdout).toBe('\\xff\u001b[2J\u0000ok');
    expect(result.stdoutBytes).toBe(8);
  }, 20_000);

  it('kills the whole group when a child forks a subshell that ignores SIGTERM and the timeout expires', async () => {
    const result = await runCommand({
      command: 'sh -c \'trap "" TERM; echo $$; while :; do sleep 1; done\' & wait',
      timeoutMs: 300,
      killGraceMs: 200,
    });
    const [pid] = result.stdout.trim().split('\n').map(Number);
    expect(result.timedOut).toBe(true);
    expect(pid).toBeGreaterThan(0);
    expect(await allGone([pid as number])).toBe(true);
  }, 60_000);
});
