// One side of the OpenTelemetry benchmark (see run.mjs): engine dispatch with no matching rule,
// and one PreToolUse answered by a worker hook, in this process as it is (API present or hidden by
// hide-opentelemetry.cjs). Prints one JSON line.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@soong-agent/config';
import { createHookEngine, createMemoryEventSink } from '../dist/index.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loop-adapter-otel-')));
const home = path.join(root, 'home');
fs.mkdirSync(home, { mode: 0o700 });
fs.writeFileSync(
  path.join(root, 'worker.mjs'),
  `import readline from 'node:readline';
for await (const line of readline.createInterface({ input: process.stdin })) {
  process.stdout.write('{"id":' + JSON.parse(line).id + ',"output":{"decision":"allow"}}\\n');
}`,
);
const hooks = {
  PreToolUse: [
    {
      matcher: 'bash',
      hooks: [{ type: 'command', command: `node '${root}/worker.mjs'`, mode: 'worker' }],
    },
  ],
};
fs.writeFileSync(path.join(home, 'hooks.json'), JSON.stringify({ version: 1, hooks }), {
  mode: 0o600,
});
const config = loadConfig({ home, projectDir: root, homeDir: root });
const sessionId = '20261202T135512Z-000000';
const engine = createHookEngine({ config, sink: createMemoryEventSink({ sessionId }), sessionId });
const tool = (name) => ({
  name,
  call_id: 'call_1',
  input: { command: 'x' },
  risk: 'dangerous',
  tags: [],
  paths: [],
});

const noMatch = tool('read_file');
for (let i = 0; i < 20_000; i += 1) await engine.run('PreToolUse', { tool: noMatch });
const dispatchRounds = 200_000;
let started = process.hrtime.bigint();
for (let i = 0; i < dispatchRounds; i += 1) await engine.run('PreToolUse', { tool: noMatch });
const noMatchNs = Number(process.hrtime.bigint() - started) / dispatchRounds;

const match = tool('bash');
for (let i = 0; i < 200; i += 1) await engine.run('PreToolUse', { tool: match });
const times = [];
for (let i = 0; i < 2_000; i += 1) {
  started = process.hrtime.bigint();
  await engine.run('PreToolUse', { tool: match });
  times.push(Number(process.hrtime.bigint() - started) / 1e6);
}
await engine.close();
fs.rmSync(root, { recursive: true, force: true });
times.sort((a, b) => a - b);
// Resolved the way the engine resolves it (a CommonJS require), to show which side this is.
const api = (() => {
  try {
    createRequire(import.meta.url).resolve('@opentelemetry/api');
    return true;
  } catch {
    return false;
  }
})();
process.stdout.write(
  `${JSON.stringify({ noMatchNs, workerP50Ms: times[times.length >> 1], workerP99Ms: times[Math.floor(times.length * 0.99)], api })}\n`,
);
