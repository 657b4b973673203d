// A consumer of @soong-agent/loop-adapter (with config), installed from packed tarballs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@soong-agent/config';
import { createHookEngine, createMemoryEventSink } from '@soong-agent/loop-adapter';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-pack-loop-'));
const home = path.join(root, 'home');
fs.mkdirSync(home, { mode: 0o700 });
const deny = `echo '{"decision":"deny","reason":"not here"}'`;
fs.writeFileSync(
  path.join(home, 'hooks.json'),
  JSON.stringify({
    version: 1,
    hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: deny }] }] },
  }),
  { mode: 0o600 },
);
const config = loadConfig({ home, projectDir: root });
const sessionId = '20261202T135512Z-3f9a1c';
const sink = createMemoryEventSink({ sessionId });
const engine = createHookEngine({ config, sink, sessionId });
const outcome = await engine.run('PreToolUse', {
  tool: {
    name: 'bash',
    call_id: 'call_1',
    input: { command: 'rm -rf /' },
    risk: 'dangerous',
    tags: ['dangerous'],
    paths: [],
  },
});
await engine.close();
if (outcome.decision !== 'deny' || outcome.reason !== 'not here') {
  throw new Error(JSON.stringify(outcome));
}
fs.rmSync(root, { recursive: true, force: true });
console.log('ok @soong-agent/loop-adapter');
