import type { RunOptions, RunResult } from '@soong-agent/runner';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { setup } from './test-helpers/setup.js';

// Issue 19: the tool input is serialised once per call, however many hooks run, and every soong
// hook's stdin is exactly JSON.stringify of its §2.1 input.
const tempDir = () => makeTempDir();

function answering(stdins: string[]) {
  return async (options: RunOptions): Promise<RunResult> => {
    stdins.push(String(options.input));
    return {
      exitCode: 0,
      signal: null,
      timedOut: false,
      aborted: false,
      stdout: '',
      stderr: '',
      stdoutTail: '',
      stderrTail: '',
      stdoutBytes: 0,
      stderrBytes: 0,
      stdoutTruncated: false,
      stderrTruncated: false,
      stdoutLimitExceeded: false,
      durationMs: 1,
    };
  };
}

describe('the tool input of one call', () => {
  it('is serialised once for three soong hooks, and each stdin is the exact JSON of the input', async () => {
    const stdins: string[] = [];
    const { engine } = setup(
      tempDir(),
      {
        PreToolUse: [
          {
            hooks: [
              { command: 'true', name: 'a' },
              { command: 'true', name: 'b' },
              { command: 'true', name: 'c' },
            ],
          },
        ],
      },
      '',
      { runner: answering(stdins) },
    );
    let serialised = 0;
    const counted = {
      toJSON() {
        serialised += 1;
        return { note: 'café "quoted"\n', skipped: undefined };
      },
    };
    const input = { path: 'src/a.ts', nested: { counted }, list: [1, 'two', null] };
    await engine.run('PreToolUse', {
      tool: {
        name: 'write_file',
        call_id: 'call_1',
        input,
        risk: 'write',
        tags: ['write'],
        paths: ['/p/src/a.ts'],
      },
    });
    expect(serialised).toBe(1);
    expect(stdins).toHaveLength(3);
    for (const [index, stdin] of stdins.entries()) {
      const parsed = JSON.parse(stdin) as Record<string, unknown>;
      expect(parsed.hook_id).toBe(['a', 'b', 'c'][index]);
      // Compact JSON, exactly as JSON.stringify writes it (keys in order, nothing extra).
      expect(stdin).toBe(JSON.stringify(parsed));
      expect((parsed.tool as { input: unknown }).input).toEqual({
        path: 'src/a.ts',
        nested: { counted: { note: 'café "quoted"\n' } },
        list: [1, 'two', null],
      });
    }
  });
});
