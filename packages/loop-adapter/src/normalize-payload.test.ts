import fs from 'node:fs';
import path from 'node:path';
import type { ToolCallInfo } from '@soong-agent/protocol';
import { PreToolUseInputSchema } from '@soong-agent/protocol/internal';
import { runCommand } from '@soong-agent/runner';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { type HookEngine, LoopAdapterError } from './index.js';
import { hookCommand, setup } from './test-helpers/setup.js';

const tempDir = () => makeTempDir();
const PROCESS_TIMEOUT = 60_000;

// What a package consumer writes: no batch, no bounding, maybe sloppy values.
function directTool(overrides: Record<string, unknown> = {}): ToolCallInfo {
  return {
    name: 'write_file',
    call_id: 'call_1',
    input: { path: 'src/a.ts' },
    risk: 'write',
    tags: [],
    paths: [],
    ...overrides,
  } as ToolCallInfo;
}

function recordingEngine(root: string, matcher?: unknown) {
  const out = path.join(root, 'stdin.json');
  const built = setup(root, {
    PreToolUse: [
      { ...(matcher ? { matcher } : {}), hooks: [{ command: hookCommand('record.sh', out) }] },
    ],
  });
  const stdin = () => PreToolUseInputSchema.parse(JSON.parse(fs.readFileSync(out, 'utf8')));
  return { ...built, stdin };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return LoopAdapterError.isInstance(error) ? error.code : `not a LoopAdapterError: ${error}`;
  }
}

describe('createHookEngine', () => {
  it.each([
    ['a string', 'rm -rf /'],
    ['an array', ['a', 'b']],
    ['a number', 42],
    ['null', null],
  ])(
    'sends a non-object tool input as { value } when a direct caller passes %s',
    async (_, input) => {
      const { engine, stdin } = recordingEngine(tempDir());
      const outcome = await engine.run('PreToolUse', { tool: directTool({ input }) });
      expect(outcome.decision).toBe('allow');
      expect(stdin().tool.input).toEqual({ value: input });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'resolves relative paths against the project dir before matching when a direct caller passes them',
    async () => {
      const root = tempDir();
      const { engine, stdin, projectDir } = recordingEngine(root, { path_prefix: 'src/' });
      const outcome = await engine.run('PreToolUse', {
        tool: directTool({ paths: ['src/a.ts', './src/../src/b.ts', '/abs/c.ts'] }),
      });
      expect(outcome.decision).toBe('allow');
      expect(stdin().tool.paths).toEqual([
        path.join(projectDir, 'src/a.ts'),
        path.join(projectDir, 'src/b.ts'),
        '/abs/c.ts',
      ]);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'adds the risk class to the tags when a direct caller leaves it out',
    async () => {
      const { engine, stdin } = recordingEngine(tempDir(), { tag: 'write' });
      const outcome = await engine.run('PreToolUse', { tool: directTool({ tags: ['fs'] }) });
      expect(outcome.decision).toBe('allow');
      expect(stdin().tool.tags).toEqual(['write', 'fs']);
    },
    PROCESS_TIMEOUT,
  );

  const BAD_CALLS: [string, (engine: HookEngine) => Promise<unknown>][] = [
    ['an unknown event', (engine) => engine.run('PreToolUs' as 'Stop', {} as never)],
    ['a payload that is not an object', (engine) => engine.run('Stop', 'done' as never)],
    ['no tool on a tool event', (engine) => engine.run('PreToolUse', {} as never)],
    [
      'an empty tool name',
      (engine) => engine.run('PreToolUse', { tool: directTool({ name: '' }) }),
    ],
    [
      'a missing call id',
      (engine) => engine.run('PreToolUse', { tool: directTool({ call_id: undefined }) }),
    ],
    [
      'an unknown risk class',
      (engine) => engine.run('PreToolUse', { tool: directTool({ risk: 'safe' }) }),
    ],
    [
      'tags that are not strings',
      (engine) => engine.run('PreToolUse', { tool: directTool({ tags: [1] }) }),
    ],
    [
      'paths that are a string',
      (engine) => engine.run('PreToolUse', { tool: directTool({ paths: '/a' }) }),
    ],
    [
      'an empty callId option',
      (engine) => engine.run('PreToolUse', { tool: directTool() }, { callId: '' }),
    ],
    [
      'a PostToolUse without a result',
      (engine) => engine.run('PostToolUse', { tool: directTool(), duration_ms: 1 } as never),
    ],
    [
      'a Stop payload with a negative prevented_count',
      (engine) =>
        engine.run('Stop', {
          stop_hook_active: false,
          prevented_count: -1,
          previous_reasons: [],
          last_assistant_message: 'done',
        }),
    ],
    [
      'a prompt that is not a string',
      (engine) => engine.run('UserPromptSubmit', { prompt: 7 } as never),
    ],
  ];

  it.each(BAD_CALLS)(
    'rejects with INVALID_OPTIONS and spawns nothing when a direct caller passes %s',
    async (_, call) => {
      let runs = 0;
      const everyEvent = [{ hooks: [{ command: hookCommand('deny.sh') }] }];
      const { engine, sink } = setup(
        tempDir(),
        {
          UserPromptSubmit: everyEvent,
          PreToolUse: everyEvent,
          PostToolUse: everyEvent,
          Stop: everyEvent,
        },
        '',
        {
          runner: (options) => {
            runs++;
            return runCommand(options);
          },
        },
      );
      expect(await codeOf(call(engine))).toBe('INVALID_OPTIONS');
      expect(runs).toBe(0);
      expect(sink.records).toEqual([]);
    },
  );

  it('names the field the spec §2.1 schema rejects, as a check of the whole input would', async () => {
    const { engine } = setup(tempDir(), {
      Stop: [{ hooks: [{ command: hookCommand('deny.sh') }] }],
    });
    const error = await engine
      .run('Stop', {
        stop_hook_active: false,
        prevented_count: -1,
        previous_reasons: [],
        last_assistant_message: 'done',
      })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(LoopAdapterError.isInstance(error) && error.code).toBe('INVALID_OPTIONS');
    expect((error as Error).message).toMatch(
      /^payload of Stop is not a valid hook input \(spec §2\.1\): invalid hook input: .*prevented_count/,
    );
  });

  it('checks a PreToolUse tool the host bounded itself against the schema on every call', async () => {
    let runs = 0;
    const { engine } = setup(
      tempDir(),
      { PreToolUse: [{ hooks: [{ command: hookCommand('deny.sh') }] }] },
      '',
      {
        runner: (options) => {
          runs++;
          return runCommand(options);
        },
      },
    );
    const planted = directTool({
      input_truncated: true,
      input_artifact_ref: { path: '/etc/passwd' },
    });
    for (let call = 0; call < 3; call++) {
      expect(await codeOf(engine.run('PreToolUse', { tool: planted }))).toBe('INVALID_OPTIONS');
    }
    expect(runs).toBe(0);
  });

  it('rejects a malformed tool call also when no rule is configured for the event', async () => {
    const { engine } = setup(tempDir(), {});
    expect(await codeOf(engine.run('PreToolUse', { tool: directTool({ risk: 'safe' }) }))).toBe(
      'INVALID_OPTIONS',
    );
  });

  it('names the field, the value and the fix when it rejects a tool call', async () => {
    const { engine } = setup(tempDir(), {});
    await expect(engine.run('PreToolUse', { tool: directTool({ risk: 'safe' }) })).rejects.toThrow(
      'payload.tool.risk is "safe": use "readonly", "write" or "dangerous"',
    );
  });
});
