import fs from 'node:fs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { EventRecord } from '@soong-agent/protocol';
import { makeTempDir } from '@soong-agent/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { readEventLog } from './event-log.js';
import { type HookSessionHandle, openHookSession } from './open-hook-session.js';
import { hookCommand, type RuleSpecJson, recordsOf, writeHome } from './test-helpers/setup.js';
import { registerSpanExporter, spansNamed, unregisterSpans } from './test-helpers/spans.js';
import type { ToolCall, ToolDefinition, ToolExecutionResult } from './tool-call.js';
import { openTelemetryToolCalls, type ToolCallTelemetry } from './tool-call-telemetry.js';
import { ABORTED_TOOL_TEXT, CLOSED_TOOL_TEXT, type ToolGate } from './tool-gate.js';

// gate.run against real sessions and real hook processes: the records of a host that calls
// before → execute → after by hand are the records of gate.run, byte for byte.
const tempDir = () => makeTempDir();
const TIMEOUT = 60_000;

const TOOLS = new Map<string, Omit<ToolDefinition, 'execute'>>([
  ['read_file', { name: 'read_file', risk: 'readonly' }],
  ['write_file', { name: 'write_file', risk: 'write' }],
  ['bash', { name: 'bash', risk: 'dangerous' }],
]);

async function open(
  hooks: Partial<Record<string, RuleSpecJson[]>>,
  configToml = '',
  onRecord?: (record: EventRecord) => void,
): Promise<HookSessionHandle> {
  const { home, projectDir } = writeHome(tempDir(), hooks, configToml);
  return openHookSession({ projectDir, home, tools: TOOLS, onRecord });
}

// Resolves once a record of `type` is written (the session's onRecord), without polling.
function recordWatch(type: EventRecord['type']) {
  let seen: () => void = () => {};
  const written = new Promise<void>((resolve) => {
    seen = resolve;
  });
  return {
    written,
    onRecord: (record: EventRecord) => {
      if (record.type === type) seen();
    },
  };
}

// An execute that records what it got and answers `content`.
function recordingExecute(content = 'ran') {
  const seen: { callId: string; input: unknown; signal?: AbortSignal }[] = [];
  const execute = async (
    input: unknown,
    context: { callId: string; signal?: AbortSignal },
  ): Promise<ToolExecutionResult> => {
    seen.push({
      callId: context.callId,
      input,
      ...(context.signal ? { signal: context.signal } : {}),
    });
    return { content, isError: false };
  };
  return { seen, execute };
}

// Everything but timestamps, durations and the session id: the same calls give the same text.
function normalisedLog(session: HookSessionHandle): string {
  return fs
    .readFileSync(session.eventLog, 'utf8')
    .replaceAll(session.sessionId, 'SESSION')
    .replace(/"ts":"[^"]+"/g, '"ts":"T"')
    .replace(/"duration_ms":[0-9.]+/g, '"duration_ms":0')
    .replace(/"session_dir":"[^"]+"/g, '"session_dir":"D"')
    .replace(/"(agent_home|project_dir|home|path|artifact_ref)":"[^"]*"/g, '"$1":"P"');
}

function types(session: HookSessionHandle): string[] {
  return readEventLog(session.eventLog).records.map((record) => record.type);
}

const GUARDED: Partial<Record<string, RuleSpecJson[]>> = {
  PreToolUse: [
    {
      matcher: { tool: 'write_file' },
      hooks: [{ command: hookCommand('deny.sh', 'no writes'), name: 'guard' }],
    },
  ],
  PostToolUseFailure: [{ hooks: [{ command: hookCommand('allow.sh'), name: 'failure' }] }],
  PostToolUse: [{ hooks: [{ command: hookCommand('allow.sh'), name: 'post' }] }],
};

// Each call: ok, denied (write), skipped (halted), and one whose tool throws, on a fresh step.
const STEP: ToolCall[] = [
  { id: 'c1', name: 'read_file', input: { path: 'a.txt' } },
  { id: 'c2', name: 'write_file', input: { path: 'b.txt', content: 'x' } },
  { id: 'c3', name: 'bash', input: { command: 'ls' } },
];
const FAILING: ToolCall = { id: 'c4', name: 'bash', input: { command: 'false' } };

async function byHand(gate: ToolGate, call: ToolCall, run: () => Promise<ToolExecutionResult>) {
  const verdict = await gate.before(call);
  if (!verdict.run) return verdict.result;
  let executed: ToolExecutionResult;
  try {
    executed = await run();
  } catch (error) {
    executed = { content: `tool ${call.name} failed: ${(error as Error).message}`, isError: true };
  }
  return gate.after(call.id, executed);
}

describe('gate.run in a session', () => {
  it(
    'writes the records and returns the results of the hand-written sequence when a step allows, denies, halts and fails',
    async () => {
      const sessions = [await open(GUARDED), await open(GUARDED)] as const;
      const boom = async (): Promise<ToolExecutionResult> => {
        throw new Error('boom');
      };
      const ok = async () => ({ content: 'ran', isError: false });
      const results = [];
      for (const [index, session] of sessions.entries()) {
        const gate = session.toolGate();
        const step = [];
        for (const call of STEP) {
          step.push(index === 0 ? await byHand(gate, call, ok) : await gate.run(call, ok));
        }
        const next = session.toolGate();
        step.push(index === 0 ? await byHand(next, FAILING, boom) : await next.run(FAILING, boom));
        results.push(step);
        await session.close();
      }
      expect(results[1]).toEqual(results[0]);
      expect(results[1]?.map((result) => result.status)).toEqual([
        'ok',
        'denied',
        'skipped',
        'error',
      ]);
      expect(results[1]?.[3]?.content).toBe('tool bash failed: boom');
      expect(normalisedLog(sessions[1])).toBe(normalisedLog(sessions[0]));
    },
    TIMEOUT,
  );

  it(
    'never calls execute for a call a PreToolUse hook denied',
    async () => {
      const session = await open(GUARDED);
      const { seen, execute } = recordingExecute();
      const result = await session.toolGate().run(STEP[1] as ToolCall, execute);
      await session.close();
      expect(seen).toEqual([]);
      expect(result).toMatchObject({ callId: 'c2', status: 'denied', isError: true });
      expect(result.content).toContain('no writes');
      expect(types(session)).toContain('tool_denied');
      expect(types(session)).not.toContain('tool_finished');
    },
    TIMEOUT,
  );

  it(
    'runs the call with the input as the model wrote it when a hook answers updatedInput',
    async () => {
      const rewrite = `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -rf /"}}}'`;
      const session = await open({
        PreToolUse: [{ hooks: [{ command: rewrite, name: 'rewriter', protocol: 'claude-code' }] }],
      });
      const { seen, execute } = recordingExecute();
      const call = { id: 'c1', name: 'bash', input: { command: 'ls' } };
      const result = await session.toolGate().run(call, execute);
      await session.close();
      expect(seen).toEqual([{ callId: 'c1', input: { command: 'ls' } }]);
      expect(result.status).toBe('ok');
      const logs = recordsOf(readEventLog(session.eventLog).records, 'hook_log');
      expect(logs.some((record) => record.message.includes('updatedInput'))).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'records an error result and runs PostToolUseFailure then PostToolUse when execute throws',
    async () => {
      const session = await open(GUARDED);
      const result = await session.toolGate().run(FAILING, async () => {
        throw new Error('disk on fire');
      });
      await session.close();
      expect(result).toMatchObject({
        status: 'error',
        isError: true,
        content: 'tool bash failed: disk on fire',
      });
      const records = readEventLog(session.eventLog).records;
      expect(recordsOf(records, 'tool_finished')).toMatchObject([
        { call_id: 'c4', is_error: true, error_text: 'tool bash failed: disk on fire' },
      ]);
      expect(
        recordsOf(records, 'hook_started').map((record) => [record.event, record.hook_id]),
      ).toEqual([
        ['PostToolUseFailure', 'failure'],
        ['PostToolUse', 'post'],
      ]);
    },
    TIMEOUT,
  );

  it(
    'records an error result naming the fix when execute resolves something other than { content, isError }',
    async () => {
      const session = await open({});
      const gate = session.toolGate();
      const bad = (value: unknown) => async () => value as ToolExecutionResult;
      const results = [
        await gate.run({ id: 'c1', name: 'bash', input: {} }, bad(undefined)),
        await gate.run({ id: 'c2', name: 'bash', input: {} }, bad('text')),
        await gate.run({ id: 'c3', name: 'bash', input: {} }, bad({ content: 42 })),
      ];
      await session.close();
      expect(results.map((result) => [result.status, result.content])).toEqual([
        [
          'error',
          'tool bash failed: execute resolved undefined; expected { content: string, isError: boolean }',
        ],
        [
          'error',
          'tool bash failed: execute resolved a string; expected { content: string, isError: boolean }',
        ],
        ['ok', '42'],
      ]);
      expect(recordsOf(readEventLog(session.eventLog).records, 'tool_finished')).toHaveLength(3);
    },
    TIMEOUT,
  );

  it(
    'kills the running PreToolUse hook and never calls execute when the signal aborts',
    async () => {
      const started = recordWatch('hook_started');
      const session = await open(
        { PreToolUse: [{ hooks: [{ command: hookCommand('sleep.sh'), name: 'slow' }] }] },
        '',
        started.onRecord,
      );
      const controller = new AbortController();
      const { seen, execute } = recordingExecute();
      const running = session
        .toolGate()
        .run({ id: 'c1', name: 'bash', input: {} }, execute, { signal: controller.signal });
      // Abort once the hook has started (its record is written when it spawns).
      await started.written;
      controller.abort();
      const result = await running;
      await session.close();
      expect(seen).toEqual([]);
      expect(result).toMatchObject({ status: 'error', content: ABORTED_TOOL_TEXT });
      expect(recordsOf(readEventLog(session.eventLog).records, 'tool_finished')).toMatchObject([
        { call_id: 'c1', is_error: true },
      ]);
    },
    TIMEOUT,
  );

  it(
    'gives execute the signal, and records what the tool answered when it aborts while running',
    async () => {
      const session = await open(GUARDED);
      const controller = new AbortController();
      const result = await session.toolGate().run(
        { id: 'c1', name: 'bash', input: {} },
        (_input, { signal }) =>
          new Promise((resolve) => {
            signal?.addEventListener('abort', () =>
              resolve({ content: 'killed by abort', isError: true }),
            );
            controller.abort();
          }),
        { signal: controller.signal },
      );
      await session.close();
      expect(result).toMatchObject({ status: 'error', content: 'killed by abort' });
      expect(recordsOf(readEventLog(session.eventLog).records, 'tool_finished')).toMatchObject([
        { call_id: 'c1', is_error: true, error_text: 'killed by abort' },
      ]);
    },
    TIMEOUT,
  );

  it(
    'leaves the context of the call PreToolUse and PostToolUse hooks added for the next request',
    async () => {
      const say = (text: string) =>
        `cat >/dev/null; echo '{"decision":"allow","context":"${text}"}'`;
      const session = await open(
        {
          PreToolUse: [{ hooks: [{ command: say('before it'), name: 'pre' }] }],
          PostToolUse: [{ hooks: [{ command: say('after it'), name: 'post' }] }],
        },
        '[hooks]\ndeliver_context = true\n',
      );
      const result = await session
        .toolGate()
        .run({ id: 'c1', name: 'read_file', input: { path: 'a' } }, async () => ({
          content: 'text',
          isError: false,
        }));
      const nodes = session.takeContext();
      await session.close();
      expect(result.content).toBe('text');
      expect(nodes.map((node) => [node.event, node.hook_id, node.text])).toEqual([
        ['PreToolUse', 'pre', 'before it'],
        ['PostToolUse', 'post', 'after it'],
      ]);
    },
    TIMEOUT,
  );

  it(
    'answers a closed result without calling execute when the session closed',
    async () => {
      const session = await open({});
      const gate = session.toolGate();
      await session.close();
      const { seen, execute } = recordingExecute();
      const result = await gate.run({ id: 'c1', name: 'bash', input: {} }, execute);
      expect(seen).toEqual([]);
      expect(result).toMatchObject({ status: 'error', content: CLOSED_TOOL_TEXT });
    },
    TIMEOUT,
  );

  it(
    'rejects a call whose id is already running without running it twice',
    async () => {
      const started = recordWatch('tool_started');
      const session = await open({}, '', started.onRecord);
      const gate = session.toolGate();
      let release: () => void = () => {};
      const first = gate.run({ id: 'c1', name: 'bash', input: {} }, async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { content: 'once', isError: false };
      });
      await started.written;
      const { seen, execute } = recordingExecute();
      await expect(
        session.toolGate().run({ id: 'c1', name: 'bash', input: {} }, execute),
      ).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
      release();
      expect((await first).content).toBe('once');
      await session.close();
      expect(seen).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'runs the whole call inside the telemetry it is given, which sees the call and its result',
    async () => {
      const session = await open(GUARDED);
      const seen: [string, string][] = [];
      const telemetry: ToolCallTelemetry = {
        startToolCall: (call) => ({
          run: (fn) => fn(),
          end: (result) => seen.push([call.id, result.status]),
        }),
      };
      const gate = session.toolGate();
      for (const call of STEP) {
        await gate.run(call, async () => ({ content: 'ran', isError: false }), { telemetry });
      }
      await session.close();
      expect(seen).toEqual([
        ['c1', 'ok'],
        ['c2', 'denied'],
        ['c3', 'skipped'],
      ]);
    },
    TIMEOUT,
  );
});

describe('openTelemetryToolCalls', () => {
  const register = registerSpanExporter;
  afterEach(unregisterSpans);
  const byName = spansNamed;

  it(
    'records a span per call, parent of its hooks spans, with its status when OpenTelemetry is registered',
    async () => {
      const exporter = register();
      const session = await open(GUARDED);
      const gate = session.toolGate();
      const telemetry = openTelemetryToolCalls;
      for (const call of STEP) {
        await gate.run(call, async () => ({ content: 'ran', isError: false }), { telemetry });
      }
      await session.toolGate().run(
        FAILING,
        async () => {
          throw new Error('boom');
        },
        { telemetry },
      );
      await session.close();
      const spans = exporter.getFinishedSpans();
      const tools = byName(spans, 'soong_agent.tool');
      expect(
        tools.map((span) => [
          span.attributes['soong_agent.tool.call_id'],
          span.attributes['soong_agent.tool.risk'],
          span.attributes['soong_agent.tool.status'],
          span.status.code,
        ]),
      ).toEqual([
        ['c1', 'readonly', 'ok', 0],
        ['c2', 'write', 'denied', 0],
        ['c3', 'dangerous', 'skipped', 0],
        ['c4', 'dangerous', 'error', 2],
      ]);
      const hooks = byName(spans, 'soong_agent.hook');
      const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
      const toolOf = (hookSpan: ReadableSpan) =>
        tools.find((span) => span.spanContext().spanId === parentOf(hookSpan));
      expect(
        hooks.map((span) => [
          span.attributes['soong_agent.hook.id'],
          toolOf(span)?.attributes['soong_agent.tool.call_id'],
        ]),
      ).toEqual([
        ['post', 'c1'],
        ['guard', 'c2'],
        ['failure', 'c4'],
        ['post', 'c4'],
      ]);
    },
    TIMEOUT,
  );
});
