import fs from 'node:fs';
import path from 'node:path';
import type { EventRecord } from '@soong-agent/protocol';
import { eventually, isAlive, liveGroupMembers, processGroupOf } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, parseRecords, runCli, startCli, writeScript } from './test-helpers/cli.js';

// Worker hooks (spec §8) through the built CLI: one process per session, gone when it ends, even
// when the agent is SIGKILLed mid-request.
const TIMEOUT = 120_000;

// A worker that denies bash calls whose command contains "rm", allows the rest, names its pid in
// every reason, and (with HANG_FILE set in the request's tool input) writes its process group id
// there and never answers.
const WORKER = `import fs from 'node:fs';
import readline from 'node:readline';
for await (const line of readline.createInterface({ input: process.stdin })) {
  const { id, input } = JSON.parse(line);
  const command = input.tool?.input?.command ?? '';
  if (command.startsWith('hang ')) {
    fs.writeFileSync(command.slice(5), String(process.pid));
    continue;
  }
  const decision = command.includes('rm') ? 'deny' : 'allow';
  process.stdout.write(JSON.stringify({ id, output: { decision, reason: 'worker ' + process.pid } }) + '\\n');
}
`;

function workspaceWithWorker() {
  return makeWorkspace({
    home: {
      'policy.mjs': WORKER,
      'hooks.json': JSON.stringify({
        version: 1,
        hooks: {
          PreToolUse: [
            {
              matcher: 'bash',
              hooks: [
                {
                  name: 'policy',
                  type: 'command',
                  command: 'node "$SOONG_AGENT_HOME/policy.mjs"',
                  mode: 'worker',
                },
              ],
            },
          ],
        },
      }),
    },
  });
}

const ofType = <T extends EventRecord['type']>(records: EventRecord[], type: T) =>
  records.filter((record): record is Extract<EventRecord, { type: T }> => record.type === type);

describe('soong-agent run with a worker hook', () => {
  it(
    'serves every call of the session from one worker and stops it at the end',
    async () => {
      const workspace = workspaceWithWorker();
      const script = writeScript(workspace.root, [
        {
          text: 'two calls',
          tool_calls: [
            { name: 'bash', input: { command: 'echo one' } },
            { name: 'bash', input: { command: 'echo two' } },
          ],
        },
        { text: 'one more', tool_calls: [{ name: 'bash', input: { command: 'rm -rf build' } }] },
        { text: 'done' },
      ]);
      const result = await runCli(
        ['run', 'go', '--model', `scripted:${script}`, '--yes', '--json', '--home', workspace.home],
        { env: workspace.env, cwd: workspace.project },
      );
      expect(result.code, result.stderr).toBe(0);
      const records = parseRecords(result.stdout);
      const started = ofType(records, 'worker_started');
      expect(started).toHaveLength(1);
      // One worker answered all three (worker_started.pid is its group's leader, the watchdog).
      const reasons = ofType(records, 'hook_finished').map((record) => record.reason);
      expect(reasons).toHaveLength(3);
      expect(new Set(reasons).size).toBe(1);
      expect(ofType(records, 'tool_denied').map((record) => record.hook_id)).toEqual(['policy']);
      expect(ofType(records, 'worker_stopped')).toEqual([
        expect.objectContaining({ reason: 'session_end', exit_code: 0 }),
      ]);
      expect(records.at(-1)?.type).toBe('worker_stopped');
      expect(liveGroupMembers(started[0]?.pid ?? 0)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'shows the worker starting and stopping in the timeline when run without --json',
    async () => {
      const workspace = workspaceWithWorker();
      const script = writeScript(workspace.root, [
        { text: 'x', tool_calls: [{ name: 'bash', input: { command: 'echo hi' } }] },
        { text: 'done' },
      ]);
      const result = await runCli(
        ['run', 'go', '--model', `scripted:${script}`, '--yes', '--home', workspace.home],
        { env: workspace.env, cwd: workspace.project },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/worker policy started \(pid \d+\)/);
      expect(result.stderr).toMatch(/worker policy stopped: session_end, exit 0/);
    },
    TIMEOUT,
  );

  it(
    'leaves no process of the worker group alive when the agent is SIGKILLed mid-request',
    async () => {
      const workspace = workspaceWithWorker();
      const pidFile = path.join(workspace.root, 'worker.pid');
      const script = writeScript(workspace.root, [
        { text: 'x', tool_calls: [{ name: 'bash', input: { command: `hang ${pidFile}` } }] },
        { text: 'done' },
      ]);
      const agent = startCli(
        ['run', 'go', '--model', `scripted:${script}`, '--yes', '--json', '--home', workspace.home],
        { env: workspace.env, cwd: workspace.project },
      );
      // The worker creates the file, then writes its pid: wait for the pid, not the file.
      const readPid = () => (fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0);
      expect(await eventually(() => readPid() > 0)).toBe(true);
      const workerPid = readPid();
      const pgid = processGroupOf(workerPid);
      expect(liveGroupMembers(pgid).length).toBeGreaterThan(1);
      agent.child.kill('SIGKILL');
      expect((await agent.done).signal).toBe('SIGKILL');
      try {
        expect(await eventually(() => liveGroupMembers(pgid).length === 0)).toBe(true);
      } finally {
        for (const pid of liveGroupMembers(pgid)) process.kill(pid, 'SIGKILL');
      }
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks test with a worker hook', () => {
  it(
    'starts the worker, sends one request and stops it, as a session would',
    async () => {
      const workspace = workspaceWithWorker();
      const result = await runCli(
        [
          'hooks',
          'test',
          'PreToolUse',
          '--tool',
          'bash',
          '--input',
          '{"command":"rm -rf /"}',
          '--home',
          workspace.home,
          '--project',
          workspace.project,
        ],
        { env: workspace.env },
      );
      expect(result.code, result.stderr).toBe(3);
      expect(result.stdout).toMatch(/policy.*deny/);
      // It ran: answered by the worker, which did not exit (the line must not say "not run").
      expect(result.stdout).toMatch(
        /policy PreToolUse {2}deny {2}answered by its worker \(pid \d+\) · /,
      );
      expect(result.stdout).not.toContain('not run');
      const pid = Number(/worker (\d+)/.exec(result.stdout)?.[1]);
      expect(pid).toBeGreaterThan(0);
      expect(await eventually(() => !isAlive(pid))).toBe(true);
    },
    TIMEOUT,
  );
});
