import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { posixSpawnerReady } from './posix-spawner.js';
import { runCommand } from './run-command.js';
import { spawnHelperStatus } from './spawn-helper.js';

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
    expect(spawnHelperStatus()).toEqual({ state: 'idle' });
    expect(posixSpawnerReady()).toBe(false);
    // A program in the list: spawned, through the posix spawner where it runs, else the helper.
    await runCommand({ command: 'true; cat', cwd: dir });
    expect(posixSpawnerReady() || spawnHelperStatus().state === 'running').toBe(true);
  });
});
