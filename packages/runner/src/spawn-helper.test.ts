import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  eventually,
  groupGone,
  isAlive,
  liveGroupMembers,
  makeTempDir,
} from '@soong-agent/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  killAllRuns,
  RunnerError,
  type RunResult,
  runCommand,
  setPosixSpawner,
  setSpawnHelper,
  spawnHelperStatus,
  startWorker,
} from './index.js';
import { builtEntryUrl, fixture } from './test-helpers/build.js';
import { SPAWNING_PID_COMMAND } from './test-helpers/spawner.js';

// The spawn helper (spawn-helper.ts): these tests run with the helper on, as the suite does by
// default; SOONG_AGENT_TEST_SPAWN_HELPER=off skips them (they are about the helper).
const helperOn = process.env.SOONG_AGENT_TEST_SPAWN_HELPER !== 'off';
// About the Node spawn helper: the posix spawner, which runs children from this process where it
// can, is off here (posix-spawner.test.ts covers it, and its use inside the helper).
setPosixSpawner(false);
/** For the hosts these tests start: their fixtures turn the posix spawner off too. */
const HELPER_ONLY = { ...process.env, SOONG_AGENT_TEST_POSIX_SPAWNER: 'off' };
const run = promisify(execFile);

const leftovers: number[] = [];
afterEach(() => {
  setSpawnHelper(true);
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** A run that writes its group id to a file and waits (with a background grandchild). */
function longRun(file: string): Promise<RunResult> {
  return runCommand({
    command: `sleep 600 & echo "$$" > "$F.tmp" && mv "$F.tmp" "$F"; wait`,
    env: { F: file },
    timeoutMs: 0,
  });
}

async function groupOf(file: string): Promise<number> {
  expect(await eventually(() => fs.existsSync(file))).toBe(true);
  const pgid = Number(fs.readFileSync(file, 'utf8'));
  leftovers.push(pgid);
  return pgid;
}

describe.runIf(helperOn && process.platform === 'linux')('spawn helper', () => {
  it('spawns from the helper, a child of this process whose environment holds none of ours', async () => {
    const result = await runCommand({ command: SPAWNING_PID_COMMAND });
    const status = spawnHelperStatus();
    expect(status.state).toBe('running');
    expect(Number(result.stdout)).toBe(status.pid);
    const stat = fs.readFileSync(`/proc/${status.pid}/stat`, 'utf8');
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])).toBe(process.pid);
    const names = fs
      .readFileSync(`/proc/${status.pid}/environ`, 'utf8')
      .split('\0')
      .filter((entry) => entry !== '')
      .map((entry) => entry.slice(0, entry.indexOf('=')));
    const allowed = ['NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE', 'TMPDIR'];
    expect(names.filter((name) => !allowed.includes(name))).toEqual([]);
  });

  it("gives a child none of the helper's descriptors: the channel to the host stays out of reach", async () => {
    const result = await runCommand({
      command: 'for fd in /proc/$$/fd/*; do readlink "$fd"; done',
    });
    const helper = spawnHelperStatus().pid as number;
    const channel = fs.readlinkSync(`/proc/${helper}/fd/3`);
    expect(channel).toMatch(/^socket:/);
    expect(result.stdout.split('\n')).not.toContain(channel);
    // Opening the helper's channel by its /proc name does not work either (a socket).
    const reopen = await runCommand({ command: `exec 5<>/proc/${helper}/fd/3 && echo opened` });
    expect(reopen.stdout).toBe('');
  });

  it('spawns from this process with spawnHelper: false, per run or for the whole runner', async () => {
    const perRun = await runCommand({ command: SPAWNING_PID_COMMAND, spawnHelper: false });
    expect(Number(perRun.stdout)).toBe(process.pid);
    setSpawnHelper(false);
    expect(spawnHelperStatus().state).toBe('off');
    const off = await runCommand({ command: SPAWNING_PID_COMMAND });
    expect(Number(off.stdout)).toBe(process.pid);
    // The per-run option wins over the runner-wide setting.
    const forced = await runCommand({ command: SPAWNING_PID_COMMAND, spawnHelper: true });
    expect(Number(forced.stdout)).not.toBe(process.pid);
    expect(() => setSpawnHelper('no' as unknown as boolean)).toThrow(/true or false/);
  });

  it('gives the same result through the helper as without it, byte for byte', async () => {
    const options = {
      command: `printf 'caf\\303\\251 %s\\n' "$(cat)"; printf 'err\\n' >&2; head -c 3000 /dev/zero | tr '\\0' x; exit 7`,
      input: new Uint8Array([104, 105, 0, 255]),
      maxOutputBytes: 1000,
      tailBytes: 16,
    };
    const through = await runCommand(options);
    const direct = await runCommand({ ...options, spawnHelper: false });
    const { durationMs: _a, ...throughRest } = through;
    const { durationMs: _b, ...directRest } = direct;
    expect(throughRest).toEqual(directRest);
    expect(through.exitCode).toBe(7);
    expect(through.stdoutTruncated).toBe(true);
  });

  it('fails a run in flight as HELPER_FAILED when the helper dies, kills its group, and restarts on the next run', async () => {
    const file = path.join(makeTempDir(), 'pgid');
    const caught = longRun(file).then(
      () => undefined,
      (error: unknown) => error,
    );
    const pgid = await groupOf(file);
    // The shell and its sleep; the `mv` that wrote the file may not have exited yet.
    await eventually(() => liveGroupMembers(pgid).length === 2, {
      message: () =>
        `group ${pgid} to be the shell and its sleep (live: ${liveGroupMembers(pgid)})`,
    });
    const helper = spawnHelperStatus().pid as number;
    process.kill(helper, 'SIGKILL');
    const error = await caught;
    expect(RunnerError.isInstance(error)).toBe(true);
    expect((error as RunnerError).code).toBe('HELPER_FAILED');
    expect((error as RunnerError).message).toMatch(/spawn helper \(pid \d+\) died during the run/);
    expect(await groupGone(pgid)).toBe(true);
    const next = await runCommand({ command: SPAWNING_PID_COMMAND });
    expect(next.exitCode).toBe(0);
    expect(Number(next.stdout)).not.toBe(helper);
    expect(Number(next.stdout)).toBe(spawnHelperStatus().pid);
  });

  // A host with nothing else to do: before, its event loop emptied when the helper died and it
  // exited 0 mid-await (a guard's deny lost, a log ending at hook_started); a stopped helper's
  // timer never fired, and the host hung.
  it.each([
    ['killed', 'kill', /died during the run/],
    ['stopped (SIGSTOP)', 'stop', /did not answer within 3\.1 s/],
  ] as const)(
    'fails a lone run as HELPER_FAILED when the helper is %s mid-run, then starts a new helper',
    async (_how, argument, message) => {
      const cwd = makeTempDir();
      const host = spawn(
        process.execPath,
        [fixture('parent-helper-lost.mjs'), builtEntryUrl(), argument],
        { cwd, env: HELPER_ONLY, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let stdout = '';
      host.stdout.setEncoding('utf8');
      host.stdout.on('data', (chunk: string) => {
        stdout += chunk;
      });
      const code = await new Promise((resolve) => host.on('close', resolve));
      const lines = stdout.trim().split('\n');
      const [, runPid, , helperPid] = (lines[0] as string).split(' ').map(Number);
      leftovers.push(runPid as number);
      expect(lines[1]).toMatch(/^rejected HELPER_FAILED could not finish \/bin\/sh: /);
      expect(lines[1]).toMatch(message);
      const [, nextParent, nextHelper] = (lines[2] as string).split(' ').map(Number);
      expect(nextParent).toBe(nextHelper);
      expect(nextHelper).not.toBe(helperPid);
      expect(lines[3]).toBe('exit 0');
      expect(code).toBe(0);
      // The run's group and the old helper are gone (a stopped one was killed, not left behind).
      expect(await groupGone(runPid as number)).toBe(true);
      expect(await eventually(() => !isAlive(helperPid as number))).toBe(true);
    },
    60_000,
  );

  it('warmSpawnHelper starts the helper before any run, the first run uses it, and it never holds the host', async () => {
    const script = `
      const { runCommand, spawnHelperStatus, warmSpawnHelper, setSpawnHelper } = await import(${JSON.stringify(builtEntryUrl())}).then((r) => (r.setPosixSpawner(false), r));
      const lines = [spawnHelperStatus().state];
      warmSpawnHelper();
      const warmed = spawnHelperStatus();
      warmSpawnHelper(); // a second call starts nothing new
      lines.push(warmed.state, String(spawnHelperStatus().pid === warmed.pid));
      const result = await runCommand({ command: ${JSON.stringify(SPAWNING_PID_COMMAND)} });
      lines.push(String(Number(result.stdout) === warmed.pid));
      process.stdout.write(lines.join(' ') + '\\n');
      // Off: a warm-up starts nothing.
      setSpawnHelper(false);
      warmSpawnHelper();
      process.stdout.write(spawnHelperStatus().state + '\\n');
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 60_000,
    });
    expect(stdout.split('\n')).toEqual(['idle starting true true', 'off', '']);
    // A host whose only act is a warm-up ends by itself (the helper is unref'd, then exits).
    const lone = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const r = await import(${JSON.stringify(builtEntryUrl())}); r.setPosixSpawner(false); r.warmSpawnHelper(); process.stdout.write(String(r.spawnHelperStatus().pid));`,
      ],
      { timeout: 60_000 },
    );
    expect(await eventually(() => !isAlive(Number(lone.stdout)))).toBe(true);
  }, 90_000);

  it('kills a stopped helper and what it started when the host exits', async () => {
    const cwd = makeTempDir();
    const script = `
      const { runCommand, spawnHelperStatus } = await import(${JSON.stringify(builtEntryUrl())}).then((r) => (r.setPosixSpawner(false), r));
      const fs = await import('node:fs');
      void runCommand({ command: 'echo "$$" > started; sleep 600', cwd: process.cwd(), timeoutMs: 0 });
      while (!(fs.existsSync('started') && fs.readFileSync('started', 'utf8').endsWith('\\n')))
        await new Promise((resolve) => setTimeout(resolve, 10));
      const helper = spawnHelperStatus().pid;
      process.stdout.write(fs.readFileSync('started', 'utf8').trim() + ' ' + helper + '\\n');
      process.kill(helper, 'SIGSTOP');
      setTimeout(() => process.exit(0), 50);
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd,
      timeout: 60_000,
    });
    const [runPid, helperPid] = stdout.trim().split(' ').map(Number);
    leftovers.push(runPid as number);
    expect(await groupGone(runPid as number)).toBe(true);
    expect(await eventually(() => !isAlive(helperPid as number))).toBe(true);
  }, 90_000);

  it('stops a run still waiting for the helper to start: killAllRuns or abort, nothing spawned', async () => {
    // A new helper starts on the next run once the current one is gone.
    await runCommand({ command: ['true'] });
    const old = spawnHelperStatus().pid as number;
    process.kill(old, 'SIGKILL');
    expect(await eventually(() => spawnHelperStatus().state === 'idle')).toBe(true);
    const marker = path.join(makeTempDir(), 'ran');
    const command = `touch "${marker}"`;
    const killed = runCommand({ command });
    expect(spawnHelperStatus().state).toBe('starting');
    expect(killAllRuns()).toBe(1);
    const controller = new AbortController();
    const aborted = runCommand({ command, signal: controller.signal });
    controller.abort();
    for (const result of [await killed, await aborted])
      expect(result).toMatchObject({ aborted: true, exitCode: null, durationMs: 0 });
    // The helper is up and answers; neither run was sent to it.
    expect((await runCommand({ command: SPAWNING_PID_COMMAND })).stdout).toBe(
      `${spawnHelperStatus().pid}\n`,
    );
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('runs many commands at once, each with its own input and result', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, n) =>
        runCommand({
          command: `read line; echo "$line-${n}"; echo "e${n}" >&2`,
          input: `in${n}\n`,
        }),
      ),
    );
    results.forEach((result, n) => {
      expect(result).toMatchObject({ exitCode: 0, stdout: `in${n}-${n}\n`, stderr: `e${n}\n` });
    });
  });

  it('serves a host that starts workers and runs at once', async () => {
    const lines: string[][] = [[], [], []];
    const [workers, results] = await Promise.all([
      Promise.all(
        lines.map((seen) =>
          startWorker({
            command: 'while read line; do echo "got $line"; done',
            onStdoutLine: (line) => seen.push(line),
          }),
        ),
      ),
      Promise.all(Array.from({ length: 20 }, (_, n) => runCommand({ command: `echo ${n}` }))),
    ]);
    expect(results.map((result) => result.stdout)).toEqual(results.map((_, n) => `${n}\n`));
    for (const [n, worker] of workers.entries()) worker.writeLine(`w${n}`);
    expect(await eventually(() => lines.every((seen) => seen.length === 1))).toBe(true);
    expect(lines).toEqual(lines.map((_, n) => [`got w${n}`]));
    await Promise.all(workers.map((worker) => worker.stop()));
  });

  it('aborts a run in the helper: SIGTERM to the group, aborted result', async () => {
    const file = path.join(makeTempDir(), 'pgid');
    const controller = new AbortController();
    const pending = runCommand({
      command: `sleep 600 & echo "$$" > "$F.tmp" && mv "$F.tmp" "$F"; wait`,
      env: { F: file },
      signal: controller.signal,
    });
    const pgid = await groupOf(file);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ aborted: true, signal: 'SIGTERM', timedOut: false });
    expect(await groupGone(pgid)).toBe(true);
  });

  it('lets an idle host end by itself', async () => {
    const { stdout } = await run(process.execPath, [fixture('parent-idle.mjs'), builtEntryUrl()], {
      env: HELPER_ONLY,
      timeout: 60_000,
    });
    expect(stdout).toBe('done running\n');
  }, 90_000);

  it('leaves no process of a run or a worker behind when the host is SIGKILLed mid-run', async () => {
    const pidDir = makeTempDir();
    const host = spawn(
      process.execPath,
      [fixture('parent-with-many.mjs'), builtEntryUrl(), pidDir, '8'],
      { env: HELPER_ONLY, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    host.stdout.setEncoding('utf8');
    host.stdout.on('data', (chunk: string) => {
      stdout += chunk;
    });
    const closed = new Promise((resolve) => host.on('close', resolve));
    expect(await eventually(() => stdout.includes('\n'), { timeoutMs: 60_000 })).toBe(true);
    const report = JSON.parse(stdout.replace(/^ready /, '')) as {
      runs: number[];
      worker: number;
      helper: number;
    };
    leftovers.push(...report.runs, report.worker);
    expect(report.runs).toHaveLength(8);
    for (const pgid of [...report.runs, report.worker])
      expect(liveGroupMembers(pgid).length).toBeGreaterThanOrEqual(2);
    expect(isAlive(report.helper)).toBe(true);
    host.kill('SIGKILL');
    await closed;
    for (const pgid of [...report.runs, report.worker]) expect(await groupGone(pgid)).toBe(true);
    expect(await eventually(() => !isAlive(report.helper))).toBe(true);
  }, 90_000);
});
