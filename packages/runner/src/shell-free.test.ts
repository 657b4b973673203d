import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from './run-command.js';
import type { RunResult } from './run-result.js';
import { shellFreeCommand } from './shell-free.js';
import { spawnHelperStatus } from './spawn-helper.js';

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
    expect(plain.stdout.split(' ')[0]).toBe(String(process.pid));
  });

  it.runIf(DASH)('through the spawn helper too', async () => {
    const { dir, env } = scene();
    const result = await runCommand({ command: 'parent', cwd: dir, env, spawnHelper: true });
    const helper = spawnHelperStatus().pid;
    expect(helper).toBeDefined();
    expect(result.stdout.split(' ')[0]).toBe(String(helper));
  });

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

describe('shellFreeCommand', () => {
  it.runIf(DASH)('takes plain words, `~` from HOME, and finds the program as dash does', () => {
    const { dir, env } = scene();
    expect(shellFreeCommand('show-on-path a  b', dir, env)).toEqual({
      file: `${path.join(dir, 'bin')}/show-on-path`,
      args: ['a', 'b'],
      argv0: 'show-on-path',
    });
    expect(shellFreeCommand('~/in-home.sh ~', dir, env)).toEqual({
      file: path.join(env.HOME, 'in-home.sh'),
      args: [env.HOME],
      argv0: path.join(env.HOME, 'in-home.sh'),
    });
  });

  it('leaves to the shell whatever the shell would do more with', () => {
    const { dir, env } = scene();
    const leftToShell = [
      'show.sh; true',
      'show.sh | cat',
      'show.sh > out',
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
      'echo hi',
      'exit 2',
      'test -f x',
      '[ -f x ]',
      'if true; then :; fi',
      'absent-program',
      './no-shebang.sh',
      './not-executable.sh',
      'twice',
      './a-dir',
    ];
    for (const command of leftToShell) expect(shellFreeCommand(command, dir, env)).toBeUndefined();
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
