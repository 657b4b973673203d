import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@soong-agent/config';
import type { RunOptions, RunResult } from '@soong-agent/runner';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { createFileArtifactStore } from './artifact-store.js';
import { createClaudeCodeTranscript } from './claude-code-transcript.js';
import { createJsonlEventSink } from './event-sink.js';
import { createHookEngine } from './hook-engine.js';
import { hookCommand, setup, writeHome } from './test-helpers/setup.js';
import { toolInputSerialiser } from './tool-call.js';
import { createToolGate } from './tool-gate.js';

// The tool input is serialised once per call, however many hooks run, and every soong
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

// A tool input whose JSON is made by its toJSON: each call is one serialisation of the input.
function countedInput() {
  const counter = { serialised: 0 };
  const input = {
    path: 'src/a.ts',
    content: 'x'.repeat(200),
    toJSON() {
      counter.serialised += 1;
      return { path: 'src/a.ts', content: 'x'.repeat(200) };
    },
  };
  return { input, counter };
}

describe('gate.run', () => {
  it('serialises the tool input at most twice on the way to its hooks, with a JSONL log and a transcript nobody reads', async () => {
    const root = tempDir();
    const pre = path.join(root, 'pre.json');
    const post = path.join(root, 'post.json');
    const { home, projectDir } = writeHome(root, {
      PreToolUse: [{ hooks: [{ command: hookCommand('record.sh', pre), name: 'pre' }] }],
      PostToolUse: [{ hooks: [{ command: hookCommand('record.sh', post), name: 'post' }] }],
    });
    const config = loadConfig({ home, projectDir, homeDir: root });
    const sessionId = '20261202T135512Z-3f9a1c';
    const sink = createJsonlEventSink(path.join(root, 'events.jsonl'), { sessionId });
    const engine = createHookEngine({
      config,
      sink,
      sessionId,
      artifacts: createFileArtifactStore(path.join(root, 'artifacts')),
    });
    const transcript = createClaudeCodeTranscript(path.join(root, 'transcript.jsonl'), {
      projectDir,
      readers: false,
    });
    const gate = createToolGate({ engine, transcript });
    const { input, counter } = countedInput();
    const result = await gate.run(
      { id: 'call_1', name: 'write_file', input, risk: 'write' },
      async () => ({ content: 'ok', isError: false }),
    );
    await engine.close();
    await sink.close();
    transcript.close();
    expect(result.status).toBe('ok');
    // Once to measure and carry down to every hook's stdin, once for the tool_started record.
    expect(counter.serialised).toBeLessThanOrEqual(2);
    const expected = { path: 'src/a.ts', content: 'x'.repeat(200) };
    expect(JSON.parse(fs.readFileSync(pre, 'utf8')).tool.input).toEqual(expected);
    expect(JSON.parse(fs.readFileSync(post, 'utf8')).tool.input).toEqual(expected);
    const lines = fs.readFileSync(path.join(root, 'transcript.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0] as string).message.content[0]).toMatchObject({
      type: 'tool_use',
      name: 'Write',
    });
  }, 60_000);

  it('serialises the tool input once with a memory sink, through the one serialiser of tool-call', async () => {
    const root = tempDir();
    const stdins: string[] = [];
    const { engine } = setup(
      root,
      {
        PreToolUse: [
          {
            hooks: [
              { command: 'true', name: 'a' },
              { command: 'true', name: 'b' },
            ],
          },
        ],
      },
      '',
      { runner: answering(stdins) },
    );
    const spy = vi.spyOn(toolInputSerialiser, 'stringify');
    try {
      const { input, counter } = countedInput();
      const gate = createToolGate({ engine });
      await gate.run({ id: 'call_1', name: 'write_file', input, risk: 'write' }, async () => ({
        content: 'ok',
        isError: false,
      }));
      expect(counter.serialised).toBe(1);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(stdins).toHaveLength(2);
      for (const stdin of stdins) expect(stdin).toBe(JSON.stringify(JSON.parse(stdin)));
    } finally {
      spy.mockRestore();
      await engine.close();
    }
  });
});
