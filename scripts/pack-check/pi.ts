// A consumer of @soong-agent/pi installed from packed tarballs: its default export (the pi extension
// factory) registers on an object with pi's extension API shape, as pi's loader calls it; a hook
// denies `rm -rf` in `tool_call`, an allowed call (next model step)'s `tool_result` is recorded, the session closes.
// (The package's own tests run the real pi.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import soongHooks, {
  type PiExtensionAPI,
  type PiExtensionContext,
  type PiToolCallEvent,
} from '@soong-agent/pi';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-pack-pi-'));
const home = path.join(root, 'home');
fs.mkdirSync(home, { mode: 0o700 });
const guard = `grep -q 'rm -rf' && echo '{"decision":"deny","reason":"not here"}' || true`;
fs.writeFileSync(
  path.join(home, 'hooks.json'),
  JSON.stringify({
    version: 1,
    hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: guard }] }] },
  }),
  { mode: 0o600 },
);
process.env.SOONG_AGENT_HOME = home;

type Handler = (event: unknown, ctx: PiExtensionContext) => unknown;
const handlers = new Map<string, Handler>();
const lines: string[] = [];
const pi = {
  on(event: string, handler: Handler) {
    handlers.set(event, handler);
  },
  sendMessage() {},
} as unknown as PiExtensionAPI;
const project = path.join(root, 'project');
fs.mkdirSync(project);
const ctx: PiExtensionContext = {
  cwd: project,
  hasUI: true,
  ui: { notify: (text) => lines.push(text), setStatus: () => {} },
  isIdle: () => false,
};
const emit = (event: string, payload: object) =>
  handlers.get(event)?.({ type: event, ...payload }, ctx);

soongHooks(pi);
await emit('session_start', { reason: 'startup' });
const call = (id: string, command: string): PiToolCallEvent => ({
  type: 'tool_call',
  toolCallId: id,
  toolName: 'bash',
  input: { command },
});
const denied = await emit('tool_call', call('c1', 'rm -rf ./victim'));
// A new model step: the denial above halted the rest of its own step only (spec §4).
await emit('turn_start', { turnIndex: 1, timestamp: Date.now() });
const allowed = await emit('tool_call', call('c2', 'echo hi'));
await emit('tool_result', {
  toolCallId: 'c2',
  toolName: 'bash',
  input: { command: 'echo hi' },
  content: [{ type: 'text', text: 'hi' }],
  isError: false,
});
await emit('session_shutdown', { reason: 'quit' });
const [session] = fs.readdirSync(path.join(home, 'sessions'));
const types = fs
  .readFileSync(path.join(home, 'sessions', String(session), 'events.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line).type);
if (
  JSON.stringify(denied) !==
    JSON.stringify({ block: true, reason: 'denied by hook PreToolUse[0][0]: not here' }) ||
  allowed !== undefined ||
  !types.includes('tool_denied') ||
  !types.includes('tool_finished') ||
  !lines.some((line) => line.includes('1 hook active'))
) {
  throw new Error(JSON.stringify({ denied, allowed, types, lines }));
}
fs.rmSync(root, { recursive: true, force: true });
console.log('ok @soong-agent/pi');
