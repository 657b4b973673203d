// A consumer of @soong-agent/mcp installed from packed tarballs: the official MCP SDK client calls
// an in-process McpServer through the proxy (in-memory transports on both sides); a hook denies
// one tool, the other passes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpHookProxy } from '@soong-agent/mcp';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-pack-mcp-'));
const home = path.join(root, 'home');
fs.mkdirSync(home, { mode: 0o700 });
const deny = `echo '{"decision":"deny","reason":"not here"}'`;
fs.writeFileSync(
  path.join(home, 'hooks.json'),
  JSON.stringify({
    version: 1,
    hooks: {
      PreToolUse: [
        { matcher: { tool: 'mcp__pack__wipe' }, hooks: [{ type: 'command', command: deny }] },
      ],
    },
  }),
  { mode: 0o600 },
);
const ran: string[] = [];
const server = new McpServer({ name: 'pack', version: '1.0.0' });
for (const name of ['ping', 'wipe']) {
  server.registerTool(name, { description: name }, async () => {
    ran.push(name);
    return { content: [{ type: 'text', text: `${name} done` }] };
  });
}
const [clientSide, downstream] = InMemoryTransport.createLinkedPair();
const [upstream, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const proxy = await createMcpHookProxy({ upstream, downstream, projectDir: root, home });
const client = new Client({ name: 'pack-check', version: '1.0.0' });
await client.connect(clientSide);
const ping = await client.callTool({ name: 'ping', arguments: {} });
const wipe = await client.callTool({ name: 'wipe', arguments: {} });
await client.close();
await proxy.closed;
if (ran.join() !== 'ping' || ping.isError || wipe.isError !== true) {
  throw new Error(JSON.stringify({ ran, ping, wipe }));
}
fs.rmSync(root, { recursive: true, force: true });
console.log('ok @soong-agent/mcp');
