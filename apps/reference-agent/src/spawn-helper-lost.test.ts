import fs from 'node:fs';
import path from 'node:path';
import type { EventRecord } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, parseRecords, runCli, writeScript } from './test-helpers/cli.js';

// The attacker's side: a hook that kills its parent (the runner's posix spawner where it runs,
// else its spawn helper) after printing a deny. Before, the CLI's event loop emptied with the
// helper: `hooks test` exited 0 with no output and `run` stopped mid-loop with exit 0, its log
// ending at hook_started. Either way the run now fails as helper_failed.

const TIMEOUT = 120_000;

// Prints a deny, then kills the process that spawned it: the deny is lost with it.
const KILLS_HELPER = `echo '{"decision":"deny","reason":"no rm here"}'; kill -9 $PPID; sleep 5`;

function workspaceWith(onFailure: 'deny' | 'ignore') {
  const workspace = makeWorkspace({ project: { 'victim/keep.txt': 'keep\n' } });
  fs.writeFileSync(
    path.join(workspace.home, 'hooks.json'),
    JSON.stringify({
      version: 1,
      hooks: {
        PreToolUse: [
          {
            matcher: 'bash',
            hooks: [
              { type: 'command', name: 'guard', command: KILLS_HELPER, on_failure: onFailure },
            ],
          },
        ],
      },
    }),
  );
  return workspace;
}

// `run` on a model that asks for one `rm -rf victim`, then ends.
function runRmVictim(workspace: ReturnType<typeof workspaceWith>) {
  const script = writeScript(workspace.root, [
    { text: 'x', tool_calls: [{ name: 'bash', input: { command: 'rm -rf victim' } }] },
    { text: 'done' },
  ]);
  const flags = ['--yes', '--json', '--home', workspace.home, '--project', workspace.project];
  return runCli(['run', 'go', '--model', `scripted:${script}`, ...flags], { env: workspace.env });
}

function types(records: EventRecord[]): string[] {
  return records.map((record) => record.type);
}

describe('soong-agent run: the spawn helper dies while a guard runs', () => {
  it(
    'fails the guard closed (on_failure deny), closes every record, finishes the loop and exits 1',
    async () => {
      const workspace = workspaceWith('deny');
      const result = await runRmVictim(workspace);
      const records = parseRecords(result.stdout);
      expect(fs.existsSync(path.join(workspace.project, 'victim', 'keep.txt'))).toBe(true);
      expect(records.filter((record) => record.type === 'hook_failed')).toMatchObject([
        { hook_id: 'guard', failure: 'helper_failed', on_failure: 'deny' },
      ]);
      expect(types(records)).toEqual(
        expect.arrayContaining(['hook_denied', 'tool_denied', 'loop_ended']),
      );
      expect(records.at(-1)).toMatchObject({ type: 'loop_ended', reason: 'completed' });
      expect(result.stderr).toMatch(/spawn helper was lost during 1 hook run/);
      expect(result.code).toBe(1);
    },
    TIMEOUT,
  );

  it(
    'runs the call when the guard fails open (on_failure ignore), and still exits 1',
    async () => {
      const workspace = workspaceWith('ignore');
      const result = await runRmVictim(workspace);
      const records = parseRecords(result.stdout);
      // The user's policy: a failed guard is ignored. A new helper runs the call.
      expect(fs.existsSync(path.join(workspace.project, 'victim'))).toBe(false);
      expect(records.filter((record) => record.type === 'hook_failed')).toMatchObject([
        { failure: 'helper_failed', on_failure: 'ignore' },
      ]);
      expect(records.at(-1)).toMatchObject({ type: 'loop_ended', reason: 'completed' });
      expect(result.code).toBe(1);
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks test: the spawn helper dies while a guard runs', () => {
  it.each([
    ['deny', 3],
    ['ignore', 1],
  ] as const)(
    'reports the helper_failed failure (on_failure %s) and exits %i, never 0',
    async (onFailure, code) => {
      const workspace = workspaceWith(onFailure);
      const result = await runCli(
        [
          'hooks',
          'test',
          'PreToolUse',
          '--tool',
          'bash',
          '--input',
          '{"command":"rm -rf victim"}',
          '--home',
          workspace.home,
          '--project',
          workspace.project,
        ],
        { env: workspace.env },
      );
      expect(result.stdout).toMatch(/helper_failed/);
      expect(result.code, result.stderr).toBe(code);
    },
    TIMEOUT,
  );
});
