import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  eventually,
  groupGone,
  isAlive,
  liveGroupMembers,
  makeTempDir,
} from '@soong-agent/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  RunnerError,
  type RunOptions,
  type RunResult,
  runCommand,
  spawnHelperStatus,
} from './index.js';
import { posixSpawnerReady, setPosixSpawner, warmPosixSpawner } from './posix-spawner.js';
import { builtEntryUrl, fixture } from './test-helpers/build.js';
import { POSIX_SPAWNER_CAN_RUN, parentOf } from './test-helpers/spawner.js';

// The posix spawner runs where a system python3 does, on Linux: there every child of these tests
// is compared with the same command spawned by Node.
const ON = POSIX_SPAWNER_CAN_RUN && process.env.SOONG_AGENT_TEST_POSIX_SPAWNER !== 'off';

async function spawnerReady(): Promise<void> {
  setPosixSpawner(true);
  warmPosixSpawner();
  await eventually(() => posixSpawnerReady());
}

/** The command run by the spawner, then by Node (the spawner off), from this process. */
async function bothWays(options: RunOptions): Promise<{ spawner: RunResult; node: RunResult }> {
  await spawnerReady();
  const spawner = await runCommand({ spawnHelper: false, ...options });
  setPosixSpawner(false);
  const node = await runCommand({ spawnHelper: false, ...options });
  setPosixSpawner(true);
  return { spawner, node };
}

function outcome(result: RunResult) {
  const { durationMs: _durationMs, ...rest } = result;
  return rest;
}

afterEach(() => setPosixSpawner(true));

describe.runIf(ON)('the posix spawner', () => {
  it('spawns from a python3 this process started, whose environment holds nothing of ours', async () => {
    await spawnerReady();
    const result = await runCommand({
      command: 'echo $PPID; cat /proc/$PPID/comm',
      spawnHelper: false,
      env: { SECRET_FOR_TEST: 'x' },
    });
    const [parent, name] = result.stdout.trim().split('\n');
    expect(name).toMatch(/^python3/);
    expect(parentOf(Number(parent))).toBe(process.pid);
    expect(fs.readFileSync(`/proc/${parent}/environ`, 'utf8')).toBe('');
  });

  function fixtureDir(): string {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'in.txt'), 'from a file\n');
    fs.writeFileSync(path.join(dir, 'interp.sh'), '#!/nonexistent/interpreter\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'plain.sh'), 'echo run by a shell\n', { mode: 0o755 });
    return dir;
  }
  const cases: [string, RunOptions][] = [
    ['a program reading its input', { command: 'cat', input: 'the input\n' }],
    ['a list sharing the input file', { command: 'head -c 4; echo; cat', input: 'abcdefgh' }],
    ['redirections', { command: 'cat <in.txt; cat >/dev/null; echo . >>log; cat log' }],
    ['stdout and stderr', { command: ['/bin/sh', '-c', 'echo out; echo err >&2; exit 3'] }],
    [
      'a session and group of its own',
      {
        command: [
          '/bin/sh',
          '-c',
          'read -r _ _ _ _ group session _ </proc/$$/stat; [ $group = $$ ] && [ $session = $$ ] && echo leader',
        ],
      },
    ],
    [
      'every signal at its default, none blocked',
      { command: ['/bin/grep', '-E', '^Sig(Ign|Blk|Cgt)', '/proc/self/status'] },
    ],
    [
      'sockets for its output, a regular file for its input',
      {
        command: ['/usr/bin/stat', '-L', '-c', '%F', '/proc/self/fd/0', '/proc/self/fd/1'],
        input: 'x',
      },
    ],
    ['no input: /dev/null', { command: ['/usr/bin/stat', '-L', '-c', '%t:%T', '/proc/self/fd/0'] }],
    ['the exact environment', { command: ['/usr/bin/env'], env: { A: '1', B: 'two words' } }],
    ['the working dir', { command: ['/bin/pwd', '-P'] }],
    ['argv[0] and arguments', { command: 'sh -c \'echo "$0" "$@"\' zero \'one two\' three' }],
    ['a signal death', { command: ['/bin/sh', '-c', 'kill -TERM $$'] }],
    ['a signal death by SIGKILL', { command: ['/bin/sh', '-c', 'kill -KILL $$'] }],
    [
      'a megabyte of output, cut at the limit',
      {
        command: ['/bin/sh', '-c', 'head -c 1000000 /dev/zero | tr "\\000" a'],
        maxOutputBytes: 300_000,
      },
    ],
    ['a timeout', { command: ['/bin/sleep', '5'], timeoutMs: 300 }],
    ['a missing #! interpreter', { command: ['./interp.sh'] }],
    ['a file without #!', { command: ['./plain.sh'] }],
    [
      'stdout and stderr into one file (one open file, one offset)',
      { command: "/bin/sh -c 'echo out1; echo err1 >&2; echo out2' >f 2>&1; cat f" },
    ],
    ['a lone surrogate in an argument', { command: ['/usr/bin/printf', '%s', 'a\udcffb'] }],
    [
      'a lone surrogate in a later step of a list sharing the input',
      { command: "head -c 4; echo; cat - '\ud800'", input: 'abcdefgh' },
    ],
  ];
  it.each(cases)('gives Node’s results for %s', async (_what, options) => {
    const cwd = fixtureDir();
    const settled = async (run: Promise<RunResult>) =>
      run.then(
        (result) => ({ result: outcome(result) }),
        (error: unknown) => ({
          error: RunnerError.isInstance(error) ? [error.code, error.message] : error,
        }),
      );
    await spawnerReady();
    const spawner = await settled(runCommand({ spawnHelper: false, cwd, ...options }));
    fs.rmSync(path.join(cwd, 'log'), { force: true });
    setPosixSpawner(false);
    const node = await settled(runCommand({ spawnHelper: false, cwd, ...options }));
    expect(spawner).toEqual(node);
  });

  it('gives a child descriptors 0–2 and no other, not even what this process inherited', async () => {
    // Node passes on whatever its process holds without close-on-exec (a test runner's pipe, a
    // descriptor a parent leaked); the spawner closes everything else.
    const { spawner } = await bothWays({ command: ['/bin/ls', '/proc/self/fd'] });
    // 3 is ls's own listing of the folder.
    expect(spawner.stdout).toBe('0\n1\n2\n3\n');
  });

  it('reads a real-time signal death as 128+N, where Node reads it as exit 0', async () => {
    const { spawner, node } = await bothWays({ command: ['/bin/sh', '-c', 'kill -36 $$'] });
    expect(spawner).toMatchObject({ exitCode: 164, signal: null });
    expect(node).toMatchObject({ exitCode: 0, signal: null });
  });

  it('leaves a child no way into another run’s output through /proc/$PPID/fd', async () => {
    await spawnerReady();
    // A run in flight, its output relayed by the spawner; then a child that tries to open every
    // descriptor of the spawner for writing.
    const busy = runCommand({ command: 'echo started; sleep 1; echo done', spawnHelper: false });
    const probe = await runCommand({
      command:
        'for f in /proc/$PPID/fd/*; do (exec 3>>"$f") 2>/dev/null && readlink "$f"; done; true',
      spawnHelper: false,
    });
    // What it could open is /dev/null, or what this process inherited without close-on-exec (a
    // test runner's pipe) and passed on to the spawner: nothing the spawner made.
    const inherited = new Set(
      fs.readdirSync('/proc/self/fd').map((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return '';
        }
      }),
    );
    const opened = probe.stdout.split('\n').filter((line) => line !== '' && line !== '/dev/null');
    expect(opened.filter((target) => !inherited.has(target))).toEqual([]);
    expect((await busy).stdout).toBe('started\ndone\n');
  });

  it('fails a run whose spawner died as HELPER_FAILED, its group killed, and spawns with Node from then on', async () => {
    await spawnerReady();
    const running = runCommand({ command: 'echo $PPID; exec sleep 30', spawnHelper: false }).catch(
      (error: unknown) => error,
    );
    const spawner = await eventually(() => {
      const children = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8');
      return children
        .split(' ')
        .filter((pid) => pid.trim() !== '')
        .find((pid) => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('python3'));
    });
    // Started, and known to be: it has run its echo (whose output comes after the answer).
    const child = await eventually(() => {
      const [pid] = fs.readFileSync(`/proc/${spawner}/task/${spawner}/children`, 'utf8').split(' ');
      if (pid === undefined || pid === '') return undefined;
      return fs.readFileSync(`/proc/${pid}/comm`, 'utf8') === 'sleep\n' ? Number(pid) : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.kill(Number(spawner), 'SIGKILL');
    const error = await running;
    expect(RunnerError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'HELPER_FAILED',
      message: expect.stringMatching(
        /posix spawner \(pid \d+\) died during the run; what it had started was killed/,
      ),
    });
    expect(await groupGone(child)).toBe(true);
    const next = await runCommand({ command: 'echo $PPID', spawnHelper: false });
    expect(Number(next.stdout)).toBe(process.pid);
    expect(posixSpawnerReady()).toBe(false);
  });

  it.runIf(process.env.SOONG_AGENT_TEST_SPAWN_HELPER !== 'off')(
    'serves the spawn helper’s children too',
    async () => {
      const parents = new Set<number>();
      await eventually(async () => {
        const result = await runCommand({ command: 'echo $PPID', spawnHelper: true });
        const parent = Number(result.stdout);
        parents.add(parent);
        return parent !== spawnHelperStatus().pid && parentOf(parent) === spawnHelperStatus().pid;
      });
      expect(fs.readFileSync(`/proc/${[...parents].at(-1)}/comm`, 'utf8')).toMatch(/^python3/);
    },
  );

  it('leaves no process of a run behind when its host is SIGKILLed mid-run', async () => {
    const pidDir = makeTempDir();
    const host = spawn(
      process.execPath,
      [fixture('parent-with-many.mjs'), builtEntryUrl(), pidDir, '4'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let stdout = '';
    host.stdout.setEncoding('utf8');
    host.stdout.on('data', (chunk: string) => {
      stdout += chunk;
    });
    const closed = new Promise((resolve) => host.on('close', resolve));
    await eventually(() => stdout.includes('\n'), { timeoutMs: 60_000 });
    const { runs } = JSON.parse(stdout.replace(/^ready /, '')) as { runs: number[] };
    expect(runs).toHaveLength(4);
    // Spawned by the host's posix spawner, each with its background grandchild.
    const spawner = parentOf(runs[0] as number);
    expect(fs.readFileSync(`/proc/${spawner}/comm`, 'utf8')).toMatch(/^python3/);
    expect(parentOf(spawner)).toBe(host.pid);
    for (const pgid of runs) expect(liveGroupMembers(pgid).length).toBeGreaterThanOrEqual(2);
    host.kill('SIGKILL');
    await closed;
    for (const pgid of runs) expect(await groupGone(pgid)).toBe(true);
    expect(await eventually(() => !isAlive(spawner))).toBe(true);
  }, 90_000);

  it('keeps every run’s output when many run at once', async () => {
    await spawnerReady();
    for (let round = 0; round < 3; round += 1) {
      const inputs = Array.from({ length: 40 }, (_, index) => `run ${round}-${index}\n`);
      const results = await Promise.all(
        inputs.map((input) =>
          runCommand({ command: ['/bin/cat'], input, spawnHelper: false, timeoutMs: 60_000 }),
        ),
      );
      expect(results.map((result) => result.stdout)).toEqual(inputs);
    }
  });

  it('ends a list whose working dir became a file between steps, and hurts no other run', async () => {
    await spawnerReady();
    const root = makeTempDir();
    const cwd = path.join(root, 'work');
    fs.mkdirSync(cwd);
    const other = runCommand({ command: ['/bin/sleep', '1'], cwd: root, spawnHelper: false });
    const list = await runCommand({
      command: `/bin/sh -c 'cd /; rmdir ${cwd}; touch ${cwd}'; /bin/echo second`,
      cwd,
      spawnHelper: false,
      timeoutMs: 20_000,
    });
    expect(list).toMatchObject({ exitCode: 127, timedOut: false });
    expect(await other).toMatchObject({ exitCode: 0, signal: null });
  });

  it('fails the runs of a stopped spawner as HELPER_FAILED, runs nothing twice, then spawns with Node', async () => {
    await spawnerReady();
    const dir = makeTempDir();
    const spawner = Number(
      (await runCommand({ command: 'echo $PPID', spawnHelper: false })).stdout,
    );
    expect(parentOf(spawner)).toBe(process.pid);
    const running = runCommand({
      command: ['/bin/sleep', '5'],
      timeoutMs: 300,
      killGraceMs: 100,
      spawnHelper: false,
    }).catch((error: unknown) => error);
    // Its sleep started (and the answer that says so sent before the sleep's exec).
    await eventually(() =>
      fs
        .readFileSync(`/proc/${spawner}/task/${spawner}/children`, 'utf8')
        .split(' ')
        .some((pid) => pid !== '' && fs.readFileSync(`/proc/${pid}/comm`, 'utf8') === 'sleep\n'),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.kill(spawner, 'SIGSTOP');
    // Asked of the stopped spawner: never answered, so never run again by anyone else.
    const waiting = runCommand({
      command: ['/bin/sh', '-c', 'echo once >>count'],
      cwd: dir,
      spawnHelper: false,
    }).catch((error: unknown) => error);
    // The run's timeout kills its group; the spawner does not report the end: it is given up on.
    for (const error of [await running, await waiting])
      expect(error).toMatchObject({ code: 'HELPER_FAILED' });
    expect((await running) as Error).toHaveProperty(
      'message',
      expect.stringMatching(/stopped answering and was killed during the run/),
    );
    expect(fs.existsSync(path.join(dir, 'count'))).toBe(false);
    expect(await eventually(() => !isAlive(spawner))).toBe(true);
    const next = await runCommand({ command: 'echo $PPID', spawnHelper: false });
    expect(Number(next.stdout)).toBe(process.pid);
  }, 30_000);

  it('holds nothing of this process’s but its own channels', async () => {
    await spawnerReady();
    const spawner = Number(
      (await runCommand({ command: 'echo $PPID', spawnHelper: false })).stdout,
    );
    expect(parentOf(spawner)).toBe(process.pid);
    const targets = fs
      .readdirSync(`/proc/${spawner}/fd`)
      .filter((fd) => Number(fd) > 2)
      .map((fd) => fs.readlinkSync(`/proc/${spawner}/fd/${fd}`));
    expect(targets.filter((target) => !/^(socket|anon_inode):/.test(target))).toEqual([]);
  });

  it('takes true or false only', () => {
    expect(() => setPosixSpawner('no' as unknown as boolean)).toThrow(/true or false/);
  });
});
