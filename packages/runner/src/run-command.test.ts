import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { allGone, eventually, groupGone, makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENV_ALLOWLIST } from './defaults.js';
import { killAllRuns } from './live-runs.js';
import { runCommand } from './run-command.js';

/** Parse "leader grandchild" pids a command printed with `echo "$$ $!"`. */
function pidsFrom(line: string): { leader: number; grandchild: number } {
  const [leader, grandchild] = line.trim().split(/\s+/).map(Number);
  if (
    leader === undefined ||
    grandchild === undefined ||
    Number.isNaN(leader) ||
    Number.isNaN(grandchild)
  ) {
    throw new Error(`no pids in ${JSON.stringify(line)}`);
  }
  return { leader, grandchild };
}

/**
 * A command that starts a grandchild, writes "leader grandchild" pids to a file once both run,
 * then waits; and a way to wait for that file.
 */
function withPidFile(prefix = ''): {
  command: string;
  env: { PID_FILE: string };
  started: () => Promise<{ leader: number; grandchild: number }>;
} {
  const file = path.join(makeTempDir(), 'pids');
  return {
    command: `${prefix}sleep 300 & echo "$$ $!" > "$PID_FILE.tmp" && mv "$PID_FILE.tmp" "$PID_FILE"; echo "$$ $!"; wait`,
    env: { PID_FILE: file },
    started: async () => {
      await eventually(() => fs.existsSync(file), {
        timeoutMs: 30_000,
        message: 'the command to start (its pid file)',
      });
      return pidsFrom(fs.readFileSync(file, 'utf8'));
    },
  };
}

describe('runCommand', () => {
  it('returns exit code, stdout and stderr when a shell string runs', async () => {
    const result = await runCommand({ command: 'echo out; echo err >&2; exit 3' });
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      timedOut: false,
      aborted: false,
      stdout: 'out\n',
      stderr: 'err\n',
      stdoutBytes: 4,
      stderrBytes: 4,
      stdoutTruncated: false,
      stderrTruncated: false,
      stdoutLimitExceeded: false,
    });
    expect(result.durationMs).toBeGreaterThan(0);
    // Rounded to 0.1 ms: no float noise in records.
    expect(Math.round(result.durationMs * 10) / 10).toBe(result.durationMs);
    expect(String(result.durationMs)).toMatch(/^\d+(\.\d)?$/);
    expect(result.stdoutTail).toBe('out\n');
    expect(result.stderrTail).toBe('err\n');
  }, 20_000);

  it('passes argv without a shell when command is an array', async () => {
    const result = await runCommand({ command: ['printf', '%s|', '$HOME', 'a b', ';echo no'] });
    expect(result.stdout).toBe('$HOME|a b|;echo no|');
    expect(result.exitCode).toBe(0);
  }, 20_000);

  it('returns exit 127 as a result when the shell cannot find the command', async () => {
    const result = await runCommand({ command: 'definitely-not-a-command-soong' });
    expect(result.exitCode).toBe(127);
  }, 20_000);

  it('reports the signal when the child is killed by a signal it did not get from us', async () => {
    const result = await runCommand({ command: 'kill -KILL $$' });
    expect(result).toMatchObject({
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: false,
      aborted: false,
    });
  }, 20_000);

  it('runs the child as the leader of its own process group', async () => {
    // Field 5 of /proc/<pid>/stat is the process group id.
    const result = await runCommand({ command: `echo $$; cut -d' ' -f5 /proc/$$/stat` });
    const [pid, pgid] = result.stdout.trim().split('\n').map(Number);
    expect(pgid).toBe(pid);
    expect(pgid).not.toBe(process.pid);
    const ownGroup = Number(
      fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ')[2],
    );
    expect(pgid).not.toBe(ownGroup);
  }, 20_000);

  it('runs in cwd when one is given', async () => {
    const dir = makeTempDir();
    const result = await runCommand({ command: ['pwd'], cwd: dir });
    expect(result.stdout.trim()).toBe(dir);
  }, 20_000);
});

describe('runCommand timeout', () => {
  it('sends SIGTERM to the whole group when the timeout expires', async () => {
    const result = await runCommand({
      command: 'sleep 300 & echo "$$ $!"; wait',
      timeoutMs: 2000,
      killGraceMs: 60_000,
    });
    expect(result).toMatchObject({
      timedOut: true,
      exitCode: null,
      signal: 'SIGTERM',
      aborted: false,
    });
    const { leader, grandchild } = pidsFrom(result.stdout);
    expect(await allGone([grandchild])).toBe(true);
    expect(await groupGone(leader)).toBe(true);
  }, 30_000);

  it('delivers SIGTERM to grandchildren, not only the direct child, when the timeout expires', async () => {
    const mark = path.join(makeTempDir(), 'got-term');
    // The grandchild records the SIGTERM it gets; the direct child catches its own and leaves
    // the grandchild a second to write, then exits with a code of its own.
    const inner = `trap 'echo term >> "$MARK"; exit 0' TERM; sleep 300 & wait`;
    const result = await runCommand({
      command: `trap 'sleep 1; exit 5' TERM; sh -c '${inner.replaceAll("'", `'"'"'`)}' & wait`,
      env: { MARK: mark },
      timeoutMs: 2000,
      killGraceMs: 60_000,
    });
    expect(result).toMatchObject({ timedOut: true, exitCode: 5, signal: null });
    expect(fs.readFileSync(mark, 'utf8')).toBe('term\n');
  }, 30_000);

  it('ends a child that traps and ignores SIGTERM with SIGKILL after killGraceMs', async () => {
    const result = await runCommand({
      command: `trap '' TERM; echo "$$ $$"; while :; do sleep 1; done`,
      timeoutMs: 2000,
      killGraceMs: 200,
    });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(await groupGone(pidsFrom(result.stdout).leader)).toBe(true);
  }, 30_000);

  it('kills a grandchild that ignores SIGTERM when the direct child dies of it', async () => {
    const result = await runCommand({
      command: `sh -c "trap '' TERM; sleep 300" & echo "$$ $!"; wait`,
      timeoutMs: 2000,
      killGraceMs: 60_000,
    });
    expect(result.timedOut).toBe(true);
    const { leader, grandchild } = pidsFrom(result.stdout);
    expect(await allGone([grandchild])).toBe(true);
    expect(await groupGone(leader)).toBe(true);
  }, 30_000);

  it('waits without limit when timeoutMs is 0', async () => {
    const result = await runCommand({ command: 'sleep 0.3; echo done', timeoutMs: 0 });
    expect(result).toMatchObject({ timedOut: false, exitCode: 0, stdout: 'done\n' });
  }, 20_000);
});

describe('runCommand pipe holders', () => {
  it('returns with the output so far when a background grandchild keeps stdout open', async () => {
    const result = await runCommand({
      command: 'sleep 30 & echo "$$ $!"; echo done',
      timeoutMs: 60_000,
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
    expect(result.stdout.split('\n')[1]).toBe('done');
    const { leader, grandchild } = pidsFrom(result.stdout);
    expect(await allGone([grandchild])).toBe(true);
    expect(await groupGone(leader)).toBe(true);
  }, 20_000);

  it('returns when a background grandchild keeps only stderr open', async () => {
    const result = await runCommand({
      command: 'sleep 30 >/dev/null & echo "$$ $!"; echo err >&2',
      timeoutMs: 60_000,
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, stderr: 'err\n' });
    expect(await groupGone(pidsFrom(result.stdout).leader)).toBe(true);
  }, 20_000);

  it('kills a background process that closed its pipes when the call returns', async () => {
    const result = await runCommand({
      command: 'sleep 30 >/dev/null 2>&1 & echo "$$ $!"',
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(0);
    expect(await allGone([pidsFrom(result.stdout).grandchild])).toBe(true);
  }, 20_000);
});

describe('runCommand output limits', () => {
  it('keeps maxOutputBytes per stream and counts the rest when output is larger', async () => {
    const result = await runCommand({
      command: 'head -c 5000 /dev/zero | tr "\\0" a; head -c 3000 /dev/zero | tr "\\0" b >&2',
      maxOutputBytes: 1000,
    });
    expect(result).toMatchObject({
      exitCode: 0,
      stdout: 'a'.repeat(1000),
      stderr: 'b'.repeat(1000),
      stdoutBytes: 5000,
      stderrBytes: 3000,
      stdoutTruncated: true,
      stderrTruncated: true,
      stdoutLimitExceeded: false,
    });
  }, 20_000);

  it('is not truncated when output is exactly maxOutputBytes', async () => {
    const result = await runCommand({ command: 'printf 12345', maxOutputBytes: 5 });
    expect(result).toMatchObject({ stdout: '12345', stdoutBytes: 5, stdoutTruncated: false });
  }, 20_000);

  it('drains a 200 MB writer to the end without keeping it', async () => {
    const result = await runCommand({ command: 'head -c 200000000 /dev/zero', timeoutMs: 120_000 });
    expect(result).toMatchObject({
      exitCode: 0,
      timedOut: false,
      stdoutBytes: 200_000_000,
      stdoutTruncated: true,
      stdoutLimitExceeded: false,
    });
    expect(result.stdout.length).toBe(1_048_576);
  }, 180_000);

  it('stops the group at once when stdout passes the limit and stopOnOutputLimit is set', async () => {
    const result = await runCommand({
      command: 'yes',
      maxOutputBytes: 4096,
      stopOnOutputLimit: true,
      timeoutMs: 60_000,
    });
    expect(result).toMatchObject({
      stdoutLimitExceeded: true,
      stdoutTruncated: true,
      timedOut: false,
      exitCode: null,
      signal: 'SIGKILL',
    });
    expect(result.stdout).toBe('y\n'.repeat(2048));
  }, 30_000);

  it('lets stderr pass the limit without stopping when stopOnOutputLimit is set', async () => {
    const result = await runCommand({
      command: 'head -c 10000 /dev/zero >&2; echo ok',
      maxOutputBytes: 100,
      stopOnOutputLimit: true,
    });
    expect(result).toMatchObject({
      exitCode: 0,
      stdout: 'ok\n',
      stderrBytes: 10000,
      stdoutLimitExceeded: false,
    });
  }, 20_000);

  it('keeps the real end of each stream as its tail when a flood passes maxOutputBytes', async () => {
    const result = await runCommand({
      command:
        'head -c 3000000 /dev/zero | tr "\\0" a; echo LAST-OUT; ' +
        '(head -c 3000000 /dev/zero | tr "\\0" b; echo LAST-ERR) >&2',
      maxOutputBytes: 1000,
      tailBytes: 100,
      timeoutMs: 120_000,
    });
    expect(result).toMatchObject({
      exitCode: 0,
      stdoutTruncated: true,
      stderrTruncated: true,
      stdout: 'a'.repeat(1000),
      stderr: 'b'.repeat(1000),
      stdoutTail: `${'a'.repeat(91)}LAST-OUT\n`,
      stderrTail: `${'b'.repeat(91)}LAST-ERR\n`,
    });
  }, 180_000);

  it('keeps an 8 KiB tail by default and none when tailBytes is 0', async () => {
    const command = 'head -c 20000 /dev/zero | tr "\\0" c >&2; echo END >&2';
    const byDefault = await runCommand({ command });
    expect(byDefault.stderrTail).toBe(`${'c'.repeat(8192 - 4)}END\n`);
    expect(byDefault.stderr.length).toBe(20004);
    const none = await runCommand({ command, tailBytes: 0 });
    expect(none).toMatchObject({ stderrTail: '', stderrBytes: 20004 });
  }, 20_000);

  it('leaves out a character cut at the start of the tail window', async () => {
    // "€" is 3 bytes; a 4-byte window starts inside it.
    const result = await runCommand({ command: `printf 'a€bc'`, tailBytes: 4 });
    expect(result).toMatchObject({ stdout: 'a€bc', stdoutTail: 'bc' });
  }, 20_000);

  it('decodes a multibyte character split across chunks', async () => {
    // The euro sign is E2 82 AC; the sleep makes the halves arrive as separate chunks.
    const result = await runCommand({
      command: `printf '\\342'; sleep 0.2; printf '\\202\\254 ok'`,
    });
    expect(result.stdout).toBe('€ ok');
  }, 20_000);

  it('leaves out a character cut by the limit instead of replacing it', async () => {
    const result = await runCommand({ command: `printf 'ab€'`, maxOutputBytes: 3 });
    expect(result).toMatchObject({ stdout: 'ab', stdoutBytes: 5, stdoutTruncated: true });
  }, 20_000);
});

describe('runCommand input', () => {
  const tenMegabytes = 'x'.repeat(10 * 1024 * 1024);

  it('neither hangs nor fails when the child never reads 10 MB of input', async () => {
    const result = await runCommand({
      command: 'echo ignored',
      input: tenMegabytes,
      timeoutMs: 60_000,
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'ignored\n', timedOut: false });
    // Also when the child lives on for a while with the pipe full, then exits.
    const later = await runCommand({
      command: 'sleep 0.3; echo later',
      input: tenMegabytes,
      timeoutMs: 60_000,
    });
    expect(later).toMatchObject({ exitCode: 0, stdout: 'later\n', timedOut: false });
  }, 60_000);

  it('delivers every byte of 10 MB input to a child that reads it', async () => {
    const result = await runCommand({
      command: 'wc -c; sha256sum',
      input: tenMegabytes,
      timeoutMs: 60_000,
    });
    const [count] = result.stdout.trim().split('\n');
    expect(Number(count)).toBe(tenMegabytes.length);
    const all = await runCommand({ command: 'sha256sum', input: tenMegabytes, timeoutMs: 60_000 });
    expect(all.stdout.split(' ')[0]).toBe(createHash('sha256').update(tenMegabytes).digest('hex'));
  }, 60_000);

  it('delivers binary input given as a Uint8Array unchanged', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    const result = await runCommand({ command: 'sha256sum', input: bytes });
    expect(result.stdout.split(' ')[0]).toBe(createHash('sha256').update(bytes).digest('hex'));
  }, 20_000);

  it('lets the child reopen /dev/stdin when input is given', async () => {
    // A socket (what Node gives a child for stdin: 'pipe') cannot be opened through /dev/stdin.
    const input = '{"event":"PreToolUse","secret":"s3cr3t"}';
    const shell = await runCommand({ command: 'cat /dev/stdin', input });
    expect(shell).toMatchObject({ exitCode: 0, stdout: input, stderr: '' });
    const node = await runCommand({
      command: [
        process.execPath,
        '-e',
        "process.stdout.write(require('fs').readFileSync('/dev/stdin'))",
      ],
      input,
    });
    expect(node).toMatchObject({ exitCode: 0, stdout: input, stderr: '' });
  }, 20_000);

  it('gives the child an unlinked, owner-only file as stdin when input is given', async () => {
    const result = await runCommand({
      command: 'readlink /proc/self/fd/0; stat -L -c %a /proc/self/fd/0',
      input: 'payload',
    });
    const [link, mode] = result.stdout.trim().split('\n');
    expect(link).toMatch(/ \(deleted\)$/);
    expect(fs.existsSync((link ?? '').replace(/ \(deleted\)$/, ''))).toBe(false);
    expect(mode).toBe('600');
  }, 20_000);

  it('gives the child /dev/null as stdin when no input is given', async () => {
    const result = await runCommand({
      command: 'readlink /proc/self/fd/0; cat /dev/stdin; echo end',
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: '/dev/null\nend\n', stderr: '' });
  }, 20_000);

  it('leaves no descriptor open in the parent when runs with input settle', async () => {
    const openFds = (): number => fs.readdirSync('/proc/self/fd').length;
    await runCommand({ command: 'cat >/dev/null', input: 'warm up' });
    const before = openFds();
    for (let index = 0; index < 20; index += 1) {
      await runCommand({ command: index % 2 === 0 ? 'cat >/dev/null' : 'true', input: 'x' });
    }
    expect(openFds()).toBe(before);
  }, 60_000);

  it('closes stdin when no input is given', async () => {
    const result = await runCommand({ command: 'cat; echo end', timeoutMs: 60_000 });
    expect(result).toMatchObject({ stdout: 'end\n', timedOut: false });
  }, 20_000);
});

describe('runCommand environment', () => {
  const parentEnv = {
    PATH: process.env.PATH,
    HOME: '/home/someone',
    LANG: 'C.UTF-8',
    SOONG_SECRET_TOKEN: 'hunter2',
    PATHX: 'near-miss',
    path: 'lower-case',
    SHELL: '() { echo exported function; }',
  };

  it('passes exactly the allowlisted parent variables plus extras to an argv child', async () => {
    const result = await runCommand({
      command: ['/usr/bin/env'],
      parentEnv,
      env: { SOONG_ARG_X: '1' },
    });
    const names = result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('=')[0]);
    expect(names.sort()).toEqual(['HOME', 'LANG', 'PATH', 'SOONG_ARG_X']);
    expect(result.stdout).toContain('HOME=/home/someone\n');
  }, 20_000);

  it('hides a secret set in the real parent env from a shell that prints env', async () => {
    process.env.SOONG_TEST_SECRET = 'do-not-leak';
    try {
      const result = await runCommand({ command: 'env' });
      expect(result.stdout).not.toContain('SOONG_TEST_SECRET');
      expect(result.stdout).not.toContain('do-not-leak');
      expect(result.stdout).toContain(`PATH=${process.env.PATH}`);
    } finally {
      delete process.env.SOONG_TEST_SECRET;
    }
  }, 20_000);

  it('drops allowlisted values that begin with () and passes extras as given', async () => {
    const result = await runCommand({
      command: ['/usr/bin/env'],
      parentEnv,
      env: { HOME: '/override', FN: '() { x; }' },
    });
    expect(result.stdout).not.toContain('SHELL=');
    expect(result.stdout).toContain('HOME=/override\n');
    expect(result.stdout).toContain('FN=() { x; }\n');
  }, 20_000);

  it('uses envAllowlist instead of the default list when given', async () => {
    const result = await runCommand({
      command: ['/usr/bin/env'],
      parentEnv,
      envAllowlist: [...DEFAULT_ENV_ALLOWLIST, 'SOONG_SECRET_TOKEN'],
    });
    expect(result.stdout).toContain('SOONG_SECRET_TOKEN=hunter2\n');
  }, 20_000);
});

describe('runCommand signal', () => {
  it('kills the group and sets aborted when the signal aborts', async () => {
    const controller = new AbortController();
    const pids = withPidFile();
    const running = runCommand({
      command: pids.command,
      env: pids.env,
      signal: controller.signal,
      timeoutMs: 0,
    });
    const { leader, grandchild } = await pids.started();
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({
      aborted: true,
      timedOut: false,
      exitCode: null,
      signal: 'SIGTERM',
    });
    expect(await allGone([grandchild])).toBe(true);
    expect(await groupGone(leader)).toBe(true);
  }, 30_000);

  it('ends a SIGTERM-ignoring child after killGraceMs when aborted', async () => {
    const controller = new AbortController();
    const pids = withPidFile(`trap '' TERM; `);
    const running = runCommand({
      command: pids.command,
      env: pids.env,
      signal: controller.signal,
      killGraceMs: 100,
      timeoutMs: 0,
    });
    const { leader } = await pids.started();
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ aborted: true, signal: 'SIGKILL' });
    expect(await groupGone(leader)).toBe(true);
  }, 30_000);

  it('spawns nothing and returns an aborted result when the signal is already aborted', async () => {
    const dir = makeTempDir();
    const marker = path.join(dir, 'marker');
    const result = await runCommand({ command: ['touch', marker], signal: AbortSignal.abort() });
    expect(result).toMatchObject({ aborted: true, exitCode: null, signal: null, stdoutBytes: 0 });
    expect(fs.existsSync(marker)).toBe(false);
  }, 20_000);
});

describe('killAllRuns', () => {
  it('kills every run in flight and they settle as aborted', async () => {
    const pids = [withPidFile(), withPidFile()];
    const runs = pids.map(({ command, env }) => runCommand({ command, env, timeoutMs: 0 }));
    const started = await Promise.all(pids.map(({ started }) => started()));
    expect(killAllRuns()).toBe(2);
    const results = await Promise.all(runs);
    for (const result of results)
      expect(result).toMatchObject({ aborted: true, signal: 'SIGKILL' });
    for (const { leader, grandchild } of started) {
      expect(await allGone([leader, grandchild])).toBe(true);
    }
    expect(killAllRuns()).toBe(0);
  }, 30_000);

  it('escalates to SIGKILL after killGraceMs when asked for SIGTERM and the child ignores it', async () => {
    const pids = withPidFile(`trap '' TERM; `);
    const running = runCommand({
      command: pids.command,
      env: pids.env,
      killGraceMs: 100,
      timeoutMs: 0,
    });
    const { leader, grandchild } = await pids.started();
    expect(killAllRuns('SIGTERM')).toBe(1);
    const result = await running;
    expect(result).toMatchObject({ aborted: true, signal: 'SIGKILL' });
    expect(await allGone([leader, grandchild])).toBe(true);
  }, 30_000);
});
