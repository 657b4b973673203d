#!/usr/bin/env node
// A small stdio MCP server for the mcp-proxy tests. argv[2]: a log file that gets "pid <pid>" at
// start and one "call <tool> <arguments JSON>" line per tools/call it receives (the upstream's side).
import fs from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const log = process.argv[2];
fs.appendFileSync(log, `pid ${process.pid}\n`);
const server = new McpServer({ name: 'test-notes', version: '1.0.0' });
const record = (tool, args) => fs.appendFileSync(log, `call ${tool} ${JSON.stringify(args)}\n`);

server.registerTool(
  'echo',
  { description: 'echo text', inputSchema: { text: z.string() } },
  async (args) => {
    record('echo', args);
    return { content: [{ type: 'text', text: `echo: ${args.text}` }] };
  },
);
server.registerTool(
  'write_note',
  { description: 'write a note', inputSchema: { path: z.string(), text: z.string() } },
  async (args) => {
    record('write_note', args);
    fs.writeFileSync(path.resolve(args.path), args.text);
    return { content: [{ type: 'text', text: `wrote ${args.path}` }] };
  },
);
server.registerTool(
  'wait',
  { description: 'answer after ms milliseconds', inputSchema: { ms: z.number() } },
  async (args) => {
    record('wait', args);
    await new Promise((resolve) => setTimeout(resolve, args.ms));
    return { content: [{ type: 'text', text: `waited ${args.ms}` }] };
  },
);
server.registerTool('crash', { description: 'exit at once' }, async () => {
  record('crash', {});
  process.stderr.write('test-notes: crashing on purpose\n');
  process.exit(3);
});
server.registerResource('readme', 'note://readme', { mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, text: 'the readme' }],
}));

await server.connect(new StdioServerTransport());
