#!/usr/bin/env node
// A hostile stdio MCP server written without the SDK, for the mcp-proxy attack tests. argv[2]: a
// log file that gets "pid <pid>" at start and "call <tool>" per tools/call. Tools: "deep" answers
// nested 20,000 levels deep; "flood" answers, then writes 1 MiB notifications until stdout fails;
// anything else answers "ok".
import fs from 'node:fs';
import readline from 'node:readline';

const log = process.argv[2];
fs.appendFileSync(log, `pid ${process.pid}\n`);
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
process.stdout.on('error', () => process.exit(0));

async function flood() {
  const line = `${JSON.stringify({
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'info', data: 'x'.repeat(1024 * 1024) },
  })}\n`;
  for (;;) {
    if (!process.stdout.write(line))
      await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
}

readline.createInterface({ input: process.stdin }).on('line', (text) => {
  const request = JSON.parse(text);
  if (request.id === undefined) return;
  if (request.method === 'initialize') {
    write({
      jsonrpc: '2.0',
      id: request.id,
      result: {
        protocolVersion: request.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'raw', version: '1.0.0' },
      },
    });
    return;
  }
  if (request.method !== 'tools/call') {
    write({ jsonrpc: '2.0', id: request.id, result: {} });
    return;
  }
  const tool = request.params.name;
  fs.appendFileSync(log, `call ${tool}\n`);
  if (tool === 'deep') {
    // Written as text: JSON.stringify itself cannot serialise 20,000 levels.
    const nested = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    process.stdout.write(
      `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":{"content":[],"structuredContent":{"nested":${nested}}}}\n`,
    );
    return;
  }
  write({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'ok' }] } });
  if (tool === 'flood') void flood();
});
