import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readEventLog } from '@soong-agent/loop-adapter';
import type { EventRecord } from '@soong-agent/protocol';
import { makeAgentWorkspace, writeHooksJson } from '@soong-agent/test-utils';
import { z } from 'zod';
import { createMcpHookProxy, type McpHookProxy } from '../index.js';

const proxies: McpHookProxy[] = [];

/** Closes the proxies of a test (call in afterEach; the temp dirs go after it). */
export async function cleanUp(): Promise<void> {
  for (const proxy of proxies.splice(0)) await proxy.close();
}

/** A project dir and an agent home with the given hooks.json `hooks` (and config.toml). */
export function setup(hooks: Record<string, unknown> = {}, configToml = '') {
  const { root, home, projectDir } = makeAgentWorkspace({
    prefix: 'soong-mcp-',
    hooks,
    ...(configToml === '' ? {} : { configToml }),
  });
  return { root, home, projectDir };
}

const TRANSCRIPT_GUARD = fileURLToPath(
  new URL('../__fixtures__/transcript-guard.cjs', import.meta.url),
);

/**
 * A claude-code PreToolUse hook that blocks unless its transcript_path exists and shows the call;
 * it appends `{"tool", "results"}` (the results in the transcript before the call) to `seen`.
 */
export function transcriptGuardHook(seen: string, name?: string) {
  return {
    ...(name === undefined ? {} : { name }),
    type: 'command',
    command: `node '${TRANSCRIPT_GUARD}' '${seen}'`,
    protocol: 'claude-code',
  };
}

/** What the transcript guard appended to `seen`, one object per call it checked. */
export function guardSaw(seen: string): { tool: string; results: number }[] {
  return fs
    .readFileSync(seen, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** A PreToolUse hook that writes its pid to `pidFile` and waits until `go` exists (then allows). */
export function blockingHook(pidFile: string, go: string) {
  return {
    type: 'command',
    command: `echo $$ > '${pidFile}'; while [ ! -e '${go}' ]; do sleep 0.02; done; echo '{}'`,
  };
}

/**
 * A project whose PreToolUse hook blocks (see blockingHook) until `go` exists; `matcher`, when
 * given, limits it to the calls it matches.
 */
export function setupBlockingHook(matcher?: Record<string, unknown>) {
  const where = setup();
  const pidFile = path.join(where.root, 'hook.pid');
  const go = path.join(where.root, 'go');
  const rule = {
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [blockingHook(pidFile, go)],
  };
  writeHooksJson(where.home, { PreToolUse: [rule] });
  return { where, pidFile, go };
}

export function readPid(file: string): number {
  return Number(fs.readFileSync(file, 'utf8').trim());
}

/** A real upstream: the SDK's McpServer with echo, write_note and wait; `calls` is its side. */
export function notesServer(projectDir: string, name = 'test-notes') {
  const calls: string[] = [];
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'echo text', inputSchema: { text: z.string() } },
    async (args) => {
      calls.push(`echo ${args.text}`);
      return { content: [{ type: 'text', text: `echo: ${args.text}` }] };
    },
  );
  server.registerTool(
    'write_note',
    { description: 'write a note', inputSchema: { path: z.string(), text: z.string() } },
    async (args) => {
      calls.push(`write_note ${args.path}`);
      fs.writeFileSync(path.resolve(projectDir, args.path), args.text);
      return { content: [{ type: 'text', text: `wrote ${args.path}` }] };
    },
  );
  server.registerTool(
    'wait',
    { description: 'answer after ms milliseconds', inputSchema: { ms: z.number() } },
    async (args, extra) => {
      calls.push(`wait ${args.ms}`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, args.ms);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
      return { content: [{ type: 'text', text: `waited ${args.ms}` }] };
    },
  );
  return { server, calls };
}

/** The proxy between an in-memory client side and an in-memory upstream side. */
export async function startProxy(
  where: { home: string; projectDir: string },
  options: { name?: string; warnings?: string[] } = {},
) {
  const [clientSide, proxyDown] = InMemoryTransport.createLinkedPair();
  const [proxyUp, serverSide] = InMemoryTransport.createLinkedPair();
  const proxy = await createMcpHookProxy({
    upstream: proxyUp,
    downstream: proxyDown,
    projectDir: where.projectDir,
    home: where.home,
    ...(options.name === undefined ? {} : { name: options.name }),
    onWarning: (message) => options.warnings?.push(message),
  });
  proxies.push(proxy);
  return { proxy, clientSide, serverSide };
}

/** An official SDK client and a real McpServer upstream, with the proxy between them. */
export async function connectThroughProxy(
  where: { home: string; projectDir: string },
  options: { name?: string; serverName?: string } = {},
) {
  const upstream = notesServer(where.projectDir, options.serverName);
  const { proxy, clientSide, serverSide } = await startProxy(where, options);
  await upstream.server.connect(serverSide);
  const client = new Client({ name: 'soong-test-client', version: '1.0.0' });
  await client.connect(clientSide);
  return { proxy, client, calls: upstream.calls, server: upstream.server };
}

/** The notes server upstream and a raw JSON-RPC client (initialized), with the proxy between them. */
export async function rawThroughProxy(where: { home: string; projectDir: string }) {
  const upstream = notesServer(where.projectDir);
  const { proxy, clientSide, serverSide } = await startProxy(where);
  await upstream.server.connect(serverSide);
  const client = await rawClient(clientSide);
  await client.initialize();
  return { proxy, client, clientSide, upstream };
}

/** A client speaking raw JSON-RPC to the proxy: what it sends is not checked by any SDK. */
export async function rawClient(clientSide: InMemoryTransport) {
  const received: JSONRPCMessage[] = [];
  const waiters: (() => void)[] = [];
  clientSide.onmessage = (message) => {
    received.push(message);
    for (const wake of waiters.splice(0)) wake();
  };
  await clientSide.start();
  let initialized = false;
  const client = {
    received,
    send: (message: Record<string, unknown>) =>
      clientSide.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage),
    /** Resolves with the first received message matching `predicate`. */
    async next(predicate: (message: JSONRPCMessage) => boolean): Promise<JSONRPCMessage> {
      for (;;) {
        const found = received.find(predicate);
        if (found !== undefined) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    answerTo: (id: string | number) =>
      client.next((message) => (message as { id?: unknown }).id === id),
    async initialize() {
      if (initialized) return;
      initialized = true;
      await client.send({
        id: 'init',
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      await client.answerTo('init');
      await client.send({ method: 'notifications/initialized' });
    },
  };
  return client;
}

/** The records of the one session under `home`. */
export function sessionRecords(home: string): EventRecord[] {
  const sessions = fs.readdirSync(path.join(home, 'sessions'));
  if (sessions.length !== 1) throw new Error(`expected one session, found ${sessions.length}`);
  return readEventLog(path.join(home, 'sessions', sessions[0] as string, 'events.jsonl')).records;
}

export const deny = (reason: string) => `echo '{"decision":"deny","reason":"${reason}"}'`;
