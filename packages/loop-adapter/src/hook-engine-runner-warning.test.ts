import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { setPosixSpawner } from '@soong-agent/runner';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { recordsOf, setup } from './test-helpers/setup.js';

const tempDir = () => makeTempDir();

// The runner's spawn helper cannot start in this test process (its entry is pointed at a file
// that does not exist, through the runner's internal module): hooks still run, spawned from this
// process, and each session records the runner's warning once, on the first hook that met it.
describe('hook engine and the runner warnings', () => {
  it('records SPAWN_HELPER_UNAVAILABLE as a hook_log warning once per session', async () => {
    // The helper is the runner's way only where its posix spawner is off (or cannot run).
    setPosixSpawner(false);
    const runnerEntry = createRequire(import.meta.url).resolve('@soong-agent/runner');
    const internal = (await import(
      new URL('./spawn-helper.js', pathToFileURL(runnerEntry)).href
    )) as { setSpawnHelperEntry(file: string): void };
    internal.setSpawnHelperEntry('/nonexistent/spawn-helper-main.js');

    const hooks = { PreToolUse: [{ hooks: [{ command: 'cat >/dev/null' }] }] };
    const payload = {
      tool: {
        name: 'bash',
        call_id: 'call_1',
        input: { command: 'ls' },
        risk: 'dangerous',
        tags: [],
        paths: [],
      },
    } as const;
    for (const root of [tempDir(), tempDir()]) {
      const { engine, sink } = setup(root, hooks);
      expect((await engine.run('PreToolUse', payload as never)).decision).toBe('none');
      expect((await engine.run('PreToolUse', payload as never)).decision).toBe('none');
      await engine.close();
      const logs = recordsOf(sink.records, 'hook_log');
      expect(logs).toEqual([
        expect.objectContaining({
          hook_id: 'PreToolUse[0][0]',
          source: 'warning',
          message: expect.stringMatching(/spawn helper could not start/),
        }),
      ]);
      expect(sink.records.map((record) => record.type)).toEqual([
        'hook_started',
        'hook_log',
        'hook_finished',
        'hook_started',
        'hook_finished',
      ]);
    }
  });
});
