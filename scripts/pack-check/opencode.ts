// A consumer of @soong-agent/opencode installed from packed tarballs: the plugin, given an SDK
// client of its own as OpenCode would, stops a `rm -rf` in tool.execute.before with the hook's
// reason and lets `ls` through.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SoongHooksDefault, { SoongHooks } from '@soong-agent/opencode';

if (SoongHooksDefault !== SoongHooks) throw new Error('the default export is not SoongHooks');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-pack-opencode-'));
const home = path.join(root, 'home');
fs.mkdirSync(home, { mode: 0o700 });
const deny = `grep -q 'rm -rf' && echo '{"decision":"deny","reason":"not here"}' || true`;
fs.writeFileSync(
  path.join(home, 'hooks.json'),
  JSON.stringify({
    version: 1,
    hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: deny }] }] },
  }),
  { mode: 0o600 },
);
process.env.SOONG_AGENT_HOME = home;
const logs: string[] = [];
const client = {
  app: {
    log: async (options: { body: { message: string } }) => {
      logs.push(options.body.message);
      return {};
    },
  },
  session: { messages: async () => ({ data: [] }), promptAsync: async () => ({}) },
  config: { get: async () => ({ data: {} }) },
};
try {
  const hooks = await SoongHooks({ client, directory: root, worktree: root });
  const before = hooks['tool.execute.before'];
  if (before === undefined) throw new Error('no tool.execute.before hook');
  let reason = '';
  try {
    await before(
      { tool: 'bash', sessionID: 'ses_1', callID: 'c1' },
      { args: { command: 'rm -rf ./x' } },
    );
  } catch (error) {
    reason = (error as Error).message;
  }
  if (!reason.includes('not here'))
    throw new Error(`rm -rf was not denied: ${JSON.stringify(reason)}`);
  await hooks['chat.params']?.({ sessionID: 'ses_1' }, {});
  await before({ tool: 'bash', sessionID: 'ses_1', callID: 'c2' }, { args: { command: 'ls' } });
  await hooks.dispose?.();
  if (!logs.some((line) => line.includes('1 hook in 1 rule active')))
    throw new Error(`no start-up line in the log: ${JSON.stringify(logs)}`);
  console.log('ok @soong-agent/opencode');
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
