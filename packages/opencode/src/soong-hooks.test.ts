import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpencodeClient, OpencodeHooks, OpencodeMessage } from './opencode-types.js';
import { SoongHooks } from './soong-hooks.js';

// The plugin in this process with a recording SDK client: real hooks.json, real hook processes,
// real event logs; OpenCode itself is exercised in opencode.test.ts.

interface Recorded {
  logs: { level: string; message: string; extra?: Record<string, unknown> }[];
  prompts: { id: string; parts: unknown[] }[];
  messages: OpencodeMessage[];
}

function fakeClient(recorded: Recorded): OpencodeClient {
  return {
    app: {
      log: async ({ body }) => {
        recorded.logs.push(body);
        return {};
      },
    },
    session: {
      messages: async () => ({ data: recorded.messages }),
      promptAsync: async ({ path: where, body }) => {
        recorded.prompts.push({ id: where.id, parts: body.parts });
        return {};
      },
    },
    config: { get: async () => ({ data: { mcp: {} } }) },
  };
}

let home: string;
let project: string;
let previousHome: string | undefined;
beforeEach(() => {
  home = makeTempDir();
  project = makeTempDir();
  previousHome = process.env.SOONG_AGENT_HOME;
  process.env.SOONG_AGENT_HOME = home;
});
afterEach(() => {
  if (previousHome === undefined) delete process.env.SOONG_AGENT_HOME;
  else process.env.SOONG_AGENT_HOME = previousHome;
});

function writeHooks(hooks: Record<string, unknown[]>): void {
  fs.writeFileSync(path.join(home, 'hooks.json'), JSON.stringify({ version: 1, hooks }, null, 2));
}

async function load(): Promise<{ hooks: OpencodeHooks; recorded: Recorded }> {
  const recorded: Recorded = { logs: [], prompts: [], messages: [] };
  const hooks = await SoongHooks({
    client: fakeClient(recorded),
    directory: project,
    worktree: project,
  });
  return { hooks, recorded };
}

const before = (hooks: OpencodeHooks, callID: string, args: unknown, tool = 'bash') =>
  (hooks['tool.execute.before'] as NonNullable<OpencodeHooks['tool.execute.before']>)(
    { tool, sessionID: 'ses_1', callID },
    { args },
  );

function records(): { type: string; [key: string]: unknown }[] {
  const sessions = path.join(home, 'sessions');
  const [id] = fs.readdirSync(sessions);
  return fs
    .readFileSync(path.join(sessions, id as string, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('SoongHooks', () => {
  it('loads with a broken hooks.json and stops each tool call with the error and its place, until the file is fixed', async () => {
    fs.writeFileSync(path.join(home, 'hooks.json'), '{\n  "version": 1,\n    hooks: {}\n}\n');
    const { hooks, recorded } = await load();
    expect(recorded.logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: expect.stringMatching(/hooks\.json:3:5/),
      }),
    );
    // The conversation goes on (a user prompt is not refused), only tools stop.
    await hooks['chat.message']?.(
      { sessionID: 'ses_1' },
      { message: { id: 'm1', sessionID: 'ses_1' }, parts: [{ type: 'text', text: 'hi' }] },
    );
    await expect(before(hooks, 'c1', { command: 'ls' })).rejects.toThrow(
      /soong-agent hooks could not load, so no tool runs until this is fixed: .*hooks\.json:3:5/,
    );
    writeHooks({});
    await expect(before(hooks, 'c2', { command: 'ls' })).resolves.toBeUndefined();
    await hooks.dispose?.();
  });

  it("says in OpenCode's log how many hooks are active and where the event logs are", async () => {
    writeHooks({
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: 'true' },
            { type: 'command', command: 'true' },
          ],
        },
      ],
    });
    const { hooks, recorded } = await load();
    expect(recorded.logs[0]).toMatchObject({ level: 'info' });
    expect(recorded.logs[0]?.message).toContain('2 hooks in 1 rule active from');
    expect(recorded.logs[0]?.message).toContain(path.join(home, 'sessions'));
    await hooks.dispose?.();
  });

  it("throws a deny's reason from tool.execute.before, skips the rest of the step and lets the next step's call through to PostToolUse", async () => {
    const seen = path.join(home, 'post.json');
    writeHooks({
      PreToolUse: [
        {
          matcher: { tool: ['bash'] },
          hooks: [
            {
              type: 'command',
              command: `grep -q 'rm -rf' && echo '{"decision":"deny","reason":"no rm -rf"}' || true`,
            },
          ],
        },
      ],
      PostToolUse: [{ hooks: [{ type: 'command', command: `cat > '${seen}'` }] }],
    });
    const { hooks } = await load();
    await hooks.event?.({
      event: { type: 'session.created', properties: { sessionID: 'ses_1', info: { id: 'ses_1' } } },
    });
    await expect(before(hooks, 'c1', { command: 'rm -rf ./victim' })).rejects.toThrow('no rm -rf');
    // The rest of that model step is skipped (spec §4); the next request is a new step.
    await expect(before(hooks, 'c1b', { command: 'echo skipped' })).rejects.toThrow(
      /earlier tool call/,
    );
    await hooks['chat.params']?.({ sessionID: 'ses_1' }, {});
    await before(hooks, 'c2', { command: 'echo hi', timeout: 2000 });
    const output = { title: '', output: 'hi\n', metadata: {} };
    await hooks['tool.execute.after']?.(
      { tool: 'bash', sessionID: 'ses_1', callID: 'c2', args: {} },
      output,
    );
    expect(output.output).toBe('hi\n');
    expect(JSON.parse(fs.readFileSync(seen, 'utf8'))).toMatchObject({
      event: 'PostToolUse',
      tool: { name: 'bash', input: { command: 'echo hi', timeout: 2 } },
      result: { content: 'hi\n', is_error: false },
    });
    await hooks.dispose?.();
    const types = records().map((record) => record.type);
    expect(types).toContain('tool_denied');
    expect(types.filter((type) => type === 'tool_finished')).toHaveLength(1);
  });

  it('records a failed tool (no tool.execute.after) from its error part', async () => {
    writeHooks({});
    const { hooks } = await load();
    await before(hooks, 'c1', { filePath: 'missing.txt' }, 'read');
    await hooks.event?.({
      event: {
        type: 'message.part.updated',
        properties: {
          part: {
            type: 'tool',
            tool: 'read',
            callID: 'c1',
            sessionID: 'ses_1',
            state: { status: 'error', error: 'File not found' },
          },
        },
      },
    });
    await hooks.dispose?.();
    expect(records()).toContainEqual(
      expect.objectContaining({ type: 'tool_finished', is_error: true }),
    );
  });

  it("prompts the session once more when a Stop hook prevents the stop, and does not count that prompt as the user's", async () => {
    const marker = path.join(home, 'stopped');
    writeHooks({
      Stop: [
        {
          hooks: [
            {
              type: 'command',
              command: `cat > /dev/null; [ -e '${marker}' ] && exit 0; touch '${marker}'; echo '{"decision":"deny","reason":"run the tests first"}'`,
            },
          ],
        },
      ],
    });
    const { hooks, recorded } = await load();
    await hooks['chat.message']?.(
      { sessionID: 'ses_1' },
      { message: { id: 'm1', sessionID: 'ses_1' }, parts: [{ type: 'text', text: 'fix it' }] },
    );
    recorded.messages.push({
      info: { id: 'm2', role: 'assistant', sessionID: 'ses_1' },
      parts: [{ type: 'text', text: 'fixed' }],
    });
    await hooks.event?.({ event: { type: 'session.idle', properties: { sessionID: 'ses_1' } } });
    expect(recorded.prompts).toHaveLength(1);
    const part = recorded.prompts[0]?.parts[0] as { text: string; synthetic: boolean };
    expect(part.synthetic).toBe(true);
    expect(part.text).toContain('run the tests first');
    await hooks['chat.message']?.(
      { sessionID: 'ses_1' },
      {
        message: { id: 'm3', sessionID: 'ses_1' },
        parts: [{ type: 'text', text: part.text, synthetic: true }],
      },
    );
    await hooks.event?.({ event: { type: 'session.idle', properties: { sessionID: 'ses_1' } } });
    expect(recorded.prompts).toHaveLength(1);
    await hooks.dispose?.();
    const types = records().map((record) => record.type);
    expect(types.filter((type) => type === 'user_prompt_submitted')).toHaveLength(1);
    expect(types).toContain('stop_hook_prevented');
    expect(types.at(-1)).toBe('loop_ended');
  });
});
