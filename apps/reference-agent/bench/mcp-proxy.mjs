// Added latency of `soong-agent mcp-proxy` per tools/call: the official MCP SDK client calls the
// same small stdio server directly, through the proxy with no matching hook, and through the proxy
// with one spawn hook on PreToolUse; interleaved so machine noise hits all alike. Prints medians
// and the added latency; no assertions on wall time. Run after a build: `pnpm bench`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const SERVER = fileURLToPath(new URL('../src/__fixtures__/mcp/test-server.mjs', import.meta.url));
const ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 400);
const SPAWN_ROUNDS = Number(process.env.BENCH_MCP_SPAWN_ROUNDS ?? 40);

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-bench-mcp-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root };

function home(name, hooks) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { mode: 0o700 });
  fs.writeFileSync(path.join(dir, 'hooks.json'), JSON.stringify({ version: 1, hooks }), {
    mode: 0o600,
  });
  return dir;
}

async function connect(command, args) {
  const transport = new StdioClientTransport({ command, args, env, cwd: root, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const upstream = [SERVER, path.join(root, 'upstream.log')];
const proxied = (homeDir) => [
  CLI,
  'mcp-proxy',
  '--home',
  homeDir,
  '--project',
  root,
  '--',
  process.execPath,
  ...upstream,
];
const noHook = home('no-hook', {
  // A rule on another tool: the call is matched against it and nothing runs.
  PreToolUse: [
    { matcher: { tool: 'mcp__other__x' }, hooks: [{ type: 'command', command: 'true' }] },
  ],
});
const oneHook = home('one-hook', {
  PreToolUse: [
    { matcher: { tool: 'mcp__test-notes__echo' }, hooks: [{ type: 'command', command: 'true' }] },
  ],
});

const clients = {
  direct: await connect(process.execPath, upstream),
  'proxy, no matching hook': await connect(process.execPath, proxied(noHook)),
  'proxy, one spawn hook': await connect(process.execPath, proxied(oneHook)),
};

async function time(client) {
  const start = process.hrtime.bigint();
  const result = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.isError) throw new Error(JSON.stringify(result));
  return elapsed;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle];
};
const p90 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)];

const samples = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
for (const client of Object.values(clients)) for (let i = 0; i < 20; i++) await time(client); // warm up
for (let round = 0; round < ROUNDS; round += 1) {
  samples.direct.push(await time(clients.direct));
  samples['proxy, no matching hook'].push(await time(clients['proxy, no matching hook']));
  if (round % Math.ceil(ROUNDS / SPAWN_ROUNDS) === 0)
    samples['proxy, one spawn hook'].push(await time(clients['proxy, one spawn hook']));
}
for (const client of Object.values(clients)) await client.close();
fs.rmSync(root, { recursive: true, force: true });

const direct = median(samples.direct);
console.log(
  `\nmcp-proxy: one tools/call (echo) through the official SDK client, ${ROUNDS} interleaved calls (${SPAWN_ROUNDS} with the spawn hook); added = median - median of direct (target with no matching hook <= 1 ms)`,
);
console.table(
  Object.entries(samples).map(([name, values]) => ({
    case: name,
    calls: values.length,
    'median ms': median(values).toFixed(3),
    'p90 ms': p90(values).toFixed(3),
    'added ms': (median(values) - direct).toFixed(3),
  })),
);
