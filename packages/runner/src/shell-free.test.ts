import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from './run-command.js';
import type { RunResult } from './run-result.js';
import { shellFreeCommand } from './shell-free.js';
import { spawnHelperStatus } from './spawn-helper.js';
import { spawnedBy } from './test-helpers/spawner.js';

// Where /bin/sh is dash (Debian, Ubuntu: this project's CI) a plain command runs without it; the
// comparisons below hold everywhere (elsewhere both sides run under the shell).
const DASH = process.platform === 'linux' && fs.realpathSync('/bin/sh').endsWith('/dash');

function script(dir: string, name: string, text: string, mode = 0o755): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text, { mode });
  fs.chmodSync(file, mode);
  return file;
}

/** A project dir of scripts, and PATH/HOME that name it. */
function scene() {
  const dir = makeTempDir();
  const bin = path.join(dir, 'bin');
  const home = path.join(dir, 'home');
  fs.mkdirSync(bin);
  fs.mkdirSync(home);
  const show = `#!/bin/sh\nprintf '%s|' "$0" "$#" "$@" "$PWD" "$(pwd -P)"; echo; env | sort; cat\n`;
  script(dir, 'show.sh', show);
  script(bin, 'show-on-path', show);
  script(home, 'in-home.sh', show);
  script(dir, 'segv.sh', '#!/bin/sh\necho before; kill -SEGV $$\n');
  script(dir, 'int.sh', '#!/bin/sh\nkill -INT $$\n');
  script(dir, 'pipe.sh', '#!/bin/sh\nkill -PIPE $$\n');
  script(dir, 'term.sh', '#!/bin/sh\necho out; echo err >&2; kill -TERM $$\n');
  script(dir, 'exit7.sh', '#!/bin/sh\nexit 7\n');
  script(dir, 'no-shebang.sh', 'echo "run by the shell: $0"\n');
  script(dir, 'missing-interpreter.sh', '#!/nonexistent/interpreter\necho never\n');
  script(dir, 'not-executable.sh', '#!/bin/sh\necho never\n', 0o644);
  fs.mkdirSync(path.join(dir, 'a-dir'));
  // The first `twice` on PATH is not executable: dash stops there (126), it does not go on.
  const first = path.join(dir, 'first');
  fs.mkdirSync(first);
  script(first, 'twice', '#!/bin/sh\necho first\n', 0o644);
  script(bin, 'twice', '#!/bin/sh\necho second\n');
  script(bin, 'parent', '#!/bin/sh\necho "$PPID $(cat /proc/$PPID/comm)"\n');
  const PATH = `${first}:${bin}:/usr/bin:/bin`;
  return { dir, env: { PATH, HOME: home } };
}

async function bothWays(command: string, dir: string, env: Record<string, string>) {
  const options = { cwd: dir, env, input: 'stdin text\n', timeoutMs: 20_000, envAllowlist: [] };
  const plain = await runCommand({ ...options, command });
  const shell = await runCommand({ ...options, command: ['/bin/sh', '-c', command] });
  return { plain, shell };
}

const outcome = (result: RunResult) => ({
  exitCode: result.exitCode,
  signal: result.signal,
  stdout: result.stdout,
  stderr: result.stderr,
  timedOut: result.timedOut,
});

describe('a plain string command, run without the shell where /bin/sh is dash', () => {
  const commands = [
    'cat',
    // argv[0] as the shell passes it (the word, not the path found on PATH).
    'cat /proc/self/cmdline',
    '  cat   -  ',
    './show.sh a b,c d=e f:g h@i j%k +l',
    'show-on-path x/y --flag=1',
    '~/in-home.sh ~ ~/z',
    './segv.sh',
    './int.sh',
    './pipe.sh',
    './term.sh',
    './exit7.sh',
    './no-shebang.sh',
    './missing-interpreter.sh',
    './not-executable.sh',
    './a-dir',
    './absent.sh',
    'twice',
    'absent-program',
    'true',
    'echo builtin',
    'A=b',
    'show.sh',
  ];
  it.each(commands)(
    '%j: the same exit, signal, stdout and stderr as /bin/sh -c',
    async (command) => {
      const { dir, env } = scene();
      const { plain, shell } = await bothWays(command, dir, env);
      expect(outcome(plain)).toEqual(outcome(shell));
    },
  );

  it('gives the program the same environment, in its own order (dash reorders it)', async () => {
    const { dir, env } = scene();
    const { plain, shell } = await bothWays('env', dir, { ...env, LANG: 'C.UTF-8', Z_LAST: 'z' });
    const sorted = (text: string) => text.split('\n').sort();
    expect(sorted(plain.stdout)).toEqual(sorted(shell.stdout));
    expect(plain.stdout).toContain(`PWD=${fs.realpathSync(dir)}\n`);
    expect(plain.exitCode).toBe(0);
  });

  it.runIf(DASH)('runs the program itself: its parent is the runner, not a shell', async () => {
    const { dir, env } = scene();
    const options = { cwd: dir, env, envAllowlist: [], spawnHelper: false };
    const plain = await runCommand({ ...options, command: 'parent' });
    const shell = await runCommand({ ...options, command: ['/bin/sh', '-c', 'parent'] });
    expect(shell.stdout).toMatch(/^\d+ sh\n$/);
    const [parent, name] = plain.stdout.trim().split(' ');
    expect(name).not.toBe('sh');
    expect(spawnedBy(Number(parent), process.pid)).toBe(true);
  });

  // SOONG_AGENT_TEST_SPAWN_HELPER=off turns the helper off for the whole process.
  it.runIf(DASH && process.env.SOONG_AGENT_TEST_SPAWN_HELPER !== 'off')(
    'through the spawn helper too',
    async () => {
      const { dir, env } = scene();
      const result = await runCommand({ command: 'parent', cwd: dir, env, spawnHelper: true });
      const helper = spawnHelperStatus().pid;
      expect(helper).toBeDefined();
      expect(spawnedBy(Number(result.stdout.split(' ')[0]), helper as number)).toBe(true);
    },
  );

  it('keeps a timeout a timeout: the signal the runner sent is reported as such', async () => {
    const { dir, env } = scene();
    const result = await runCommand({
      command: 'sleep 30',
      cwd: dir,
      env,
      timeoutMs: 200,
      killGraceMs: 100,
    });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' });
  });
});

// Every regular file under `dir` and its contents, with `dir` itself written as <dir>.
function filesUnder(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    if (fs.lstatSync(file).isFile())
      files[entry] = fs.readFileSync(file, 'utf8').replaceAll(dir, '<dir>');
  }
  return files;
}

type Scene = ReturnType<typeof scene>;

/**
 * `command` run by the runner in `plain` and as `/bin/sh -c command` in `shell` (two copies of one
 * scene): the same exit, signal, stdout and stderr (the scene's dir written as <dir>), and the
 * same files left.
 */
async function expectSameAsShell(command: string, plain: Scene, shell: Scene): Promise<void> {
  const options = { input: 'stdin text\n', timeoutMs: 20_000, envAllowlist: [] };
  const ours = await runCommand({ ...options, cwd: plain.dir, env: plain.env, command });
  const sh = await runCommand({
    ...options,
    cwd: shell.dir,
    env: shell.env,
    command: ['/bin/sh', '-c', command],
  });
  const seen = (result: RunResult, dir: string) =>
    JSON.parse(JSON.stringify(outcome(result)).replaceAll(dir, '<dir>'));
  expect(seen(ours, plain.dir)).toEqual(seen(sh, shell.dir));
  expect(filesUnder(plain.dir)).toEqual(filesUnder(shell.dir));
}

describe('a #!/bin/sh file of such lists, run without its shell where /bin/sh is dash', () => {
  // [the file's lines after #!/bin/sh, run without the shell where /bin/sh is dash]
  const bodies: [string, boolean][] = [
    ['cat >/dev/null\necho . >>log\n', true],
    ['# a comment\n\ncat >out; echo done\n  # an indented one\n', true],
    ['echo a\nexit 3\necho never\n', true],
    ['cat >/nonexistent/x\necho after\n', true],
    ['true\n./absent.sh\necho after\n', false],
    ['echo \'{"decision":"deny","reason":"no"}\'\nexit 2', true],
    ['head -c 3\necho\ncat\n', true],
    [': >/nonexistent/x\necho never\n', true],
    ['./exit7.sh && echo not-run\n./segv.sh\necho after\n', true],
    ['show-on-path a >out 2>&1\ncat out\n', true],
    ['set -e\nfalse\necho no\n', false],
    ['echo "$0" "$1"\n', false],
    ['cat # a comment after a command\n', false],
    ['echo hi\r\n', false],
    ['echo one &&\necho two\n', false],
    ['\n# nothing but comments\n', false],
  ];
  it.each(bodies)(
    '%j: the same exit, signal, stdout, stderr and files as its shell',
    async (body, shellFree) => {
      const [plain, shell] = [scene(), scene()];
      for (const { dir } of [plain, shell]) script(dir, 'hook.sh', `#!/bin/sh\n${body}`);
      if (DASH)
        expect(shellFreeCommand('./hook.sh x', plain.dir, plain.env)?.file).toBe(
          shellFree ? './hook.sh' : undefined,
        );
      await expectSameAsShell('./hook.sh x', plain, shell);
    },
  );

  it.runIf(DASH)('leaves a file of another interpreter, or with an option, to it', () => {
    const { dir, env } = scene();
    for (const first of ['#!/bin/bash', '#!/bin/sh -e', '#!/usr/bin/env sh', '#!/bin/dash']) {
      script(dir, 'other.sh', `${first}\necho hi\n`);
      expect(shellFreeCommand('./other.sh', dir, env)?.file).toBeUndefined();
    }
    script(dir, 'spaced.sh', '#! /bin/sh\necho hi\n');
    expect(shellFreeCommand('./spaced.sh', dir, env)?.file).toBe('./spaced.sh');
    // Named with a redirection or in a list: the list's own steps, not the file's.
    expect(shellFreeCommand('./spaced.sh >out', dir, env)?.file).toBeUndefined();
    expect(shellFreeCommand('./spaced.sh; true', dir, env)?.file).toBeUndefined();
  });
});

describe('a list of simple commands, run without the shell where /bin/sh is dash', () => {
  // [command, run without the shell where /bin/sh is dash]
  const commands: [string, boolean][] = [
    ['cat >/dev/null; echo . >>log', true],
    ['cat >out; echo done', true],
    ['cat; cat', true],
    ['head -c 3; echo; cat', true],
    ['cat <in.txt; cat < in.txt; cat', true],
    ['echo hi >out; cat out', true],
    ['echo a >>log; echo b >> log; cat log', true],
    ['echo -n a; echo -e b; echo -- c; echo -n; echo', true],
    [`echo 'a  b' "c;d|e>f" e'f'g "" ''`, true],
    ['echo \'{"decision":"deny","reason":"no"}\'', true],
    ['true && echo yes || echo no', true],
    ['false && echo yes || echo no', true],
    ['false || false || echo third; echo fourth', true],
    [': ; true; false', true],
    ['./exit7.sh; echo after', true],
    ['./exit7.sh && echo not-run', true],
    ['./exit7.sh || exit 3', true],
    ['./exit7.sh; exit', true],
    ['exit 5; echo never', true],
    ['echo blocked >&2; exit 2', true],
    ['echo out; echo err 1>&2', true],
    ['echo a 2>/dev/null >&2', true],
    ['echo a >&2 2>/dev/null', true],
    ['./segv.sh; echo after', true],
    ['./int.sh; echo after', true],
    ['./pipe.sh; echo after', true],
    ['./term.sh; echo after', true],
    ['cat >/nonexistent/x; echo after', true],
    ['cat 2>err.txt >/nonexistent/x; echo after; cat err.txt', true],
    ['echo x 2>>err.txt >/nonexistent/x; cat err.txt', true],
    [': >/nonexistent/x; echo never', true],
    ['exit 3 >/nonexistent/x; echo never', true],
    ['true >/nonexistent/x; echo after', true],
    ['echo hi >/dev/full; echo after', true],
    ['head -c 4 </dev/zero | od -c', false],
    ['cat >/dev/stdout', false],
    ['cat >stdout-link', false],
    ['cat >/proc/self/fd/1', false],
    ['cat <absent; echo after', true],
    ['cat <a-dir/../in.txt', true],
    ['show-on-path a >out 2>&1; cat out', true],
    ['./term.sh >out 2>>out; cat out', true],
    ['./segv.sh 2>err.txt; cat err.txt', true],
    ['./segv.sh 2>/dev/null; echo after', true],
    ['~/in-home.sh x >~/o; cat ~/o', true],
    ['./show.sh a; ./show.sh b;', true],
    ['cat >out; cat out; cat out >>out2; cat out2', true],
    // Programs that cannot be spawned: first (the shell runs it all), and later (dash's lines).
    ['./missing-interpreter.sh; echo after', true],
    ['true; ./missing-interpreter.sh; echo after', true],
    ['rm gone.sh; ./gone.sh 2>err.txt; echo after; cat err.txt', true],
    // What a step leaves in the background lives as long as the list (the shell's one group).
    ['./bg.sh; sleep 1; cat alive.txt', true],
    // A newline in quotes moves dash's line numbers: the shell's.
    ["echo 'a\nb'; cat <absent", false],
    ['echo x >a-dir', false],
    ['twice; echo after', false],
    ['exit 300', false],
  ];
  it.each(commands)(
    '%j: the same exit, signal, stdout, stderr and files as /bin/sh -c',
    async (command, shellFree) => {
      const [plain, shell] = [scene(), scene()];
      for (const { dir } of [plain, shell]) {
        fs.writeFileSync(path.join(dir, 'in.txt'), 'from a file\n');
        fs.symlinkSync('/dev/stdout', path.join(dir, 'stdout-link'));
        script(dir, 'gone.sh', '#!/bin/sh\necho never\n');
        script(dir, 'bg.sh', '#!/bin/sh\n(sleep 0.3; echo alive >alive.txt) >/dev/null 2>&1 &\n');
      }
      if (DASH)
        expect(shellFreeCommand(command, plain.dir, plain.env) !== undefined).toBe(shellFree);
      await expectSameAsShell(command, plain, shell);
    },
  );

  it.runIf(DASH)('runs its programs itself, with no shell between', async () => {
    const { dir, env } = scene();
    const result = await runCommand({ command: 'true; parent', cwd: dir, env, spawnHelper: false });
    const [parent, name] = result.stdout.trim().split(' ');
    expect(name).not.toBe('sh');
    expect(spawnedBy(Number(parent), process.pid)).toBe(true);
  });

  it.runIf(DASH)('gives every step the same environment, with the PWD dash exports', async () => {
    const { dir, env } = scene();
    const result = await runCommand({ command: 'env >e1; env >e2', cwd: dir, env });
    const first = fs.readFileSync(path.join(dir, 'e1'), 'utf8');
    expect(first).toContain(`PWD=${fs.realpathSync(dir)}\n`);
    expect(fs.readFileSync(path.join(dir, 'e2'), 'utf8')).toBe(first);
    expect(result.exitCode).toBe(0);
  });

  it('stops at a timeout: the step running is killed and no other starts', async () => {
    const { dir, env } = scene();
    for (const spawnHelper of [true, false]) {
      const result = await runCommand({
        command: 'echo first; sleep 30; echo never >never',
        cwd: dir,
        env,
        timeoutMs: 300,
        killGraceMs: 100,
        spawnHelper,
      });
      expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' });
      expect(result.stdout).toBe('first\n');
      expect(fs.existsSync(path.join(dir, 'never'))).toBe(false);
    }
  });

  it('stops at an abort, and at the output limit', async () => {
    const { dir, env } = scene();
    const controller = new AbortController();
    const running = runCommand({
      command: 'echo first; sleep 30; echo never >never',
      cwd: dir,
      env,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    expect(await running).toMatchObject({ aborted: true, exitCode: null, stdout: 'first\n' });
    const flood = await runCommand({
      command: 'echo 0123456789; sleep 30; echo never >never',
      cwd: dir,
      env,
      maxOutputBytes: 4,
      stopOnOutputLimit: true,
    });
    expect(flood).toMatchObject({ stdoutLimitExceeded: true, stdout: '0123', signal: 'SIGKILL' });
    expect(fs.existsSync(path.join(dir, 'never'))).toBe(false);
  });
});

describe('shellFreeCommand', () => {
  it.runIf(DASH)('takes plain words, `~` from HOME, and finds the program as dash does', () => {
    const { dir, env } = scene();
    const step = (words: string[], file?: string, redirects: unknown[] = [], after = ';') => ({
      after,
      words,
      redirects,
      ...(file === undefined ? {} : { file }),
    });
    expect(shellFreeCommand('show-on-path a  b', dir, env)).toEqual({
      steps: [step(['show-on-path', 'a', 'b'], `${path.join(dir, 'bin')}/show-on-path`)],
    });
    const inHome = path.join(env.HOME, 'in-home.sh');
    expect(shellFreeCommand('~/in-home.sh ~', dir, env)).toEqual({
      steps: [step([inHome, env.HOME], inHome)],
    });
    expect(
      shellFreeCommand(`cat >/dev/null; echo . >>~/log && 'echo' "a b"'c' || exit 3`, dir, env),
    ).toEqual({
      steps: [
        step(['cat'], '/usr/bin/cat', [{ fd: 1, op: '>', target: '/dev/null' }]),
        step(['echo', '.'], undefined, [{ fd: 1, op: '>>', target: `${env.HOME}/log` }]),
        step(['echo', 'a bc'], undefined, [], '&&'),
        step(['exit', '3'], undefined, [], '||'),
      ],
    });
    expect(shellFreeCommand('show-on-path <in 2>>err >out 2>&1;', dir, env)).toEqual({
      steps: [
        step(['show-on-path'], `${path.join(dir, 'bin')}/show-on-path`, [
          { fd: 0, op: '<', target: 'in' },
          { fd: 2, op: '>>', target: 'err' },
          { fd: 1, op: '>', target: 'out' },
          { fd: 2, op: '>&', from: 1 },
        ]),
      ],
    });
    expect(shellFreeCommand("echo 'blocked: rm -rf /' >&2; exit 2", dir, env)).toEqual({
      steps: [
        step(['echo', 'blocked: rm -rf /'], undefined, [{ fd: 1, op: '>&', from: 2 }]),
        step(['exit', '2']),
      ],
    });
  });

  it('leaves to the shell whatever the shell would do more with', () => {
    const { dir, env } = scene();
    const leftToShell = [
      'show.sh; true',
      'show.sh | cat',
      'show.sh > out',
      'true | cat',
      'true & true',
      'true;; true',
      '; true',
      'true &&',
      'true || ',
      '>out',
      'true >',
      'true 3>out',
      'true 12>out',
      'true <<EOF',
      'true <>out',
      'true >|out',
      'true <&0',
      'true >&-',
      'true >&3',
      'cat >a-dir',
      'cat >/dev/stdout',
      'cat </dev/tty',
      'cat >/dev/stderr',
      'cat 2>&1',
      'cat >&2',
      'cat 2>&1 >/dev/null',
      'echo "$HOME"',
      'echo "a\\nb"',
      "echo 'a\\nb'",
      'echo "unclosed',
      "echo 'unclosed",
      'echo ~user',
      'echo ~"/x"',
      'echo a#b',
      'echo {a,b}',
      'exit 256',
      'exit 1 2',
      'exit -1',
      "'cat'",
      'cd /tmp && cat',
      'printf x',
      'show.sh "$HOME"',
      "show.sh 'a b'",
      'show.sh $HOME',
      'show.sh *',
      'show.sh a\\ b',
      'show.sh `id`',
      'show.sh $(id)',
      'show.sh &',
      'show.sh # comment',
      'show.sh\nshow.sh',
      // dash execs a name found in an empty PATH entry (the working dir) as written: left to it.
      'show.sh',
      'A=1 show.sh',
      '~user/x',
      'test -f x',
      '[ -f x ]',
      'if true; then :; fi',
      'absent-program',
      './no-shebang.sh',
      './not-executable.sh',
      'twice',
      './a-dir',
    ];
    // Paths that reach the descriptors of the process that opens them, however written.
    fs.symlinkSync('/proc/self/fd', path.join(dir, 'fdl'));
    fs.symlinkSync('/proc', path.join(dir, 'procl'));
    leftToShell.push(
      'echo x >fdl/1',
      'cat <fdl/0',
      'echo x >procl/self/fd/1',
      'echo x >//proc/self/fd/1',
      'echo x >/./dev/fd/1',
      'echo x >/dev/../proc/self/fd/1',
    );
    for (const command of leftToShell) expect(shellFreeCommand(command, dir, env)).toBeUndefined();
    // Variables dash sets or drops, and a `%` PATH entry, which can make a name a builtin.
    for (const extra of [
      { OPTIND: '5' },
      { IFS: 'x' },
      { PPID: '1' },
      { 'A-B': '1' },
      { 'A.B': '1' },
    ])
      expect(shellFreeCommand('true; cat', dir, { ...env, ...extra })).toBeUndefined();
    expect(shellFreeCommand('echo hi', dir, { ...env, PATH: `/x%builtin:${env.PATH}` })).toBe(
      undefined,
    );
    // dash's own rules for these: an environment PWD, no HOME for `~`, no PATH.
    expect(shellFreeCommand('show-on-path', dir, { ...env, PWD: dir })).toBeUndefined();
    expect(shellFreeCommand('~/in-home.sh', dir, { PATH: env.PATH })).toBeUndefined();
    expect(shellFreeCommand('~/in-home.sh', dir, { ...env, HOME: '' })).toBeUndefined();
    expect(shellFreeCommand('show-on-path', dir, { HOME: env.HOME })).toBeUndefined();
    expect(shellFreeCommand('show-on-path', dir, { ...env, PATH: `/x%builtin:${env.PATH}` })).toBe(
      undefined,
    );
  });
});
