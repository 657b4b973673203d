import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EventRecord } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli, runScriptedSession } from './test-helpers/cli.js';

const TIMEOUT = 120_000;
const FIXTURES = fileURLToPath(new URL('./__fixtures__/claude-code/', import.meta.url));
// git may not keep modes.
for (const name of fs.readdirSync(FIXTURES)) fs.chmodSync(path.join(FIXTURES, name), 0o755);
const fixture = (name: string) => path.join(FIXTURES, name);
// The interpreter itself, not a version-manager shim that needs the real HOME.
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'])
  .toString()
  .trim();

type Workspace = ReturnType<typeof makeWorkspace>;
const ofType = <T extends EventRecord['type']>(records: EventRecord[], type: T) =>
  records.filter((record): record is Extract<EventRecord, { type: T }> => record.type === type);

/**
 * The user's path: a Claude Code settings file in ~/.claude, brought over with one
 * `hooks import --from claude --write`, then a real session with a scripted model.
 */
async function importSettings(workspace: Workspace, hooks: Record<string, unknown>) {
  const settings = path.join(workspace.osHome, '.claude', 'settings.json');
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  fs.writeFileSync(settings, JSON.stringify({ hooks }));
  const imported = await runCli(
    [
      'hooks',
      'import',
      '--from',
      'claude',
      '--write',
      '--home',
      workspace.home,
      '--project',
      workspace.project,
    ],
    { env: workspace.env },
  );
  expect(imported.code, imported.stderr).toBe(0);
}

const session = runScriptedSession;

describe('soong-agent with Claude Code hooks', () => {
  it(
    'blocks what a bash + jq exit-2 guard blocks, allows the rest, and gives the model its stderr',
    async () => {
      const workspace = makeWorkspace();
      await importSettings(workspace, {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: fixture('block-dangerous-bash.sh') }],
          },
        ],
      });
      const records = await session(workspace, [
        { text: 'Cleaning.', tool_calls: [{ name: 'bash', input: { command: 'rm -rf build' } }] },
        { text: 'Listing.', tool_calls: [{ name: 'bash', input: { command: 'echo hello' } }] },
        { text: 'Done.' },
      ]);
      const denied = ofType(records, 'tool_denied');
      expect(denied.map((record) => [record.call_id, record.source, record.reason])).toEqual([
        ['call_1', 'hook', 'Blocked: recursive force delete (rm -rf build) is not allowed'],
      ]);
      expect(
        ofType(records, 'tool_finished').map((record) => [record.call_id, record.is_error]),
      ).toEqual([['call_2', false]]);
      const turns = ofType(records, 'model_turn');
      expect(turns[1]?.request_tail).toEqual({
        role: 'tool',
        text: 'denied by hook block-dangerous-bash: Blocked: recursive force delete (rm -rf build) is not allowed',
      });
      expect(
        ofType(records, 'hook_finished').map((record) => [record.decision, record.exit_code]),
      ).toEqual([
        ['deny', 2],
        ['none', 0],
      ]);
    },
    TIMEOUT,
  );

  it(
    'denies what a Python permissionDecision hook denies, with its reason, and runs the rest',
    async () => {
      const workspace = makeWorkspace();
      await importSettings(workspace, {
        PreToolUse: [
          {
            matcher: 'Write|Edit|MultiEdit',
            hooks: [{ type: 'command', command: `${PYTHON} ${fixture('protect-files.py')}` }],
          },
        ],
      });
      const records = await session(workspace, [
        {
          text: '',
          tool_calls: [{ name: 'write_file', input: { path: '.env', content: 'KEY=1' } }],
        },
        {
          text: '',
          tool_calls: [{ name: 'write_file', input: { path: 'notes.txt', content: 'hi' } }],
        },
        {
          text: '',
          tool_calls: [
            { name: 'edit_file', input: { path: 'notes.txt', old_string: 'hi', new_string: 'ho' } },
          ],
        },
        { text: 'Done.' },
      ]);
      expect(
        ofType(records, 'tool_denied').map((record) => [record.call_id, record.reason]),
      ).toEqual([['call_1', '.env is a protected file']]);
      expect(ofType(records, 'model_turn')[1]?.request_tail.text).toBe(
        'denied by hook protect-files: .env is a protected file',
      );
      expect(fs.existsSync(path.join(workspace.project, '.env'))).toBe(false);
      expect(fs.readFileSync(path.join(workspace.project, 'notes.txt'), 'utf8')).toBe('ho');
    },
    TIMEOUT,
  );

  it(
    'keeps the loop going while a Node Stop hook reading the transcript blocks, and stops when it is satisfied',
    async () => {
      const workspace = makeWorkspace();
      await importSettings(workspace, {
        Stop: [{ hooks: [{ type: 'command', command: `node ${fixture('require-tests.mjs')}` }] }],
      });
      const records = await session(workspace, [
        { text: 'I am done.' },
        {
          text: 'Ran them: all tests pass.',
          expect: { last_user_message_contains: 'confirm that the tests pass' },
        },
      ]);
      expect(
        ofType(records, 'stop_hook_prevented').map((record) => [
          record.reason,
          record.prevented_count,
        ]),
      ).toEqual([['Run the test suite and confirm that the tests pass before stopping.', 1]]);
      expect(ofType(records, 'loop_ended').map((record) => record.reason)).toEqual(['completed']);

      const sessionId = records[0]?.session_id as string;
      const transcript = path.join(workspace.home, 'sessions', sessionId, 'transcript.jsonl');
      expect(fs.statSync(transcript).mode & 0o777).toBe(0o600);
      const lines = fs
        .readFileSync(transcript, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; message: { content: unknown } });
      expect(lines.map((line) => line.type)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(lines[0]?.message.content).toBe('go');
      expect(String(lines[2]?.message.content)).toContain('confirm that the tests pass');
    },
    TIMEOUT,
  );

  it(
    'asks for permission when a hook answers ask, even for a readonly tool, and says which hook asked',
    async () => {
      const workspace = makeWorkspace();
      const ask = JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'ask',
          permissionDecisionReason: 'reads outside src',
        },
      });
      await importSettings(workspace, {
        PreToolUse: [
          {
            matcher: 'Read',
            hooks: [{ type: 'command', command: `cat >/dev/null; echo '${ask}'` }],
          },
        ],
      });
      fs.writeFileSync(path.join(workspace.project, 'README.md'), 'hello');
      const turns = [
        { text: '', tool_calls: [{ name: 'read_file', input: { path: 'README.md' } }] },
        { text: 'Done.' },
      ];
      const headless = await session(workspace, turns, { yes: false });
      expect(ofType(headless, 'permission_denied').map((record) => record.reason)).toEqual([
        'hook PreToolUse[0][0] asked: reads outside src; no TTY to ask on; pass --yes to allow',
      ]);
      expect(ofType(headless, 'hook_finished').map((record) => record.permission_decision)).toEqual(
        ['ask'],
      );
      const allowed = await session(workspace, turns);
      expect(ofType(allowed, 'tool_finished').map((record) => record.is_error)).toEqual([false]);

      const tested = await runCli(
        [
          'hooks',
          'test',
          'PreToolUse',
          '--tool',
          'read_file',
          '--input',
          '{"path":"README.md"}',
          '--home',
          workspace.home,
          '--project',
          workspace.project,
        ],
        { env: workspace.env },
      );
      expect(tested.code).toBe(0);
      expect(tested.stdout).toContain(
        'outcome: no deny; hook PreToolUse[0][0] asked for the permission prompt: reads outside src → exit 0',
      );
    },
    TIMEOUT,
  );
});
