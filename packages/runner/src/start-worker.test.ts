import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { eventually, groupGone, liveGroupMembers, makeTempDir } from '@soong-agent/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { killAllRuns, RunnerError, startWorker, type Worker, type WorkerOptions } from './index.js';
import { builtEntryUrl, fixture } from './test-helpers/build.js';

// Real long-lived children: a worker is spoken to in lines and must never outlive its agent.
const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.kill()));
});

async function start(options: WorkerOptions & { lines?: string[]; errors?: string[] }) {
  const worker = await startWorker({
    onStdoutLine: (line) => options.lines?.push(line),
    onStderrLine: (line) => options.errors?.push(line),
    ...options,
  });
  workers.push(worker);
  return worker;
}

const ECHO = 'while IFS= read -r line; do printf "got:%s\\n" "$line"; done; echo bye >&2; exit 7';

describe('startWorker', () => {
  it('answers each line it is sent, in order, when the worker echoes', async () => {
    const lines: string[] = [];
    const errors: string[] = [];
    const worker = await start({ command: ECHO, lines, errors });
    expect(worker.writeLine('one')).toBe(true);
    expect(worker.writeLine('{"id":2}')).toBe(true);
    expect(await eventually(() => lines.length === 2)).toBe(true);
    expect(lines).toEqual(['got:one', 'got:{"id":2}']);
    const exit = await worker.stop();
    expect(exit).toMatchObject({ exitCode: 7, signal: null });
    expect(errors).toEqual(['bye']);
    expect(worker.hasExited).toBe(true);
    expect(worker.writeLine('late')).toBe(false);
  });

  it('hands over a line already written, before it returns, when readPendingOutput is called', async () => {
    const dir = makeTempDir();
    const marker = path.join(dir, 'written');
    const lines: string[] = [];
    // The line is written (and the marker made) while the event loop is blocked below: only a
    // synchronous read can deliver it before the next turn.
    const worker = await start({
      command: `printf 'first\nsecond\npart'; : > "$M"; cat >/dev/null`,
      env: { M: marker },
      lines,
    });
    // No timer can run while this spins: a generous bound, only so a broken spawn cannot hang.
    const bound = Date.now() + 60_000;
    while (!fs.existsSync(marker) && Date.now() < bound) {}
    expect(lines).toEqual([]);
    expect(worker.readPendingOutput?.()).toBe(true);
    expect(lines).toEqual(['first', 'second']);
    // The unfinished line stays pending and is completed by what comes next, in order.
    expect(worker.readPendingOutput?.()).toBe(true);
    expect(lines).toEqual(['first', 'second']);
    await worker.stop();
    expect(lines).toEqual(['first', 'second', 'part']);
  });

  it('returns at once with nothing to read when readPendingOutput is called on a quiet worker', async () => {
    const lines: string[] = [];
    const worker = await start({ command: ECHO, lines });
    expect(worker.readPendingOutput?.()).toBe(true);
    expect(lines).toEqual([]);
    worker.writeLine('after');
    expect(await eventually(() => lines.length === 1)).toBe(true);
    expect(lines).toEqual(['got:after']);
  });

  it('passes only allowlisted variables and the extras when it starts the worker', async () => {
    const lines: string[] = [];
    const worker = await start({
      command: 'env; echo END',
      parentEnv: { PATH: process.env.PATH, SECRET_TOKEN: 'sk-worker-secret' },
      envAllowlist: ['PATH'],
      env: { SOONG_AGENT_HOOK_MODE: 'worker' },
      lines,
    });
    await worker.exited;
    expect(lines).toContain('SOONG_AGENT_HOOK_MODE=worker');
    expect(lines.join('\n')).not.toContain('sk-worker-secret');
  });

  it('rejects with CWD_INVALID and starts nothing when the working dir is outside the roots', async () => {
    const root = makeTempDir();
    const outside = makeTempDir();
    const marker = path.join(outside, 'ran');
    const error = await startWorker({
      command: `touch '${marker}'`,
      cwd: outside,
      allowedRoots: [root],
    }).catch((caught: unknown) => caught);
    expect(RunnerError.isInstance(error) && error.code).toBe('CWD_INVALID');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('rejects with SPAWN_FAILED when an argv executable does not exist', async () => {
    const error = await startWorker({ command: ['/nonexistent/worker-binary'] }).catch(
      (caught: unknown) => caught,
    );
    expect(RunnerError.isInstance(error) && error.code).toBe('SPAWN_FAILED');
  });

  it('reports the signal when the worker command is killed by one', async () => {
    const worker = await start({ command: 'kill -KILL $$' });
    expect(await worker.exited).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
  });

  it('kills the group, background children included, when a worker ignoring EOF and SIGTERM is stopped', async () => {
    const lines: string[] = [];
    const worker = await start({
      command: `trap '' TERM; sleep 600 & echo up; while :; do sleep 1; done`,
      killGraceMs: 200,
      lines,
    });
    expect(await eventually(() => lines.includes('up'))).toBe(true);
    expect(liveGroupMembers(worker.pid).length).toBeGreaterThan(2);
    const exit = await worker.stop(50);
    expect(exit.signal ?? exit.exitCode).not.toBeNull();
    expect(await groupGone(worker.pid)).toBe(true);
  });

  it('kills what the worker left behind when the worker exits on its own', async () => {
    const worker = await start({ command: 'sleep 600 & exit 0' });
    expect((await worker.exited).exitCode).toBe(0);
    expect(await groupGone(worker.pid)).toBe(true);
  });

  it('reports an over-long stdout line as an overflow and keeps reading the next lines', async () => {
    const lines: string[] = [];
    const overflows: number[] = [];
    const worker = await start({
      command: `head -c 5000 /dev/zero | tr '\\0' x; echo; echo short`,
      maxLineBytes: 1024,
      onStdoutOverflow: (bytes) => overflows.push(bytes),
      lines,
    });
    await worker.exited;
    expect(overflows).toHaveLength(1);
    expect(overflows[0]).toBeGreaterThan(1024);
    expect(lines).toEqual(['short']);
  });

  it('cuts an over-long stderr line to maxLineBytes instead of dropping it', async () => {
    const errors: string[] = [];
    const worker = await start({
      command: `head -c 5000 /dev/zero | tr '\\0' e >&2`,
      maxLineBytes: 100,
      errors,
    });
    await worker.exited;
    expect(errors).toEqual(['e'.repeat(100)]);
  });

  it('stops a worker in flight when killAllRuns is called', async () => {
    const lines: string[] = [];
    const worker = await start({ command: 'echo up; sleep 600', lines });
    expect(await eventually(() => lines.includes('up'))).toBe(true);
    expect(killAllRuns('SIGKILL')).toBeGreaterThanOrEqual(1);
    expect((await worker.exited).signal).toBe('SIGKILL');
    expect(await groupGone(worker.pid)).toBe(true);
  });
});

describe('startWorker when the agent is SIGKILLed', () => {
  it('leaves no live process in the worker group, even one that ignores EOF and SIGTERM', async () => {
    const parent = spawn(process.execPath, [fixture('parent-with-worker.mjs'), builtEntryUrl()], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    parent.stdout.setEncoding('utf8');
    const pgid = await new Promise<number>((resolve, reject) => {
      parent.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        const match = /^ready (\d+)$/m.exec(stdout);
        if (match) resolve(Number(match[1]));
      });
      parent.on('close', () => reject(new Error(`parent ended before it was ready: ${stdout}`)));
    });
    try {
      expect(liveGroupMembers(pgid).length).toBeGreaterThan(2);
      parent.kill('SIGKILL');
      expect(await groupGone(pgid)).toBe(true);
    } finally {
      for (const pid of liveGroupMembers(pgid)) process.kill(pid, 'SIGKILL');
    }
  }, 120_000);
});
