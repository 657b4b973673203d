// The extension driven in process the way pi's extension runner calls it (one handler per event,
// awaited), for cases a scripted real-pi run makes slow to reach; hooks run for real. The contract
// with pi itself is tested against the real pi in pi-extension.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PiCustomMessage, PiExtensionAPI, PiExtensionContext } from './pi-types.js';
import { createSoongHooks } from './soong-hooks.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

type Handler = (event: unknown, ctx: PiExtensionContext) => unknown;

/** The extension on pi's API shape, in a temp project and agent home with `hooks`. */
async function start(hooks: unknown, configToml?: string) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'soong-pi-ext-')));
  roots.push(root);
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(project);
  const hooksFile = path.join(home, 'hooks.json');
  fs.writeFileSync(hooksFile, typeof hooks === 'string' ? hooks : JSON.stringify(hooks));
  if (configToml !== undefined) fs.writeFileSync(path.join(home, 'config.toml'), configToml);
  const handlers = new Map<string, Handler>();
  const sent: { message: PiCustomMessage; options: unknown }[] = [];
  const said: string[] = [];
  const pi = {
    on: (event: string, handler: Handler) => handlers.set(event, handler),
    sendMessage: (message: PiCustomMessage, options?: unknown) => sent.push({ message, options }),
  } as unknown as PiExtensionAPI;
  let idle = false;
  const ctx: PiExtensionContext = {
    cwd: project,
    hasUI: true,
    ui: { notify: (text) => said.push(text), setStatus: () => {} },
    isIdle: () => idle,
  };
  createSoongHooks({ home, protectEnvironment: false })(pi);
  const emit = async (event: string, payload: object = {}) =>
    handlers.get(event)?.({ type: event, ...payload }, ctx);
  await emit('session_start', { reason: 'startup' });
  const records = () => {
    const sessions = path.join(home, 'sessions');
    return fs.readdirSync(sessions).flatMap((id) =>
      fs
        .readFileSync(path.join(sessions, id, 'events.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown }),
    );
  };
  const call = (id: string, toolName: string, input: Record<string, unknown>) =>
    emit('tool_call', { toolCallId: id, toolName, input });
  const result = (id: string, toolName: string, text: string, extra: object = {}) =>
    emit('tool_result', {
      toolCallId: id,
      toolName,
      input: {},
      content: [{ type: 'text', text }],
      isError: false,
      ...extra,
    });
  return {
    root,
    home,
    project,
    hooksFile,
    emit,
    call,
    result,
    sent,
    said,
    records,
    setIdle: (value: boolean) => {
      idle = value;
    },
  };
}

const deny = (reason: string) => `echo '{"decision":"deny","reason":"${reason}"}'`;

describe('createSoongHooks', () => {
  it("guards pi's write with a path_prefix rule on the path resolved in the project", async () => {
    const pi = await start({
      version: 1,
      hooks: {
        PreToolUse: [
          {
            matcher: { tool: ['write_file', 'edit_file'], path_prefix: 'secrets' },
            hooks: [{ type: 'command', command: deny('secrets are read-only') }],
          },
        ],
      },
    });

    const sneaky = await pi.call('w1', 'write', { path: 'notes/../secrets/key', content: 'x' });
    await pi.emit('turn_start', { turnIndex: 1, timestamp: 0 });
    const fine = await pi.call('w2', 'write', { path: 'notes/todo.md', content: 'x' });

    expect(sneaky).toEqual({
      block: true,
      reason: 'denied by hook PreToolUse[0][0]: secrets are read-only',
    });
    expect(fine).toBeUndefined();
    await pi.emit('session_shutdown', { reason: 'quit' });
  });

  it('skips the rest of a model step after a dangerous denial, and runs the next step', async () => {
    const pi = await start({
      version: 1,
      hooks: {
        PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: deny('no') }] }],
      },
    });

    const denied = await pi.call('a', 'bash', { command: 'make clean' });
    const skipped = await pi.call('b', 'read', { path: 'README.md' });
    await pi.emit('turn_start', { turnIndex: 1, timestamp: 0 });
    const next = await pi.call('c', 'read', { path: 'README.md' });

    expect(denied).toMatchObject({ block: true });
    expect(skipped).toMatchObject({ block: true, reason: expect.stringContaining('not executed') });
    expect(next).toBeUndefined();
    await pi.emit('session_shutdown', { reason: 'quit' });
    expect(pi.records()).toContainEqual(
      expect.objectContaining({ type: 'tool_skipped', call_id: 'b', denied_call_id: 'a' }),
    );
  });

  it('blocks tool calls while hooks.json is broken, says so once, and runs the hooks once it is fixed', async () => {
    const pi = await start('{ "version": 1, "hooks": { "PreToolUse": [ ');

    const first = await pi.call('a', 'bash', { command: 'ls' });
    const second = await pi.call('b', 'bash', { command: 'ls' });
    expect(first).toMatchObject({ block: true, reason: expect.stringContaining('hooks.json:1:') });
    expect(second).toMatchObject({ block: true });
    expect(pi.said.filter((line) => line.includes('does not load'))).toHaveLength(1);
    expect(fs.existsSync(path.join(pi.home, 'sessions'))).toBe(false);

    fs.writeFileSync(
      pi.hooksFile,
      JSON.stringify({
        version: 1,
        hooks: {
          PreToolUse: [
            { matcher: 'bash', hooks: [{ type: 'command', command: deny('now guarded') }] },
          ],
        },
      }),
    );
    const third = await pi.call('c', 'bash', { command: 'ls' });

    expect(third).toEqual({ block: true, reason: 'denied by hook PreToolUse[0][0]: now guarded' });
    expect(pi.said.some((line) => line.includes('1 hook active'))).toBe(true);
    await pi.emit('session_shutdown', { reason: 'quit' });
  });

  it('runs no Stop hook for a loop that ended in a model error, and records why it ended', async () => {
    const marker = path.join(os.tmpdir(), `soong-pi-stop-${process.pid}-${Date.now()}`);
    roots.push(marker);
    const pi = await start({
      version: 1,
      hooks: { Stop: [{ hooks: [{ type: 'command', command: `touch '${marker}'` }] }] },
    });

    await pi.emit('agent_end', {
      messages: [{ role: 'assistant', content: [], stopReason: 'error' }],
    });
    await pi.emit('session_shutdown', { reason: 'quit' });

    expect(fs.existsSync(marker)).toBe(false);
    expect(pi.records()).toContainEqual(
      expect.objectContaining({ type: 'loop_ended', reason: 'error' }),
    );
    expect(pi.sent).toEqual([]);
  });

  it('gives the model the summary and artifact path of a result over inline_result_bytes, keeping images', async () => {
    const pi = await start({ version: 1, hooks: {} }, '[hooks]\ninline_result_bytes = 64\n');
    const image = { type: 'image', data: 'aGk=', mimeType: 'image/png' };
    await pi.call('r', 'read', { path: 'big.txt' });

    const big = 'x'.repeat(100_000);
    const patched = (await pi.result('r', 'read', big, {
      content: [{ type: 'text', text: big }, image],
    })) as { content: { type: string; text?: string }[] };
    await pi.call('s', 'read', { path: 'small.txt' });
    const untouched = await pi.result('s', 'read', 'short');

    expect(patched.content[0]?.text).toContain('artifacts');
    expect(patched.content[0]?.text?.length).toBeLessThan(10_000);
    expect(patched.content[1]).toEqual(image);
    expect(untouched).toBeUndefined();
    await pi.emit('session_shutdown', { reason: 'quit' });
  });

  it('makes pi go on with the Stop reason as a follow-up user message that triggers a turn', async () => {
    const once = path.join(os.tmpdir(), `soong-pi-once-${process.pid}-${Date.now()}`);
    roots.push(once);
    const pi = await start({
      version: 1,
      hooks: {
        Stop: [
          {
            hooks: [
              {
                type: 'command',
                command: `[ -e '${once}' ] || { touch '${once}'; ${deny('tests fail')}; }`,
              },
            ],
          },
        ],
      },
    });
    await pi.emit('before_agent_start', { prompt: 'fix it' });
    // pi's loop is still running when the message arrives: it goes on (shutdown then waits for the
    // next agent_end).
    pi.setIdle(false);

    await pi.emit('agent_end', {
      messages: [
        { role: 'assistant', content: [{ type: 'text', text: 'done' }], stopReason: 'stop' },
      ],
    });
    const shutdown = pi.emit('session_shutdown', { reason: 'quit' });
    await pi.emit('agent_end', {
      messages: [
        { role: 'assistant', content: [{ type: 'text', text: 'really' }], stopReason: 'stop' },
      ],
    });
    await shutdown;

    expect(pi.sent[0]?.options).toEqual({ deliverAs: 'followUp', triggerTurn: true });
    expect(pi.sent[0]?.message.content).toContain('tests fail');
    const types = pi.records().map((record) => record.type);
    expect(types.filter((type) => type === 'stop_hook_prevented')).toHaveLength(1);
    expect(types.filter((type) => type === 'loop_ended')).toHaveLength(1);
    expect(types.indexOf('stop_hook_prevented')).toBeLessThan(types.indexOf('loop_ended'));
  });
});
