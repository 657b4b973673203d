import fs from 'node:fs';
import path from 'node:path';
import type { ToolCallInfo } from '@soong-agent/protocol';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import type { HookOutcome } from './hook-engine.js';
import { setup } from './test-helpers/setup.js';

const tempDir = () => makeTempDir();
const TIMEOUT = 120_000;

// One policy, written once per protocol: no recursive force delete, no writes under secrets/,
// no stop before the answer says "done". Each script only speaks its own protocol.
const POLICY = `
function decide(tool, command, filePath, projectDir) {
  if (tool === 'bash' && /rm\\s+-rf/.test(command ?? '')) return 'no rm -rf';
  const secrets = projectDir + '/secrets/';
  if ((tool === 'write_file' || tool === 'edit_file') && (filePath ?? '').startsWith(secrets)) return 'secrets are read-only';
  return undefined;
}
const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
`;

const SOONG_HOOK = `${POLICY}
if (input.event === 'Stop') {
  if (!/done/.test(input.last_assistant_message)) console.log(JSON.stringify({ decision: 'deny', reason: 'say done' }));
} else {
  const t = input.tool;
  const reason = decide(t.name, t.input.command, t.paths[0], input.project_dir);
  console.log(JSON.stringify(reason ? { decision: 'deny', reason } : { decision: 'allow' }));
}
`;

const CLAUDE_NAMES = {
  Bash: 'bash',
  Write: 'write_file',
  Edit: 'edit_file',
  Read: 'read_file',
  Grep: 'grep',
  LS: 'list_dir',
};
const CLAUDE_HOOK = `${POLICY}
const names = ${JSON.stringify(CLAUDE_NAMES)};
if (input.hook_event_name === 'Stop') {
  if (!/done/.test(input.last_assistant_message)) { process.stderr.write('say done'); process.exit(2); }
} else {
  const ti = input.tool_input;
  const reason = decide(names[input.tool_name] ?? input.tool_name, ti.command, ti.file_path, input.cwd);
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse',
    permissionDecision: reason ? 'deny' : 'allow', ...(reason ? { permissionDecisionReason: reason } : {}) } }));
}
`;

const CALLS: [string, Record<string, unknown>, string][] = [
  ['bash', { command: 'rm -rf build' }, 'dangerous'],
  ['bash', { command: 'ls -la' }, 'dangerous'],
  ['write_file', { path: 'secrets/key', content: 'x' }, 'write'],
  ['write_file', { path: 'src/a.ts', content: 'x' }, 'write'],
  ['edit_file', { path: 'secrets/b', old_string: 'a', new_string: 'b' }, 'write'],
  ['read_file', { path: 'secrets/c' }, 'readonly'],
  ['grep', { pattern: 'TODO' }, 'readonly'],
];
const STOPS = ['all done', 'I stopped'];

async function outcomes(protocol: 'soong' | 'claude-code', source: string) {
  const root = tempDir();
  const script = path.join(root, 'policy.cjs');
  fs.writeFileSync(script, source);
  const hook = { command: `node '${script}'`, protocol };
  const { engine, projectDir } = setup(root, {
    PreToolUse: [{ hooks: [hook] }],
    Stop: [{ hooks: [hook] }],
  });
  const summary = (outcome: HookOutcome) => [outcome.decision, outcome.reason ?? null];
  const rows: unknown[] = [];
  for (const [index, [name, input, risk]] of CALLS.entries()) {
    const file = typeof input.path === 'string' ? path.resolve(projectDir, input.path) : undefined;
    const tool: ToolCallInfo = {
      name,
      call_id: `call_${index}`,
      input,
      risk: risk as ToolCallInfo['risk'],
      tags: [],
      paths: file === undefined ? [] : [file],
    };
    rows.push([name, input, ...summary(await engine.run('PreToolUse', { tool }))]);
  }
  for (const message of STOPS) {
    const outcome = await engine.run('Stop', {
      stop_hook_active: false,
      prevented_count: 0,
      previous_reasons: [],
      last_assistant_message: message,
    });
    rows.push([
      'Stop',
      message,
      outcome.decision === 'deny' ? 'deny' : 'pass',
      outcome.reason ?? null,
    ]);
  }
  return rows;
}

describe('createHookEngine (differential: one policy per protocol)', () => {
  it(
    'gives the same outcome on every call whether the policy speaks soong or claude-code',
    async () => {
      const soong = await outcomes('soong', SOONG_HOOK);
      const claude = await outcomes('claude-code', CLAUDE_HOOK);
      expect(claude).toEqual(soong);
      expect(soong.map((row) => (row as unknown[]).slice(-2))).toEqual([
        ['deny', 'no rm -rf'],
        ['allow', null],
        ['deny', 'secrets are read-only'],
        ['allow', null],
        ['deny', 'secrets are read-only'],
        ['allow', null],
        ['allow', null],
        ['pass', null],
        ['deny', 'say done'],
      ]);
    },
    TIMEOUT,
  );
});
