import fs from 'node:fs';
import path from 'node:path';
import { HookInputSchema, type RiskClass } from '@soong-agent/protocol';
import { makeTempDir, tempDirFor } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { createFileArtifactStore } from './artifact-store.js';
import {
  hookCommand,
  type RuleSpecJson,
  recordsOf,
  recordTypes,
  setup,
} from './test-helpers/setup.js';
import { createToolBatch, executeToolBatch } from './tool-batch.js';
import type { PermissionCallback, ToolCall, ToolDefinition } from './tool-call.js';
import {
  ABORTED_TOOL_TEXT,
  SKIPPED_TOOL_TEXT,
  TOO_DEEP_INPUT_TEXT,
  UNKNOWN_TOOL_TEXT,
} from './tool-gate.js';

const tempDir = () => makeTempDir();
const PROCESS_TIMEOUT = 60_000;

function makeTool(
  name: string,
  risk: RiskClass,
  execute?: ToolDefinition['execute'],
): ToolDefinition {
  return {
    name,
    risk,
    paths: (input) => [(input as { path: string }).path],
    execute:
      execute ??
      (async (input) => ({
        content: `${name} ran on ${(input as { path: string }).path}`,
        isError: false,
      })),
  };
}

const TOOLS = new Map<string, ToolDefinition>([
  ['read_file', makeTool('read_file', 'readonly')],
  ['write_file', makeTool('write_file', 'write')],
  ['bash', makeTool('bash', 'dangerous')],
]);
const NAME_OF = { r: 'read_file', w: 'write_file', d: 'bash' } as const;
const OBSERVER: RuleSpecJson = { hooks: [{ command: hookCommand('allow.sh'), name: 'observer' }] };

type DenySource = 'hook' | 'permission' | 'hook failure';
const GUARDS: Record<DenySource, RuleSpecJson[]> = {
  hook: [
    {
      matcher: { path_prefix: 'secret' },
      hooks: [{ command: hookCommand('deny.sh', 'secret path'), name: 'guard' }],
    },
  ],
  permission: [],
  'hook failure': [
    {
      matcher: { path_prefix: 'secret' },
      hooks: [{ command: hookCommand('fail.sh'), name: 'guard', on_failure: 'deny' }],
    },
  ],
};
const DENIED_TEXT: Record<DenySource, string> = {
  hook: 'denied by hook guard: secret path',
  permission: 'denied by permission: user said no',
  'hook failure': 'denied by hook guard: hook guard failed: exit_code',
};
const DENIED_RECORDS: Record<DenySource, string[]> = {
  hook: ['tool_started', 'hook_started', 'hook_finished', 'hook_denied', 'tool_denied'],
  permission: ['tool_started', 'permission_denied', 'tool_denied'],
  'hook failure': [
    'tool_started',
    'hook_started',
    'hook_log',
    'hook_failed',
    'hook_denied',
    'tool_denied',
  ],
};
const OK_RECORDS = ['tool_started', 'tool_finished', 'hook_started', 'hook_finished'];

// Each shape: the calls ("r" readonly, "w" write, "d" dangerous; "*" = denied) and the expected statuses.
const SHAPES: { calls: string[]; statuses: string[] }[] = [
  { calls: ['r', 'r', 'w'], statuses: ['ok', 'ok', 'ok'] },
  { calls: ['r', 'r', 'w*'], statuses: ['ok', 'ok', 'denied'] },
  { calls: ['w*', 'r'], statuses: ['denied', 'skipped'] },
  { calls: ['r*', 'r', 'w', 'r'], statuses: ['denied', 'ok', 'skipped', 'skipped'] },
  { calls: ['d*', 'r'], statuses: ['denied', 'skipped'] },
  { calls: ['r', 'w*', 'r'], statuses: ['ok', 'denied', 'skipped'] },
  { calls: ['r*', 'r*', 'r', 'd'], statuses: ['denied', 'denied', 'ok', 'skipped'] },
];

describe.concurrent('executeToolBatch deny semantics', () => {
  for (const shape of SHAPES) {
    for (const source of ['hook', 'permission', 'hook failure'] as const) {
      it(
        `gives ${shape.statuses.join(', ')} when the batch is [${shape.calls.join(', ')}] and the deny comes from ${source}`,
        async (context) => {
          const root = tempDirFor(context);
          const { engine, sink } = setup(root, {
            PreToolUse: GUARDS[source],
            PostToolUse: [OBSERVER],
          });
          const calls: ToolCall[] = shape.calls.map((code, index) => ({
            id: `call_${index + 1}`,
            name: NAME_OF[code[0] as 'r' | 'w' | 'd'],
            input: {
              path: code.endsWith('*') ? `secret/${index + 1}.txt` : `src/${index + 1}.txt`,
            },
          }));
          const asked: string[] = [];
          const permission: PermissionCallback = async ({ call, paths }) => {
            asked.push(call.id);
            const secret =
              source === 'permission' && paths.some((item) => item.includes('/secret/'));
            return secret ? { allow: false, reason: 'user said no' } : { allow: true };
          };
          const results = await executeToolBatch(calls, {
            tools: TOOLS,
            engine,
            permission,
          });

          const firstDenied = calls[shape.statuses.indexOf('denied')]?.id;
          const expectedResults = calls.map((call, index) => {
            const status = shape.statuses[index];
            const content =
              status === 'ok'
                ? `${call.name} ran on ${(call.input as { path: string }).path}`
                : status === 'denied'
                  ? DENIED_TEXT[source]
                  : SKIPPED_TOOL_TEXT;
            return { callId: call.id, name: call.name, status, isError: status !== 'ok', content };
          });
          expect(
            results.map(({ callId, name, status, isError, content }) => ({
              callId,
              name,
              status,
              isError,
              content,
            })),
          ).toEqual(expectedResults);

          // Every record of a call (its hook records too) carries the call's id.
          const expectedRecords = calls.flatMap((call, index) => {
            const status = shape.statuses[index];
            const types =
              status === 'ok'
                ? OK_RECORDS
                : status === 'denied'
                  ? DENIED_RECORDS[source]
                  : ['tool_skipped'];
            return types.map((type) => [type, call.id]);
          });
          expect(recordTypes(sink.records)).toEqual(expectedRecords.map(([type]) => type));
          expect(sink.records.map((r) => [r.type, 'call_id' in r ? r.call_id : undefined])).toEqual(
            expectedRecords,
          );
          for (const skipped of recordsOf(sink.records, 'tool_skipped'))
            expect(skipped.denied_call_id).toBe(firstDenied);
          for (const denied of recordsOf(sink.records, 'tool_denied')) {
            expect(denied).toMatchObject(
              source === 'permission'
                ? { source: 'permission', reason: 'user said no' }
                : {
                    source: 'hook',
                    hook_id: 'guard',
                    reason: DENIED_TEXT[source].slice('denied by hook guard: '.length),
                  },
            );
          }
          // The permission callback is asked for every call that ran or that it denied, never for a hook deny.
          const askedExpected = calls
            .filter(
              (_, index) =>
                shape.statuses[index] === 'ok' ||
                (source === 'permission' && shape.statuses[index] === 'denied'),
            )
            .map((call) => call.id);
          expect(asked).toEqual(askedExpected);
        },
        PROCESS_TIMEOUT,
      );
    }
  }
});

describe('createToolBatch', () => {
  it(
    'carries the deny semantics from one call to the next when calls are fed one at a time',
    async () => {
      const root = tempDir();
      const { engine, sink } = setup(root, { PreToolUse: GUARDS.hook });
      const options = {
        tools: TOOLS,
        engine,
        permission: (async () => ({ allow: true })) as PermissionCallback,
        artifacts: createFileArtifactStore(path.join(root, 'artifacts')),
        sink,
      };
      const batch = createToolBatch(options);
      const statuses: string[] = [];
      const inputs = [
        ['read_file', 'secret/1.txt'],
        ['read_file', 'src/2.txt'],
        ['write_file', 'src/3.txt'],
        ['read_file', 'src/4.txt'],
      ] as const;
      for (const [index, [name, file]] of inputs.entries())
        statuses.push(
          (await batch.run({ id: `c${index + 1}`, name, input: { path: file } })).status,
        );
      expect(statuses).toEqual(['denied', 'ok', 'skipped', 'skipped']);
      expect(recordsOf(sink.records, 'tool_skipped').map((r) => r.denied_call_id)).toEqual([
        'c1',
        'c1',
      ]);
      // A new batch (the next model turn) starts without the denial.
      const next = await createToolBatch(options).run({
        id: 'c5',
        name: 'write_file',
        input: { path: 'src/5.txt' },
      });
      expect(next.status).toBe('ok');
    },
    PROCESS_TIMEOUT,
  );
});

describe('executeToolBatch', () => {
  const allow: PermissionCallback = async () => ({ allow: true });

  it.each([5_000, 100_000])(
    'returns a non-halting error, runs no hook and closes tool_started when the input nests %i levels deep',
    async (depth) => {
      const root = tempDir();
      const marker = path.join(root, 'hook-ran');
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: `touch '${marker}'` }] }],
      });
      let deep: unknown = [];
      for (let level = 1; level < depth; level++) deep = [deep];
      const results = await executeToolBatch(
        [
          { id: 'c1', name: 'write_file', input: { path: 'a', content: deep } },
          { id: 'c2', name: 'read_file', input: { path: 'b' } },
        ],
        {
          tools: TOOLS,
          engine,
          permission: allow,
        },
      );
      expect(results.map((r) => [r.status, r.isError, r.content])).toEqual([
        ['error', true, TOO_DEEP_INPUT_TEXT],
        ['ok', false, 'read_file ran on b'],
      ]);
      expect(recordTypes(sink.records).slice(0, 2)).toEqual(['tool_started', 'tool_finished']);
      expect(sink.records[0]).toMatchObject({ risk: 'write', input_truncated: true });
      // The hook ran for the second call only.
      expect(recordsOf(sink.records, 'hook_started').map((r) => r.call_id)).toEqual(['c2']);
      expect(fs.existsSync(marker)).toBe(true);
      expect(JSON.stringify(sink.records).length).toBeLessThan(100_000);
    },
    PROCESS_TIMEOUT,
  );

  it('returns a non-halting "unknown tool" error when a call names no known tool', async () => {
    const root = tempDir();
    const { engine, sink } = setup(root, {});
    const results = await executeToolBatch(
      [
        { id: 'c1', name: 'no_such_tool', input: {} },
        { id: 'c2', name: 'write_file', input: { path: 'a' } },
      ],
      {
        tools: TOOLS,
        engine,
        permission: allow,
      },
    );
    expect(results.map((r) => [r.status, r.isError, r.content])).toEqual([
      ['error', true, UNKNOWN_TOOL_TEXT],
      ['ok', false, 'write_file ran on a'],
    ]);
    expect(recordTypes(sink.records)).toEqual([
      'tool_started',
      'tool_finished',
      'tool_started',
      'tool_finished',
    ]);
    expect(sink.records[0]).toMatchObject({
      type: 'tool_started',
      risk: 'dangerous',
      unknown_tool: true,
    });
  });

  it('turns a throwing tool into an is_error result when execute rejects', async () => {
    const root = tempDir();
    const { engine, sink } = setup(root, {});
    const broken = makeTool('broken', 'readonly', async () => {
      throw new Error('disk on fire');
    });
    const results = await executeToolBatch([{ id: 'c1', name: 'broken', input: { path: 'a' } }], {
      tools: new Map([['broken', broken]]),
      engine,
      permission: allow,
    });
    expect(results[0]).toMatchObject({ status: 'error', isError: true });
    expect(results[0]?.content).toContain('disk on fire');
    expect(recordsOf(sink.records, 'tool_finished')[0]?.is_error).toBe(true);
  });

  it('records the head of the error text, at most 1 KiB, in tool_finished when a result is an error', async () => {
    const root = tempDir();
    const { engine, sink } = setup(root, {});
    const failing = makeTool('failing', 'readonly', async (input) => ({
      content: (input as { content: string }).content,
      isError: true,
    }));
    const long = `exit 1: ${'é'.repeat(2000)}`;
    await executeToolBatch(
      [
        { id: 'c1', name: 'failing', input: { path: 'a', content: 'exit 2: no such file' } },
        { id: 'c2', name: 'failing', input: { path: 'b', content: long } },
        { id: 'c3', name: 'read_file', input: { path: 'c' } },
        { id: 'c4', name: 'no_such_tool', input: {} },
      ],
      {
        tools: new Map([...TOOLS, ['failing', failing]]),
        engine,
        permission: allow,
      },
    );
    const finished = recordsOf(sink.records, 'tool_finished');
    expect(finished.map((record) => record.error_text)).toEqual([
      'exit 2: no such file',
      expect.stringMatching(/^exit 1: é+$/),
      undefined,
      UNKNOWN_TOOL_TEXT,
    ]);
    const head = finished[1]?.error_text ?? '';
    expect(Buffer.byteLength(head)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(head)).toBeGreaterThan(1020);
    expect(finished[2]).not.toHaveProperty('error_text');
  });

  it('denies the call and halts like a permission deny when the permission callback throws', async () => {
    const root = tempDir();
    const { engine, sink } = setup(root, {});
    const results = await executeToolBatch(
      [
        { id: 'c1', name: 'write_file', input: { path: 'a' } },
        { id: 'c2', name: 'read_file', input: { path: 'b' } },
      ],
      {
        tools: TOOLS,
        engine,
        permission: async () => {
          throw new Error('prompt closed');
        },
      },
    );
    expect(results.map((r) => [r.status, r.content])).toEqual([
      ['denied', 'denied by permission: permission check failed: prompt closed'],
      ['skipped', SKIPPED_TOOL_TEXT],
    ]);
    expect(recordTypes(sink.records)).toEqual([
      'tool_started',
      'permission_denied',
      'tool_denied',
      'tool_skipped',
    ]);
  });

  it('gives the remaining calls "aborted" results when the signal aborts mid-batch', async () => {
    const root = tempDir();
    const { engine, sink } = setup(root, {});
    const controller = new AbortController();
    const aborting = makeTool('aborting', 'readonly', async () => {
      controller.abort();
      return { content: 'done', isError: false };
    });
    const tools = new Map([...TOOLS, ['aborting', aborting]]);
    const results = await executeToolBatch(
      [
        { id: 'c1', name: 'aborting', input: { path: 'a' } },
        { id: 'c2', name: 'read_file', input: { path: 'b' } },
        { id: 'c3', name: 'read_file', input: { path: 'c' } },
      ],
      {
        tools,
        engine,
        permission: allow,
        signal: controller.signal,
      },
    );
    expect(results.map((r) => [r.callId, r.status, r.content])).toEqual([
      ['c1', 'ok', 'done'],
      ['c2', 'error', ABORTED_TOOL_TEXT],
      ['c3', 'error', ABORTED_TOOL_TEXT],
    ]);
    expect(recordTypes(sink.records)).toEqual(['tool_started', 'tool_finished']);
  });

  it(
    'closes a started call with tool_finished when the signal aborts during its PreToolUse hook',
    async () => {
      const root = tempDir();
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: hookCommand('sleep.sh', '30'), name: 'slow' }] }],
      });
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 200);
      const results = await executeToolBatch(
        [
          { id: 'c1', name: 'read_file', input: { path: 'a' } },
          { id: 'c2', name: 'read_file', input: { path: 'b' } },
        ],
        {
          tools: TOOLS,
          engine,
          permission: allow,
          signal: controller.signal,
        },
      );
      clearTimeout(timer);
      expect(results.map((r) => [r.callId, r.status, r.content])).toEqual([
        ['c1', 'error', ABORTED_TOOL_TEXT],
        ['c2', 'error', ABORTED_TOOL_TEXT],
      ]);
      expect(recordTypes(sink.records)).toEqual([
        'tool_started',
        'hook_started',
        'hook_failed',
        'tool_finished',
      ]);
      expect(sink.records[2]).toMatchObject({ failure: 'aborted' });
      expect(sink.records[3]).toMatchObject({ call_id: 'c1', is_error: true });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'stores a large result before tool_finished and gives PostToolUse a small summary when over the inline limit',
    async () => {
      const root = tempDir();
      const out = path.join(root, 'post.json');
      const { engine, sink } = setup(
        root,
        { PostToolUse: [{ hooks: [{ command: hookCommand('record.sh', out) }] }] },
        '[hooks]\ninline_result_bytes = 1024\n',
      );
      const content = `${'line of output\n'.repeat(100_000)}the end`;
      const big = makeTool('big', 'readonly', async () => ({ content, isError: false }));
      const results = await executeToolBatch(
        [{ id: 'c1', name: 'big', input: { path: 'x', note: 'n'.repeat(5000) } }],
        {
          tools: new Map([['big', big]]),
          engine,
          permission: allow,
        },
      );
      expect(recordTypes(sink.records)).toEqual([
        'tool_started',
        'tool_finished',
        'hook_started',
        'hook_finished',
      ]);
      const finished = recordsOf(sink.records, 'tool_finished')[0];
      expect(finished?.bytes).toBe(Buffer.byteLength(content));
      // Durations are rounded to 0.1 ms, in the record and in the hook input.
      expect(String(finished?.duration_ms)).toMatch(/^\d+(\.\d)?$/);
      expect(fs.readFileSync(finished?.artifact_ref?.path ?? '', 'utf8')).toBe(content);
      expect(results[0]?.artifactRef).toEqual(finished?.artifact_ref);
      const started = recordsOf(sink.records, 'tool_started')[0];
      expect(started).toMatchObject({ input_truncated: true, risk: 'readonly' });
      expect(Buffer.byteLength(JSON.stringify(started?.input))).toBeLessThanOrEqual(1024);

      const stdin = fs.readFileSync(out, 'utf8');
      expect(Buffer.byteLength(stdin)).toBeLessThan(20_000);
      const input = HookInputSchema.parse(JSON.parse(stdin));
      if (input.event !== 'PostToolUse') throw new Error('expected a PostToolUse input');
      expect(input.result).toMatchObject({
        is_error: false,
        bytes: Buffer.byteLength(content),
        artifact_ref: finished?.artifact_ref,
      });
      expect(input.duration_ms).toBe(finished?.duration_ms);
      expect('summary' in input.result && input.result.summary.endsWith('the end')).toBe(true);
      expect(input.tool).toMatchObject({
        input_truncated: true,
        paths: [path.join(root, 'project', 'x')],
        tags: ['readonly'],
      });
    },
    PROCESS_TIMEOUT,
  );
});
