import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { hookCommand, recordsOf, recordTypes, setup } from './test-helpers/setup.js';
import type { ToolExecute, ToolResult } from './tool-call.js';
import type { ToolCallScope, ToolCallTelemetry } from './tool-call-telemetry.js';
import { createToolGate } from './tool-gate.js';

const tempDir = () => makeTempDir();
const PROCESS_TIMEOUT = 60_000;

// An execute that remembers what it was given.
function recordingExecute(answer: { content: string; isError: boolean }) {
  const seen: { input: unknown; callId: string; signal?: AbortSignal }[] = [];
  const execute: ToolExecute = async (input, context) => {
    seen.push({ input, ...context });
    return answer;
  };
  return { execute, seen };
}

describe('gate.run', () => {
  it(
    'runs PreToolUse, then execute, then PostToolUse with the result when a real hook allows',
    async () => {
      const root = tempDir();
      const pre = path.join(root, 'pre.json');
      const post = path.join(root, 'post.json');
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: hookCommand('record.sh', pre), name: 'pre' }] }],
        PostToolUse: [{ hooks: [{ command: hookCommand('record.sh', post), name: 'post' }] }],
      });
      const gate = createToolGate({ engine });
      const { execute, seen } = recordingExecute({ content: 'written', isError: false });
      const result = await gate.run(
        { id: 'call_1', name: 'write_file', input: { path: 'a.txt' }, risk: 'write' },
        execute,
      );
      expect(result).toMatchObject({
        callId: 'call_1',
        name: 'write_file',
        content: 'written',
        isError: false,
        status: 'ok',
      });
      expect(seen).toEqual([{ input: { path: 'a.txt' }, callId: 'call_1' }]);
      const preInput = JSON.parse(fs.readFileSync(pre, 'utf8'));
      expect(preInput.tool).toMatchObject({ name: 'write_file', input: { path: 'a.txt' } });
      const postInput = JSON.parse(fs.readFileSync(post, 'utf8'));
      expect(postInput.result).toEqual({ is_error: false, bytes: 7, content: 'written' });
      expect(recordTypes(sink.records)).toEqual([
        'tool_started',
        'hook_started',
        'hook_finished',
        'tool_finished',
        'hook_started',
        'hook_finished',
      ]);
      await engine.close();
    },
    PROCESS_TIMEOUT,
  );

  it(
    'never calls execute and resolves the denied result when a real hook denies',
    async () => {
      const { engine, sink } = setup(tempDir(), {
        PreToolUse: [{ hooks: [{ command: hookCommand('deny.sh', 'no writes'), name: 'guard' }] }],
      });
      const gate = createToolGate({ engine });
      const { execute, seen } = recordingExecute({ content: 'written', isError: false });
      const result = await gate.run(
        { id: 'call_1', name: 'write_file', input: { path: 'a.txt' }, risk: 'write' },
        execute,
      );
      expect(seen).toEqual([]);
      expect(result).toMatchObject({ status: 'denied', isError: true });
      expect(result.content).toBe('denied by hook guard: no writes');
      expect(recordsOf(sink.records, 'tool_denied')).toHaveLength(1);
      // A write denial halts the step: the next call is skipped, not executed.
      const next = await gate.run(
        { id: 'call_2', name: 'read_file', input: {}, risk: 'readonly' },
        execute,
      );
      expect(next.status).toBe('skipped');
      expect(seen).toEqual([]);
      await engine.close();
    },
    PROCESS_TIMEOUT,
  );

  it(
    'turns a throwing execute into an error result and runs PostToolUseFailure then PostToolUse',
    async () => {
      const root = tempDir();
      const failure = path.join(root, 'failure.json');
      const { engine, sink } = setup(root, {
        PostToolUseFailure: [
          { hooks: [{ command: hookCommand('record.sh', failure), name: 'failure' }] },
        ],
        PostToolUse: [{ hooks: [{ command: hookCommand('allow.sh'), name: 'post' }] }],
      });
      const gate = createToolGate({ engine });
      const result = await gate.run(
        { id: 'call_1', name: 'bash', input: { command: 'make' }, risk: 'dangerous' },
        async () => {
          throw new Error('disk full');
        },
      );
      expect(result).toMatchObject({
        status: 'error',
        isError: true,
        content: 'tool bash failed: disk full',
      });
      expect(JSON.parse(fs.readFileSync(failure, 'utf8')).error).toBe(
        'tool bash failed: disk full',
      );
      expect(recordsOf(sink.records, 'hook_started').map((record) => record.event)).toEqual([
        'PostToolUseFailure',
        'PostToolUse',
      ]);
      expect(recordsOf(sink.records, 'tool_finished')[0]).toMatchObject({ is_error: true });
      await engine.close();
    },
    PROCESS_TIMEOUT,
  );

  it('passes the signal to execute and tells the telemetry of the start and the end', async () => {
    const { engine } = setup(tempDir(), {});
    const controller = new AbortController();
    const gate = createToolGate({ engine, signal: controller.signal });
    const events: string[] = [];
    const telemetry: ToolCallTelemetry = {
      startToolCall(call, risk): ToolCallScope {
        events.push(`start ${call.id} ${risk}`);
        return {
          run: async (fn) => {
            events.push('run');
            return fn();
          },
          end: (result: ToolResult) => events.push(`end ${result.status}`),
        };
      },
    };
    const { execute, seen } = recordingExecute({ content: 'ok', isError: false });
    await gate.run(
      { id: 'call_1', name: 'read_file', input: { path: 'a' }, risk: 'readonly' },
      execute,
      {
        telemetry,
      },
    );
    expect(events).toEqual(['start call_1 readonly', 'run', 'end ok']);
    expect(seen[0]?.signal).toBe(controller.signal);
    await engine.close();
  });

  it('rejects with INVALID_OPTIONS when execute is not a function or the call is malformed', async () => {
    const { engine } = setup(tempDir(), {});
    const gate = createToolGate({ engine });
    await expect(
      gate.run({ id: 'c', name: 'read_file', input: {}, risk: 'readonly' }, 'no' as never),
    ).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(
      gate.run({ id: '', name: 'read_file', input: {} }, async () => ({
        content: '',
        isError: false,
      })),
    ).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await engine.close();
  });

  it('resolves an unknown-tool error without calling execute when the call has no risk', async () => {
    const { engine } = setup(tempDir(), {});
    const gate = createToolGate({ engine });
    const { execute, seen } = recordingExecute({ content: 'ok', isError: false });
    const result = await gate.run({ id: 'c', name: 'nope', input: {} }, execute);
    expect(result).toMatchObject({ status: 'error', content: 'unknown tool' });
    expect(seen).toEqual([]);
    await engine.close();
  });
});
