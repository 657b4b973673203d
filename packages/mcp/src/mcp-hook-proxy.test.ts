import fs from 'node:fs';
import path from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { eventually, isAlive, writeHooksJson } from '@soong-agent/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { McpProxyError } from './index.js';
import { MCP_MAX_MESSAGE_DEPTH } from './mcp-hook-proxy.js';
import {
  cleanUp,
  connectThroughProxy,
  deny,
  guardSaw,
  rawClient,
  rawThroughProxy,
  readPid,
  sessionRecords,
  setup,
  setupBlockingHook,
  startProxy,
  transcriptGuardHook,
} from './test-helpers/proxy-setup.js';

const TIMEOUT = 120_000;
afterEach(cleanUp);

const idOf = (message: JSONRPCMessage) => (message as { id?: unknown }).id;

describe('createMcpHookProxy', () => {
  it(
    'passes tools/list through, returns an allowed call and denies a matched one before the server sees it, with the official SDK on both sides',
    async () => {
      const where = setup({
        PreToolUse: [
          {
            matcher: { tool: 'mcp__test-notes__write_note' },
            hooks: [{ name: 'no-notes', type: 'command', command: deny('notes are read-only') }],
          },
        ],
      });
      const { proxy, client, calls } = await connectThroughProxy(where);
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['echo', 'wait', 'write_note']);
      expect(proxy.name).toBe('test-notes');
      expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
        content: [{ type: 'text', text: 'echo: hi' }],
      });
      expect(
        await client.callTool({ name: 'write_note', arguments: { path: 'a.txt', text: 'x' } }),
      ).toEqual({
        content: [{ type: 'text', text: 'denied by hook no-notes: notes are read-only' }],
        isError: true,
      });
      expect(calls).toEqual(['echo hi']);
      expect(fs.existsSync(path.join(where.projectDir, 'a.txt'))).toBe(false);
      await client.close();
      await proxy.closed;
      expect(proxy.endReason).toBe('client_closed');
      const records = sessionRecords(where.home);
      expect(records.map((record) => record.type)).toEqual([
        'session_started',
        'config_loaded',
        'tool_started',
        'tool_finished',
        'tool_started',
        'hook_started',
        'hook_finished',
        'hook_denied',
        'tool_denied',
        'loop_ended',
      ]);
      expect(records.filter((record) => record.type === 'tool_started')).toMatchObject([
        { tool: 'mcp__test-notes__echo', risk: 'dangerous', input: { text: 'hi' } },
        { tool: 'mcp__test-notes__write_note', risk: 'dangerous' },
      ]);
    },
    TIMEOUT,
  );

  it(
    'takes the risk class from [mcp.<NAME>] and the paths from the arguments for PostToolUse when named with the name option',
    async () => {
      const where = setup();
      const post = path.join(where.root, 'post.jsonl');
      writeHooksJson(where.home, {
        PostToolUse: [{ hooks: [{ type: 'command', command: `cat >> '${post}'` }] }],
      });
      fs.writeFileSync(
        path.join(where.home, 'config.toml'),
        '[mcp.notes]\nrisk = "write"\n[mcp.notes.tools.echo]\nrisk = "readonly"\n',
        { mode: 0o600 },
      );
      const { proxy, client } = await connectThroughProxy(where, { name: 'notes' });
      await client.callTool({ name: 'write_note', arguments: { path: 'in.txt', text: 'fine' } });
      await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      await client.close();
      await proxy.closed;
      const seen = fs
        .readFileSync(post, 'utf8')
        .replace(/}\s*{/g, '}\n{')
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(seen).toMatchObject([
        {
          tool: {
            name: 'mcp__notes__write_note',
            risk: 'write',
            paths: [path.join(where.projectDir, 'in.txt')],
          },
          result: { is_error: false, content: 'wrote in.txt' },
        },
        { tool: { name: 'mcp__notes__echo', risk: 'readonly' } },
      ]);
    },
    TIMEOUT,
  );

  it(
    'gives a claude-code hook a transcript_path that exists and shows the call and the results before it',
    async () => {
      const where = setup();
      const seen = path.join(where.root, 'seen.jsonl');
      writeHooksJson(where.home, {
        PreToolUse: [
          {
            hooks: [transcriptGuardHook(seen, 'cc-guard')],
          },
        ],
      });
      const { proxy, client, calls } = await connectThroughProxy(where);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'one' } })).toEqual({
        content: [{ type: 'text', text: 'echo: one' }],
      });
      expect(await client.callTool({ name: 'echo', arguments: { text: 'two' } })).toEqual({
        content: [{ type: 'text', text: 'echo: two' }],
      });
      expect(calls).toEqual(['echo one', 'echo two']);
      expect(guardSaw(seen)).toEqual([
        { tool: 'mcp__test-notes__echo', results: 0 },
        { tool: 'mcp__test-notes__echo', results: 1 },
      ]);
      await client.close();
      await proxy.closed;
    },
    TIMEOUT,
  );

  it(
    'answers a server named constructor and a tool named toString (no prototype-keyed lookups)',
    async () => {
      const where = setup({}, '[mcp.other]\nrisk = "readonly"\n');
      const { proxy, client } = await connectThroughProxy(where, { serverName: 'constructor' });
      expect(await client.callTool({ name: 'echo', arguments: { text: 'c' } })).toEqual({
        content: [{ type: 'text', text: 'echo: c' }],
      });
      expect(proxy.name).toBe('constructor');
      await client.close();
      await proxy.closed;
      expect(
        sessionRecords(where.home).filter((record) => record.type === 'tool_started'),
      ).toMatchObject([{ tool: 'mcp__constructor__echo', risk: 'dangerous' }]);
    },
    TIMEOUT,
  );

  it(
    'answers a tools/call notification and one with a non-string name itself and never forwards them',
    async () => {
      const { proxy, client, upstream } = await rawThroughProxy(setup());
      await client.send({
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'notification' } },
      });
      const noId = await client.next(
        (message) => 'error' in message && idOf(message) === undefined,
      );
      expect(noId).toMatchObject({ error: { code: -32600 } });
      await client.send({ id: 7, method: 'tools/call', params: { name: 42, arguments: {} } });
      expect(await client.answerTo(7)).toMatchObject({ error: { code: -32602 } });
      await client.send({ id: 8, method: 'tools/call', params: { name: 'echo', arguments: 'x' } });
      expect(await client.answerTo(8)).toMatchObject({ error: { code: -32602 } });
      // The queue still works, and the server saw only this call.
      await client.send({
        id: 9,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'ok' } },
      });
      expect(await client.answerTo(9)).toMatchObject({
        result: { content: [{ type: 'text', text: 'echo: ok' }] },
      });
      expect(upstream.calls).toEqual(['echo ok']);
      await proxy.close();
    },
    TIMEOUT,
  );

  it(
    'never forwards nor answers a call cancelled while it waits behind another call’s hook',
    async () => {
      const { where, pidFile, go } = setupBlockingHook({ tool: 'mcp__test-notes__echo' });
      const { proxy, client, upstream } = await rawThroughProxy(where);
      await client.send({
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'first' } },
      });
      await client.send({
        id: 2,
        method: 'tools/call',
        params: { name: 'write_note', arguments: { path: 'queued.txt', text: 'x' } },
      });
      expect(await eventually(() => fs.existsSync(pidFile))).toBe(true);
      await client.send({
        method: 'notifications/cancelled',
        params: { requestId: 2, reason: 'changed my mind' },
      });
      fs.writeFileSync(go, '');
      expect(await client.answerTo(1)).toMatchObject({
        result: { content: [{ text: 'echo: first' }] },
      });
      // A later call runs after the cancelled one's turn: by then it would have reached the server.
      await client.send({
        id: 3,
        method: 'tools/call',
        params: { name: 'write_note', arguments: { path: 'later.txt', text: 'y' } },
      });
      expect(await client.answerTo(3)).toMatchObject({
        result: { content: [{ text: 'wrote later.txt' }] },
      });
      expect(upstream.calls).toEqual(['echo first', 'write_note later.txt']);
      expect(fs.existsSync(path.join(where.projectDir, 'queued.txt'))).toBe(false);
      expect(client.received.filter((message) => idOf(message) === 2)).toEqual([]);
      await proxy.close();
    },
    TIMEOUT,
  );

  it(
    'fails the pending call, kills the hook and ends when the server exits while a PreToolUse hook runs',
    async () => {
      const { where, pidFile, go } = setupBlockingHook();
      const { proxy, client, upstream } = await rawThroughProxy(where);
      await client.send({
        id: 1,
        method: 'tools/call',
        params: { name: 'write_note', arguments: { path: 'late.txt', text: 'x' } },
      });
      await client.send({
        id: 2,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'queued' } },
      });
      expect(await eventually(() => fs.existsSync(pidFile))).toBe(true);
      const hookPid = readPid(pidFile);
      await upstream.server.close();
      const ended = await proxy.closed.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(ended).toBeInstanceOf(McpProxyError);
      expect(ended).toMatchObject({ code: 'UPSTREAM_CLOSED' });
      expect(proxy.endReason).toBe('upstream_closed');
      expect(await eventually(() => !isAlive(hookPid))).toBe(true);
      // Allowing the hook now changes nothing: nothing is forwarded afterwards.
      fs.writeFileSync(go, '');
      for (const id of [1, 2]) {
        expect(client.received.find((message) => idOf(message) === id)).toMatchObject({
          result: { isError: true, content: [{ text: expect.stringContaining('exited') }] },
        });
      }
      expect(upstream.calls).toEqual([]);
      expect(fs.existsSync(path.join(where.projectDir, 'late.txt'))).toBe(false);
      expect(sessionRecords(where.home).at(-1)).toMatchObject({
        type: 'loop_ended',
        reason: 'error',
      });
    },
    TIMEOUT,
  );

  it(
    'kills the hook, forwards nothing and ends when the client leaves while a PreToolUse hook runs',
    async () => {
      const { where, pidFile, go } = setupBlockingHook();
      const { proxy, client, clientSide, upstream } = await rawThroughProxy(where);
      let serverClosed = false;
      upstream.server.server.onclose = () => {
        serverClosed = true;
      };
      await client.send({
        id: 1,
        method: 'tools/call',
        params: { name: 'write_note', arguments: { path: 'late.txt', text: 'x' } },
      });
      expect(await eventually(() => fs.existsSync(pidFile))).toBe(true);
      const hookPid = readPid(pidFile);
      await clientSide.close();
      await proxy.closed;
      expect(proxy.endReason).toBe('client_closed');
      expect(await eventually(() => !isAlive(hookPid))).toBe(true);
      fs.writeFileSync(go, '');
      expect(upstream.calls).toEqual([]);
      expect(serverClosed).toBe(true);
      expect(fs.existsSync(path.join(where.projectDir, 'late.txt'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'answers the pending calls with an error, kills the hook and forwards nothing when the host calls close()',
    async () => {
      const { where, pidFile, go } = setupBlockingHook();
      const { proxy, client, upstream } = await rawThroughProxy(where);
      for (const id of [1, 2]) {
        await client.send({
          id,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: `call ${id}` } },
        });
      }
      expect(await eventually(() => fs.existsSync(pidFile))).toBe(true);
      const hookPid = readPid(pidFile);
      await proxy.close();
      expect(proxy.endReason).toBe('closed');
      expect(await eventually(() => !isAlive(hookPid))).toBe(true);
      fs.writeFileSync(go, '');
      for (const id of [1, 2]) {
        expect(client.received.find((message) => idOf(message) === id)).toMatchObject({
          result: { isError: true, content: [{ text: expect.stringContaining('session ended') }] },
        });
      }
      expect(upstream.calls).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'answers with an error and stays up when the server answers nested 20,000 levels deep',
    async () => {
      const where = setup();
      const { proxy, clientSide, serverSide } = await startProxy(where, { name: 'deep' });
      // A raw upstream: answers every request, tools/call "deep" with a 20,000-deep result.
      serverSide.onmessage = (message) => {
        const request = message as { id?: number; method?: string; params?: { name?: string } };
        if (request.id === undefined) return;
        let result: Record<string, unknown> = {};
        if (request.method === 'tools/call' && request.params?.name === 'deep') {
          let nested: unknown = 'bottom';
          for (let level = 0; level < 20_000; level++) nested = [nested];
          result = { content: [{ type: 'text', text: '' }], structuredContent: { nested } };
        } else if (request.method === 'tools/call') {
          result = { content: [{ type: 'text', text: 'shallow' }] };
        }
        void serverSide.send({ jsonrpc: '2.0', id: request.id, result } as JSONRPCMessage);
      };
      await serverSide.start();
      const client = await rawClient(clientSide);
      await client.send({ id: 1, method: 'tools/call', params: { name: 'deep', arguments: {} } });
      expect(await client.answerTo(1)).toMatchObject({
        result: {
          isError: true,
          content: [{ text: expect.stringContaining(`${MCP_MAX_MESSAGE_DEPTH} levels deep`) }],
        },
      });
      await client.send({ id: 2, method: 'tools/call', params: { name: 'flat', arguments: {} } });
      expect(await client.answerTo(2)).toMatchObject({
        result: { content: [{ text: 'shallow' }] },
      });
      await proxy.close();
    },
    TIMEOUT,
  );

  it(
    'forwards a cancellation of a call in flight under the server’s id and gives that call no answer',
    async () => {
      const where = setup();
      const { proxy, client, upstream } = await rawThroughProxy(where);
      await client.send({
        id: 'w',
        method: 'tools/call',
        params: { name: 'wait', arguments: { ms: 600_000 } },
      });
      expect(await eventually(() => upstream.calls.length === 1)).toBe(true);
      await client.send({ method: 'notifications/cancelled', params: { requestId: 'w' } });
      await client.send({
        id: 'e',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'b' } },
      });
      expect(await client.answerTo('e')).toMatchObject({
        result: { content: [{ text: 'echo: b' }] },
      });
      expect(client.received.filter((message) => idOf(message) === 'w')).toEqual([]);
      await proxy.close();
      expect(
        sessionRecords(where.home).filter((record) => record.type === 'tool_finished'),
      ).toMatchObject([
        { tool: 'mcp__test-notes__wait', is_error: true },
        { tool: 'mcp__test-notes__echo', is_error: false },
      ]);
    },
    TIMEOUT,
  );

  it(
    'refuses a path it cannot resolve the way a server would and expands ~/ for path matchers',
    async () => {
      const where = setup({
        PreToolUse: [
          {
            matcher: { path_prefix: path.join(process.env.HOME ?? '/', 'app', 'secrets') },
            hooks: [{ name: 'secrets', type: 'command', command: deny('no secrets') }],
          },
        ],
      });
      const { proxy, client, calls } = await connectThroughProxy(where);
      const home = await client.callTool({
        name: 'write_note',
        arguments: { path: '~/app/secrets/key.txt', text: 'x' },
      });
      expect(home).toMatchObject({
        isError: true,
        content: [{ text: 'denied by hook secrets: no secrets' }],
      });
      const other = await client.callTool({
        name: 'write_note',
        arguments: { path: '~root/app/secrets/key.txt', text: 'x' },
      });
      expect(other).toMatchObject({
        isError: true,
        content: [
          { text: expect.stringContaining('cannot tell which file "~root/app/secrets/key.txt"') },
        ],
      });
      expect(calls).toEqual([]);
      await proxy.close();
    },
    TIMEOUT,
  );

  it(
    'rejects with the config error and starts neither transport when hooks.json is broken',
    async () => {
      const where = setup();
      fs.writeFileSync(
        path.join(where.home, 'hooks.json'),
        '{"version": 1, "hooks": {"PreToolUs": []}}',
        {
          mode: 0o600,
        },
      );
      await expect(startProxy(where)).rejects.toMatchObject({ name: 'ConfigError' });
      expect(fs.existsSync(path.join(where.home, 'sessions'))).toBe(false);
    },
    TIMEOUT,
  );
});
