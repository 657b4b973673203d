import fs from 'node:fs';
import path from 'node:path';
import {
  type EventRecord,
  EventRecordSchema,
  HookContextNodeSchema,
  renderHookContext,
} from '@soong-agent/protocol';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { readEventLog } from './event-log.js';
import { hookContextToMessage } from './observe.js';
import { openHookSession } from './open-hook-session.js';
import {
  type RuleSpecJson,
  recordsOf,
  recordTypes,
  setup,
  WORKERS_DIR,
  writeHome,
} from './test-helpers/setup.js';

const tempDir = () => makeTempDir();
const PROCESS_TIMEOUT = 60_000;
const ON = '[hooks]\ndeliver_context = true\n';

// A shell command printing `text` on stdout (exit 0).
const print = (text: string) => `printf '%s' '${text.replaceAll("'", `'\\''`)}'`;
const soong = (context: string) => print(JSON.stringify({ decision: 'allow', context }));
const claude = (event: string, additionalContext: string) =>
  print(JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext } }));

const SESSION_START: Partial<Record<string, RuleSpecJson[]>> = {
  SessionStart: [
    {
      hooks: [
        { command: soong('project uses pnpm'), name: 'soong-ctx' },
        { command: print('{"decision":"allow"}'), name: 'quiet' },
        { command: print('Branch: main'), name: 'plain', protocol: 'claude-code' },
      ],
    },
  ],
};

describe('engine.run with deliver_context', () => {
  it(
    'returns one node per hook that added context, in hook order, each recorded after its run',
    async () => {
      const { engine, sink } = setup(tempDir(), SESSION_START, ON);
      const outcome = await engine.run('SessionStart', {});
      expect(outcome.context).toEqual([
        {
          kind: 'hook_context',
          event: 'SessionStart',
          hook_id: 'soong-ctx',
          text: 'project uses pnpm',
        },
        { kind: 'hook_context', event: 'SessionStart', hook_id: 'plain', text: 'Branch: main' },
      ]);
      for (const node of outcome.context ?? []) HookContextNodeSchema.parse(node);
      expect(outcome.results.map((result) => result.context)).toEqual([
        'project uses pnpm',
        undefined,
        'Branch: main',
      ]);
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_finished',
        'hook_context_added',
        'hook_started',
        'hook_finished',
        'hook_started',
        'hook_log',
        'hook_finished',
        'hook_context_added',
      ]);
      expect(recordsOf(sink.records, 'hook_context_added')).toMatchObject([
        { hook_id: 'soong-ctx', event: 'SessionStart', bytes: 17 },
        { hook_id: 'plain', event: 'SessionStart', bytes: 12 },
      ]);
      expect(recordsOf(sink.records, 'hook_context_added')[0]).not.toHaveProperty('artifact_ref');
    },
    PROCESS_TIMEOUT,
  );

  it(
    'drops the context with one warning per run naming the config line when delivery is off',
    async () => {
      const { engine, sink } = setup(tempDir(), SESSION_START);
      const outcome = await engine.run('SessionStart', {});
      expect(outcome.context).toBeUndefined();
      expect(recordsOf(sink.records, 'hook_context_added')).toEqual([]);
      const dropped = recordsOf(sink.records, 'hook_log').filter((record) =>
        record.message.includes('deliver_context = true'),
      );
      expect(dropped.map((record) => [record.hook_id, record.source])).toEqual([
        ['soong-ctx', 'warning'],
        ['plain', 'warning'],
      ]);
      expect(dropped[0]?.message).toContain('[hooks]');
      // spec §5: a run's hook_log records come before its hook_finished.
      const types = recordTypes(sink.records);
      expect(types.slice(0, 3)).toEqual(['hook_started', 'hook_log', 'hook_finished']);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'stores context over inline_result_bytes as an artifact and gives its summary and path',
    async () => {
      const big = `${'a'.repeat(20_000)}THE-END`;
      const { engine, sink } = setup(
        tempDir(),
        { UserPromptSubmit: [{ hooks: [{ command: soong(big), name: 'big' }] }] },
        `${ON}inline_result_bytes = 4096\n`,
      );
      const outcome = await engine.run('UserPromptSubmit', { prompt: 'hi' });
      const [record] = recordsOf(sink.records, 'hook_context_added');
      expect(record?.bytes).toBe(20_007);
      const ref = record?.artifact_ref;
      expect(ref?.bytes).toBe(20_007);
      expect(fs.readFileSync(ref?.path as string, 'utf8')).toBe(big);
      const text = outcome.context?.[0]?.text ?? '';
      expect(Buffer.byteLength(text)).toBeLessThan(9000);
      expect(text).toContain('THE-END');
      expect(text).toContain(`[hook context: 20007 bytes; full context stored at ${ref?.path}]`);
      expect(record?.text).toBe(text);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'delivers the context of a worker hook as of a spawned one',
    async () => {
      const { engine } = setup(
        tempDir(),
        {
          PreToolUse: [
            {
              hooks: [
                {
                  command: `node ${path.join(WORKERS_DIR, 'worker.mjs')}`,
                  mode: 'worker',
                  name: 'w',
                },
              ],
            },
          ],
        },
        ON,
      );
      try {
        const outcome = await engine.run('PreToolUse', {
          tool: {
            name: 'bash',
            call_id: 'c1',
            input: { act: 'context', text: 'from the worker' },
            risk: 'dangerous',
            tags: [],
            paths: [],
          },
        });
        expect(outcome.decision).toBe('allow');
        expect(outcome.context).toEqual([
          { kind: 'hook_context', event: 'PreToolUse', hook_id: 'w', text: 'from the worker' },
        ]);
      } finally {
        await engine.close();
      }
    },
    PROCESS_TIMEOUT,
  );

  it(
    'keeps the context of a PreToolUse hook that denies, and the deny',
    async () => {
      const { engine, sink } = setup(
        tempDir(),
        {
          PreToolUse: [
            {
              hooks: [
                {
                  command: print(
                    JSON.stringify({ decision: 'deny', reason: 'no', context: 'use trash' }),
                  ),
                  name: 'guard',
                },
              ],
            },
          ],
        },
        ON,
      );
      const outcome = await engine.run('PreToolUse', {
        tool: {
          name: 'bash',
          call_id: 'c9',
          input: { command: 'rm' },
          risk: 'dangerous',
          tags: [],
          paths: [],
        },
      });
      expect(outcome).toMatchObject({ decision: 'deny', reason: 'no', hookId: 'guard' });
      expect(outcome.context?.map((node) => node.text)).toEqual(['use trash']);
      expect(recordTypes(sink.records).slice(-2)).toEqual(['hook_denied', 'hook_context_added']);
      expect(recordsOf(sink.records, 'hook_context_added')[0]?.call_id).toBe('c9');
    },
    PROCESS_TIMEOUT,
  );
});

describe('openHookSession takeContext', () => {
  const HOOKS: Partial<Record<string, RuleSpecJson[]>> = {
    SessionStart: [{ hooks: [{ command: soong('session context'), name: 'start' }] }],
    UserPromptSubmit: [
      {
        hooks: [
          {
            command: print('prompt context (plain stdout)'),
            name: 'prompt',
            protocol: 'claude-code',
          },
        ],
      },
    ],
    PreToolUse: [
      {
        hooks: [
          { command: claude('PreToolUse', 'pre context'), name: 'pre', protocol: 'claude-code' },
        ],
      },
    ],
    PostToolUse: [
      {
        hooks: [
          {
            command: print(JSON.stringify({ decision: 'block', reason: 'lint: 2 errors' })),
            name: 'lint',
            protocol: 'claude-code',
          },
          {
            command: print(JSON.stringify({ additional_context: 'coverage 81%' })),
            name: 'cov',
            protocol: 'cursor',
          },
        ],
      },
    ],
  };

  it(
    'drains the nodes in order: SessionStart, then the prompt, then each tool call; the result kept',
    async () => {
      const { home, projectDir } = writeHome(tempDir(), HOOKS, ON);
      const session = await openHookSession({ projectDir, home });
      try {
        expect(session.takeContext().map((node) => [node.event, node.text])).toEqual([
          ['SessionStart', 'session context'],
        ]);
        expect(session.takeContext()).toEqual([]);
        await session.userPrompt('list files');
        expect(session.takeContext().map((node) => node.text)).toEqual([
          'prompt context (plain stdout)',
        ]);
        const gate = session.toolGate();
        const call = {
          id: 'c1',
          name: 'bash',
          input: { command: 'ls' },
          risk: 'dangerous' as const,
        };
        expect(await gate.before(call)).toEqual({ run: true });
        const result = await gate.after('c1', { content: 'a.txt\nb.txt', isError: false });
        // spec §13.1: the tool result itself is kept; the block reason is context.
        expect(result.content).toBe('a.txt\nb.txt');
        expect(result.isError).toBe(false);
        const nodes = session.takeContext();
        expect(nodes.map((node) => [node.event, node.hook_id, node.text])).toEqual([
          ['PreToolUse', 'pre', 'pre context'],
          ['PostToolUse', 'lint', 'lint: 2 errors'],
          ['PostToolUse', 'cov', 'coverage 81%'],
        ]);
        expect(nodes.map(hookContextToMessage)[1]).toEqual({
          role: 'user',
          content: 'PostToolUse hook "lint" added context:\n\nlint: 2 errors',
        });
        expect(session.takeContext()).toEqual([]);
      } finally {
        await session.close();
      }
      const records = readEventLog(session.eventLog).records as EventRecord[];
      for (const record of records) EventRecordSchema.parse(record);
      const added = recordsOf(records, 'hook_context_added');
      expect(added.map((record) => [record.event, record.hook_id])).toEqual([
        ['SessionStart', 'start'],
        ['UserPromptSubmit', 'prompt'],
        ['PreToolUse', 'pre'],
        ['PostToolUse', 'lint'],
        ['PostToolUse', 'cov'],
      ]);
      // The lint block stays an ignored deny on an observe-only event.
      expect(recordsOf(records, 'hook_decision_ignored').map((record) => record.hook_id)).toEqual([
        'lint',
      ]);
      // Each delivered node is a user line of the transcript, never a system one.
      const transcript = fs
        .readFileSync(session.transcript.file, 'utf8')
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as { type: string; message: { role: string; content: unknown } },
        );
      const contextLines = transcript.filter(
        (line) =>
          typeof line.message.content === 'string' &&
          line.message.content.includes('added context'),
      );
      expect(contextLines.map((line) => line.message.role)).toEqual([
        'user',
        'user',
        'user',
        'user',
        'user',
      ]);
      expect(contextLines[0]?.message.content).toBe(
        renderHookContext({
          kind: 'hook_context',
          event: 'SessionStart',
          hook_id: 'start',
          text: 'session context',
        }),
      );
    },
    PROCESS_TIMEOUT,
  );

  it(
    'returns no node, and records one drop warning per run, when deliver_context is false',
    async () => {
      const { home, projectDir } = writeHome(tempDir(), HOOKS);
      const session = await openHookSession({ projectDir, home });
      try {
        await session.userPrompt('x');
        const gate = session.toolGate();
        await gate.before({ id: 'c1', name: 'bash', input: { command: 'ls' }, risk: 'dangerous' });
        await gate.after('c1', { content: 'out', isError: false });
        expect(session.takeContext()).toEqual([]);
      } finally {
        await session.close();
      }
      const records = readEventLog(session.eventLog).records as EventRecord[];
      expect(recordsOf(records, 'hook_context_added')).toEqual([]);
      const dropped = recordsOf(records, 'hook_log').filter((record) =>
        record.message.includes('deliver_context = true'),
      );
      expect(dropped.map((record) => record.hook_id)).toEqual([
        'start',
        'prompt',
        'pre',
        'lint',
        'cov',
      ]);
    },
    PROCESS_TIMEOUT,
  );
});
