import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { allGone, groupGone, makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, inject, it } from 'vitest';
import { fixture, PACKAGE_DIR } from './test-helpers/build.js';
import { POSIX_SPAWNER_CAN_RUN } from './test-helpers/spawner.js';

/** The Bun the OpenCode host runs in (the `bun` npm package, cached outside the repo). */
const BUN_SPEC = 'bun@1.4.5';

function bunBinary(): string {
  const cache = execFileSync(
    process.execPath,
    [path.join(PACKAGE_DIR, '../../scripts/host-cache.mjs'), 'bun', BUN_SPEC],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  ).trim();
  return path.join(cache, 'node_modules', '.bin', 'bun');
}

describe('runCommand under Bun', () => {
  it('kills a hang with its grandchild, bounds a flood, keeps a deny and runs workers, without the spawn helper', async () => {
    const bun = bunBinary();
    const scratch = makeTempDir();
    const printed = execFileSync(
      bun,
      [fixture('bun-runs.mjs'), inject('runnerEntryUrl'), scratch],
      {
        encoding: 'utf8',
        // A generous upper bound for a run that must end: a hang here is the bug under test.
        timeout: 120_000,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const out = JSON.parse(printed.trim().split('\n').at(-1) as string);
    expect(out.runtime).toMatch(/^bun 1\.4\./);
    expect(out.hang).toMatchObject({ timedOut: true, stdout: 'started\n' });
    expect(await allGone([out.hang.grandchild])).toBe(true);
    expect(out.flood).toEqual({ exitCode: 0, kept: 4096, bytes: 20_000_000, truncated: true });
    expect(out.stopped).toEqual({ limitExceeded: true, timedOut: false });
    expect(out.deny).toEqual({
      exitCode: 2,
      stdout: 'é{"decision":"deny","reason":"no rm -rf"}\n',
      stderr: 'secret=unset\n',
    });
    expect(out.cwd).toBe('CWD_INVALID');
    expect(out.worker).toEqual({ lines: ['got one', 'got two'], exitCode: 0 });
    expect(await groupGone(out.stubbornWorker.pid)).toBe(true);
    if (POSIX_SPAWNER_CAN_RUN) {
      // Children started by the posix spawner: the helper (which Bun cannot run) is not needed.
      expect(out.helper.state).toBe('idle');
      expect(out.warnings).toEqual([]);
    } else {
      expect(out.helper.state).toBe('unavailable');
      expect(out.helper.reason).toMatch(/Bun/);
      expect(out.warnings).toEqual(['SPAWN_HELPER_UNAVAILABLE']);
    }
  });
});
