// A consumer of @soong-agent/protocol alone, installed from its packed tarball.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { EVENT_RECORD_TYPES, parseHookOutput, safeParseHookOutput } from '@soong-agent/protocol';
import { defineHook, type HookHandler } from '@soong-agent/protocol/hook';

const output = parseHookOutput('{"decision":"deny","reason":"no"}');
if (output?.decision !== 'deny' || output.reason !== 'no') throw new Error('parseHookOutput');
if (safeParseHookOutput('not json').success) throw new Error('safeParseHookOutput');
if (!EVENT_RECORD_TYPES.includes('hook_denied')) throw new Error('EVENT_RECORD_TYPES');

// The hook helper, as a hook author uses it: a plain .mjs file, no build step, in both modes.
const handler: HookHandler = (input) =>
  input.event === 'Stop' ? { decision: 'deny', reason: 'tests fail' } : undefined;
if (typeof defineHook !== 'function' || handler.length !== 1) throw new Error('defineHook');
writeFileSync(
  'hook.mjs',
  `import { defineHook } from '@soong-agent/protocol/hook';
await defineHook((input) => (input.event === 'Stop' ? { decision: 'deny', reason: 'tests fail' } : undefined));
`,
);
const stop = JSON.stringify({
  protocol_version: 1,
  event: 'Stop',
  session_id: '20261202T120000Z-000000',
  project_dir: '/tmp/project',
  agent_home: '/tmp/home',
  hook_id: 'tests',
  timestamp: '2026-12-02T12:00:00.000Z',
  stop_hook_active: false,
  prevented_count: 0,
  previous_reasons: [],
  last_assistant_message: 'done',
});
const spawned = spawnSync(process.execPath, ['hook.mjs'], { input: stop, encoding: 'utf8' });
if (spawned.status !== 0 || spawned.stdout !== '{"decision":"deny","reason":"tests fail"}\n') {
  throw new Error(`defineHook in spawn mode: ${spawned.status} ${spawned.stdout}${spawned.stderr}`);
}
const worker = spawnSync(process.execPath, ['hook.mjs'], {
  input: `{"id":1,"input":${stop}}\n`,
  encoding: 'utf8',
  env: { ...process.env, SOONG_AGENT_HOOK_MODE: 'worker' },
});
if (
  worker.status !== 0 ||
  worker.stdout !== '{"id":1,"output":{"decision":"deny","reason":"tests fail"}}\n'
) {
  throw new Error(`defineHook in worker mode: ${worker.status} ${worker.stdout}${worker.stderr}`);
}
console.log('ok @soong-agent/protocol');
