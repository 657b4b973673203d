import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { posixSpawnerReady, posixSpawnerSetting, whenPosixSpawnerReady } from './posix-spawner.js';
import { runCommand } from './run-command.js';
import { spawnHelperStatus } from './spawn-helper.js';
import { POSIX_SPAWNER_CAN_RUN } from './test-helpers/spawner.js';

const DASH = process.platform === 'linux' && fs.realpathSync('/bin/sh').endsWith('/dash');

// A file of its own: the spawn helper of this test process must not have been started by
// another test.
describe.runIf(DASH)('a command of builtins alone', () => {
  it('runs in this process: nothing is spawned, the spawn helper is not started', async () => {
    const dir = makeTempDir();
    const result = await runCommand({
      command: `echo '{"decision":"deny","reason":"no"}'; echo logged >>log; echo why >&2; exit 2`,
      cwd: dir,
      input: '{"hook_event_name":"PreToolUse"}',
    });
    expect(result).toMatchObject({
      exitCode: 2,
      signal: null,
      stdout: '{"decision":"deny","reason":"no"}\n',
      stderr: 'why\n',
      timedOut: false,
      aborted: false,
    });
    expect(fs.readFileSync(path.join(dir, 'log'), 'utf8')).toBe('logged\n');
    // Not started (`off` when SOONG_AGENT_TEST_SPAWN_HELPER=off turned it off for the process).
    expect(['idle', 'off']).toContain(spawnHelperStatus().state);
    expect(posixSpawnerReady()).toBe(false);
    // A program in the list: spawned, through the posix spawner where it runs (started by this
    // run, ready soon after), else the helper (unless the run asks for neither).
    await runCommand({ command: 'true; cat', cwd: dir });
    if (POSIX_SPAWNER_CAN_RUN && posixSpawnerSetting()) {
      await new Promise<void>((resolve) => whenPosixSpawnerReady(resolve));
      expect(posixSpawnerReady()).toBe(true);
    } else if (process.env.SOONG_AGENT_TEST_SPAWN_HELPER !== 'off') {
      expect(spawnHelperStatus().state).toBe('running');
    }
  });
});
