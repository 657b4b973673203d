import fs from 'node:fs';
import path from 'node:path';
import { runCommand, spawnHelperStatus } from '@soong-agent/runner';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { hookCommand, setup, WORKERS_DIR } from './test-helpers/setup.js';

// The first hook of a session should not pay for the start of what spawns it (the runner's posix
// spawner, a Python start, or its spawn helper, a Node start): an engine with spawn hooks starts
// it when it is built. This file runs in a module graph of its own, so nothing has started yet.
const tempRoot = () => makeTempDir();

function childrenOf(pid: number): number[] {
  return fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .split(' ')
    .filter((entry) => entry.trim() !== '')
    .map(Number);
}

function commandOf(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 2).join(' ');
}

describe.runIf(process.platform === 'linux')('an engine warms the spawn helper', () => {
  it('starts nothing for worker hooks only or an injected runner, and starts the spawner for spawn hooks', async () => {
    expect(spawnHelperStatus().state).toBe('idle');
    const workersOnly = setup(tempRoot(), {
      PreToolUse: [
        {
          matcher: 'bash',
          hooks: [
            { command: `node ${path.join(WORKERS_DIR, 'guard-worker.mjs')}`, mode: 'worker' },
          ],
        },
      ],
    });
    expect(spawnHelperStatus().state).toBe('idle');
    await workersOnly.engine.close();
    const injected = setup(
      tempRoot(),
      { PreToolUse: [{ matcher: 'bash', hooks: [{ command: hookCommand('allow.sh') }] }] },
      '',
      { runner: runCommand },
    );
    expect(spawnHelperStatus().state).toBe('idle');
    await injected.engine.close();

    const before = childrenOf(process.pid);
    const spawning = setup(tempRoot(), {
      PreToolUse: [{ matcher: 'bash', hooks: [{ command: hookCommand('allow.sh') }] }],
    });
    // What spawns the children started now: the runner's posix spawner (a python3) where it
    // runs, else its spawn helper.
    const started = childrenOf(process.pid).filter((pid) => !before.includes(pid));
    expect(started).toHaveLength(1);
    const warmed = spawnHelperStatus();
    if (warmed.state === 'idle') expect(commandOf(started[0] as number)).toMatch(/python3/);
    else expect(warmed).toMatchObject({ state: 'starting', pid: started[0] });
    // The session's first hook is spawned by it.
    const result = await runCommand({ command: 'echo $PPID' });
    expect(Number(result.stdout)).toBe(started[0]);
    await spawning.engine.close();
  });
});
