import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpHookProxy } from './index.js';
import { cleanUp, deny, notesServer, sessionRecords, setup } from './test-helpers/proxy-setup.js';

const TIMEOUT = 120_000;
const servers: http.Server[] = [];
afterEach(async () => {
  await cleanUp();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A local HTTP server on 127.0.0.1 handing every request to one streamable HTTP transport. */
async function serveHttp(transport: StreamableHTTPServerTransport): Promise<URL> {
  const server = http.createServer((request, response) => {
    void transport.handleRequest(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

/**
 * The notes server behind a local HTTP server, the proxy between it and a second one, and an
 * official SDK client of the proxy over HTTP (the upstream's server is the first in `servers`).
 */
async function connectOverHttp(where: { home: string; projectDir: string }) {
  const upstream = notesServer(where.projectDir);
  const serverTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID });
  await upstream.server.connect(serverTransport);
  const serverUrl = await serveHttp(serverTransport);
  const downstream = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID });
  const proxyUrl = await serveHttp(downstream);
  const proxy = await createMcpHookProxy({
    upstream: new StreamableHTTPClientTransport(serverUrl),
    downstream,
    projectDir: where.projectDir,
    home: where.home,
  });
  const client = new Client({ name: 'http-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(proxyUrl));
  return { upstream, proxy, client };
}

describe('createMcpHookProxy over streamable HTTP', () => {
  it(
    'guards a server reached over HTTP for a client that reaches the proxy over HTTP',
    async () => {
      const where = setup({
        PreToolUse: [
          {
            matcher: { tool: 'mcp__test-notes__write_note' },
            hooks: [{ name: 'ro', type: 'command', command: deny('read-only') }],
          },
        ],
      });
      const { upstream, proxy, client } = await connectOverHttp(where);
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['echo', 'wait', 'write_note']);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'over http' } })).toEqual({
        content: [{ type: 'text', text: 'echo: over http' }],
      });
      expect(
        await client.callTool({ name: 'write_note', arguments: { path: 'x.txt', text: 'x' } }),
      ).toEqual({
        content: [{ type: 'text', text: 'denied by hook ro: read-only' }],
        isError: true,
      });
      expect(upstream.calls).toEqual(['echo over http']);
      expect(fs.existsSync(path.join(where.projectDir, 'x.txt'))).toBe(false);
      await client.close();
      await proxy.close();
      expect(
        sessionRecords(where.home)
          .filter((record) => record.type === 'tool_started')
          .map((record) => (record as { tool: string }).tool),
      ).toEqual(['mcp__test-notes__echo', 'mcp__test-notes__write_note']);
    },
    TIMEOUT,
  );

  it(
    'fails a call with an error answer when the HTTP server behind the proxy has gone',
    async () => {
      const where = setup();
      const { proxy, client } = await connectOverHttp(where);
      const first = servers[0] as http.Server;
      first.closeAllConnections();
      await new Promise((resolve) => first.close(resolve));
      const answer = await client.callTool({ name: 'echo', arguments: { text: 'lost' } });
      expect(answer).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining('cannot reach the MCP server') }],
      });
      await client.close();
      await proxy.close();
    },
    TIMEOUT,
  );
});
