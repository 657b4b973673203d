import path from 'node:path';
import { runCommand, spawnHelperStatus } from '@soong-agent/runner';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { hookCommand, setup, WORKERS_DIR } from './test-helpers/setup.js';

// The first hook of a session should not pay for the runner's spawn helper's start (a Node start
// and execa's load): an engine with spawn hooks starts it when it is built. This file runs in a
// module graph of its own, so the helper's state starts idle.
const tempRoot = () => makeTempDir();

describe.runIf(process.platform === 'linux')('an engine warms the spawn helper', () => {
  it('starts nothing for worker hooks only or an injected runner, and starts the helper for spawn hooks', async () => {
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

    const spawning = setup(tempRoot(), {
      PreToolUse: [{ matcher: 'bash', hooks: [{ command: hookCommand('allow.sh') }] }],
    });
    const warmed = spawnHelperStatus();
    expect(warmed.state).toBe('starting');
    // The session's first hook runs in that helper.
    const result = await runCommand({ command: 'echo $PPID' });
    expect(Number(result.stdout)).toBe(warmed.pid);
    await spawning.engine.close();
  });
});
