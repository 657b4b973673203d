// A consumer of @soong-agent/config alone, installed from its packed tarball.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@soong-agent/config';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-pack-config-'));
const home = path.join(root, 'home');
fs.mkdirSync(home, { mode: 0o700 });
fs.writeFileSync(
  path.join(home, 'hooks.json'),
  JSON.stringify({
    version: 1,
    hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'true' }] }] },
  }),
  { mode: 0o600 },
);
const config = loadConfig({ home, projectDir: root });
const hooks = config.hooks.match({ event: 'PreToolUse', tool: 'bash' });
if (hooks.length !== 1 || hooks[0]?.id !== 'PreToolUse[0][0]') throw new Error('loadConfig');
fs.rmSync(root, { recursive: true, force: true });
console.log('ok @soong-agent/config');
