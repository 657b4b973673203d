import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { EventuallyTimeoutError, eventually } from './eventually.js';
import { allGone, groupGone, isAlive, liveGroupMembers, processGroupOf } from './processes.js';

/** A real process group: a shell leader with one sleeping child. */
function startGroup() {
  const child = spawn('/bin/sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
  const pgid = child.pid as number;
  return { child, pgid };
}

describe('groupGone', () => {
  it('resolves true once every member of a killed process group is gone', async () => {
    const { child, pgid } = startGroup();
    expect(await eventually(() => liveGroupMembers(pgid).length === 2)).toBe(true);
    expect(processGroupOf(pgid)).toBe(pgid);
    process.kill(-pgid, 'SIGKILL');
    expect(await groupGone(pgid)).toBe(true);
    expect(isAlive(pgid)).toBe(false);
    child.unref();
  });

  it('throws naming the live members when the group outlives the bound', async () => {
    const { child, pgid } = startGroup();
    try {
      await eventually(() => liveGroupMembers(pgid).length === 2);
      const error = await groupGone(pgid, { timeoutMs: 20 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(EventuallyTimeoutError);
      expect((error as Error).message).toContain(`process group ${pgid} to be gone (live: `);
    } finally {
      process.kill(-pgid, 'SIGKILL');
      await groupGone(pgid);
      child.unref();
    }
  });
});

describe('allGone', () => {
  it('resolves true at once for pids that do not exist', async () => {
    expect(await allGone([2 ** 22 + 1])).toBe(true);
  });
});
