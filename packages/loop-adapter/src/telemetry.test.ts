import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { makeTempDir } from '@soong-agent/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { TRACER_NAME } from './telemetry.js';
import { hookCommand, setup } from './test-helpers/setup.js';
import { registerSpanExporter, spansNamed, unregisterSpans } from './test-helpers/spans.js';
import { executeToolBatch } from './tool-batch.js';
import type { ToolDefinition } from './tool-call.js';

// OpenTelemetry with the SDK's in-memory exporter: a span per hook run and per tool call, under the
// caller's active span, carrying ids and outcomes but never a payload or an environment value.
const tempDir = () => makeTempDir();
const SECRET = 'sk-otel-secret-91c2';
const TIMEOUT = 60_000;

const register = registerSpanExporter;

afterEach(unregisterSpans);

const echoTool: ToolDefinition = {
  name: 'read_file',
  risk: 'readonly',
  paths: (input) => [String((input as { path: string }).path)],
  execute: async () => ({ content: `contents with ${SECRET}`, isError: false }),
};
const bashTool: ToolDefinition = {
  name: 'bash',
  risk: 'dangerous',
  execute: async () => ({ content: 'ran', isError: false }),
};

function batchSetup() {
  const root = tempDir();
  const deny = `echo '{"decision":"deny","reason":"no ${SECRET}"}'`;
  const done = setup(
    root,
    {
      PreToolUse: [
        { matcher: 'bash', hooks: [{ name: 'guard', command: deny }] },
        { matcher: 'read_file', hooks: [{ name: 'watch', command: hookCommand('fail.sh') }] },
      ],
      PostToolUse: [{ hooks: [{ name: 'audit', command: 'cat > /dev/null' }] }],
    },
    `[runner]\nenv_allowlist = ["OTEL_TEST_SECRET"]\n`,
  );
  return {
    ...done,
    run: () =>
      executeToolBatch(
        [
          { id: 'call_1', name: 'read_file', input: { path: `notes-${SECRET}.txt` } },
          { id: 'call_2', name: 'bash', input: { command: `echo ${SECRET}` } },
        ],
        {
          tools: new Map([
            ['read_file', echoTool],
            ['bash', bashTool],
          ]),
          engine: done.engine,
          permission: async () => ({ allow: true }),
        },
      ),
  };
}

const byName = spansNamed;

describe('OpenTelemetry spans', () => {
  it(
    'emits a span per tool call and per hook run under the caller active span when an SDK is registered',
    async () => {
      const exporter = register();
      const { run } = batchSetup();
      const tracer = trace.getTracer('app');
      await tracer.startActiveSpan('app.turn', async (span) => {
        await run();
        span.end();
      });
      const spans = exporter.getFinishedSpans();
      const [app] = byName(spans, 'app.turn');
      const tools = byName(spans, 'soong_agent.tool');
      const hooks = byName(spans, 'soong_agent.hook');
      expect(tools.map((span) => span.attributes['soong_agent.tool.call_id'])).toEqual([
        'call_1',
        'call_2',
      ]);
      expect(
        tools.every((span) => span.parentSpanContext?.spanId === app?.spanContext().spanId),
      ).toBe(true);
      expect(tools.map((span) => span.attributes['soong_agent.tool.status'])).toEqual([
        'ok',
        'denied',
      ]);
      expect(tools[0]?.instrumentationScope.name).toBe(TRACER_NAME);
      // read_file: PreToolUse watch (fails), PostToolUse audit; bash: PreToolUse guard (deny).
      expect(hooks.map((span) => span.attributes['soong_agent.hook.id'])).toEqual([
        'watch',
        'audit',
        'guard',
      ]);
      const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
      expect(parentOf(hooks[0])).toBe(tools[0]?.spanContext().spanId);
      expect(parentOf(hooks[1])).toBe(tools[0]?.spanContext().spanId);
      expect(parentOf(hooks[2])).toBe(tools[1]?.spanContext().spanId);
      expect(hooks[0]?.attributes).toMatchObject({
        'soong_agent.hook.event': 'PreToolUse',
        'soong_agent.hook.failure': 'exit_code',
        'soong_agent.hook.exit_code': 1,
        'soong_agent.tool.call_id': 'call_1',
      });
      expect(hooks[0]?.status.code).toBe(2); // SpanStatusCode.ERROR
      expect(hooks[2]?.attributes).toMatchObject({
        'soong_agent.hook.decision': 'deny',
        'soong_agent.hook.exit_code': 0,
        'soong_agent.hook.mode': 'spawn',
      });
      expect(typeof hooks[2]?.attributes['soong_agent.hook.duration_ms']).toBe('number');
    },
    TIMEOUT,
  );

  it(
    'puts no payload, reason or environment value in any attribute when hooks see them',
    async () => {
      const exporter = register();
      process.env.OTEL_TEST_SECRET = SECRET;
      try {
        const { run } = batchSetup();
        await run();
      } finally {
        delete process.env.OTEL_TEST_SECRET;
      }
      const spans = exporter.getFinishedSpans();
      expect(spans.length).toBeGreaterThan(0);
      for (const span of spans) {
        expect(JSON.stringify(span.attributes), span.name).not.toContain(SECRET);
        expect(span.events).toEqual([]);
      }
    },
    TIMEOUT,
  );

  it(
    'emits nothing and changes no outcome when no SDK is registered',
    async () => {
      const exporter = new InMemorySpanExporter();
      // A provider that exists but is not registered: the API stays a no-op.
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      const { run, sink } = batchSetup();
      const results = await run();
      expect(results.map((result) => result.status)).toEqual(['ok', 'denied']);
      expect(exporter.getFinishedSpans()).toEqual([]);
      expect(sink.records.some((record) => record.type === 'hook_denied')).toBe(true);
    },
    TIMEOUT,
  );
});
