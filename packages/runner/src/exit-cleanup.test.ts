import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { allGone, isAlive, makeTempDir } from '@soong-agent/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { builtEntryUrl, fixture } from './test-helpers/build.js';

const run = promisify(execFile);

// These tests run a real parent process (a fixture importing the compiled package), because what
// they check is what happens when that process is signalled or exits.

// If a test fails, do not leave its processes behind.
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

interface Parent {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>;
  /** Resolves with the pids of the `count`-th run once it has a shell and a grandchild alive. */
  ready: (count: number) => Promise<number[]>;
}

/** Start the parent fixture (see parent-with-run.mjs for the modes). */
function startParent(mode: 'wait' | 'exit' | 'own-handler' | 'with-execa'): Parent {
  const pidFile = path.join(makeTempDir(), 'pids');
  const child = spawn(
    process.execPath,
    [fixture('parent-with-run.mjs'), builtEntryUrl(), pidFile, mode],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (child.pid !== undefined) started.push(child.pid);
  let stdout = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    stdout += chunk;
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
  }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout }));
  });
  const ready = (count: number) =>
    new Promise<number[]>((resolve, reject) => {
      const check = (): boolean => {
        const match = [...stdout.matchAll(/^ready (\d+) (\d+)$/gm)][count - 1];
        if (match === undefined) return false;
        const pids = [Number(match[1]), Number(match[2])];
        started.push(...pids);
        resolve(pids);
        return true;
      };
      if (check()) return;
      const onData = (): void => {
        if (check()) child.stdout?.off('data', onData);
      };
      child.stdout?.on('data', onData);
      child.on('close', () => reject(new Error(`parent ended before it was ready: ${stdout}`)));
    });
  return { child, exited, ready };
}

describe('runCommand exit-time cleanup', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGALRM'] as const) {
    it(`kills every group in flight and still dies of the signal when the parent gets ${signal}`, async () => {
      const parent = startParent('wait');
      const pids = await parent.ready(1);
      expect(pids.every(isAlive)).toBe(true);
      parent.child.kill(signal);
      const exit = await parent.exited;
      expect(exit.signal).toBe(signal);
      expect(await allGone(pids)).toBe(true);
    }, 60_000);
  }

  it('kills every group in flight when the parent exits normally', async () => {
    const parent = startParent('exit');
    const pids = await parent.ready(1);
    const exit = await parent.exited;
    expect(exit.code).toBe(0);
    expect(await allGone(pids)).toBe(true);
  }, 60_000);

  it('kills the groups but leaves the decision to exit to another SIGTERM listener', async () => {
    const parent = startParent('own-handler');
    const first = await parent.ready(1);
    parent.child.kill('SIGTERM');
    // The run settled as aborted; the parent kept running and started a second run.
    const second = await parent.ready(2);
    expect(await allGone(first)).toBe(true);
    expect(second.every(isAlive)).toBe(true);
    parent.child.kill('SIGTERM');
    const exit = await parent.exited;
    // Both runs settled as aborted before the parent's own handler exited.
    expect(exit.code).toBe(0);
    expect(exit.stdout.match(/own handler/g)).toHaveLength(2);
    expect(exit.stdout.match(/settled .*"aborted":true/g)).toHaveLength(2);
    expect(await allGone(second)).toBe(true);
  }, 60_000);

  it('still dies of SIGTERM when another signal-exit user (an execa child) is in the process', async () => {
    const parent = startParent('with-execa');
    const pids = await parent.ready(1);
    parent.child.kill('SIGTERM');
    const exit = await parent.exited;
    expect(exit.signal).toBe('SIGTERM');
    expect(await allGone(pids)).toBe(true);
  }, 60_000);
});

describe('runCommand before its first spawn', () => {
  it('stops a run that killAllRuns or an abort reaches while the spawner still loads', async () => {
    const pidFile = path.join(makeTempDir(), 'pids');
    const { stdout } = await run(process.execPath, [
      fixture('first-spawn-stopped.mjs'),
      builtEntryUrl(),
      pidFile,
    ]);
    const report = JSON.parse(stdout) as {
      stopped: number;
      results: { aborted: boolean; signal: string | null }[];
      groups: number[];
    };
    expect(report.stopped).toBe(1);
    expect(report.results).toEqual([
      { aborted: true, signal: 'SIGKILL' },
      { aborted: true, signal: 'SIGTERM' },
    ]);
    started.push(...report.groups);
    expect(await allGone(report.groups)).toBe(true);
  }, 60_000);
});

describe('runCommand memory', () => {
  it('keeps peak memory bounded while draining a 200 MB writer', async () => {
    const child = spawn(
      process.execPath,
      [
        fixture('memory-probe.mjs'),
        builtEntryUrl(),
        'head -c 200000000 /dev/zero',
        JSON.stringify({ timeoutMs: 0 }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Record<string, number | boolean>;
    expect(report).toMatchObject({
      exitCode: 0,
      stdoutBytes: 200_000_000,
      stdoutKeptLength: 1_048_576,
      stdoutTruncated: true,
    });
    // Generous: keeping the output would grow it by 200 MB (400 MB as a JS string).
    expect(report.peakGrowthBytes).toBeLessThan(100 * 1024 * 1024);
  }, 180_000);
});

describe('the runner and the signals Node ignores', () => {
  it('leaves SIGXFSZ ignored: a write past `ulimit -f` fails with EFBIG and the host goes on', async () => {
    const dir = makeTempDir();
    const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
    const { stdout } = await run(
      '/bin/sh',
      [
        '-c',
        `ulimit -f 16; exec ${quote(process.execPath)} ${quote(fixture('write-past-file-size-limit.mjs'))} ${quote(builtEntryUrl())} ${quote(dir)}`,
      ],
      { timeout: 60_000 },
    );
    expect(stdout.trim()).toBe('EFBIG (exit 0)');
  }, 90_000);
});
