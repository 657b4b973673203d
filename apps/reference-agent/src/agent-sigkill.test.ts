import fs from 'node:fs';
import path from 'node:path';
import { eventually, liveGroupMembers, processGroupOf } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, startCli, writeScript } from './test-helpers/cli.js';

// A running tool's (or hook's) process group must not outlive an agent killed with
// SIGKILL. The runner's spawn helper sees its channel to the agent close and kills every group.
const TIMEOUT = 120_000;
const HANG = 'sleep 600 & echo $$ > "$1.tmp" && mv "$1.tmp" "$1"; wait\n';

async function killAgentWhileRunning(hooks: unknown, toolCommand: string, pidFile: string) {
  const workspace = makeWorkspace({
    home: { 'hang.sh': HANG, 'hooks.json': JSON.stringify({ version: 1, hooks }) },
  });
  const script = writeScript(workspace.root, [
    { text: 'x', tool_calls: [{ name: 'bash', input: { command: toolCommand } }] },
    { text: 'done' },
  ]);
  const agent = startCli(
    ['run', 'go', '--model', `scripted:${script}`, '--yes', '--json', '--home', workspace.home],
    { env: workspace.env, cwd: workspace.project },
  );
  const readPid = () => (fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0);
  await eventually(() => readPid() > 0 || agent.child.exitCode !== null);
  if (readPid() === 0) {
    agent.child.kill('SIGKILL');
    expect.fail(`the tool or hook never started: ${JSON.stringify(await agent.done)}`);
  }
  const pgid = processGroupOf(readPid());
  expect(liveGroupMembers(pgid).length).toBeGreaterThan(1);
  agent.child.kill('SIGKILL');
  expect((await agent.done).signal).toBe('SIGKILL');
  try {
    expect(await eventually(() => liveGroupMembers(pgid).length === 0)).toBe(true);
  } finally {
    for (const pid of liveGroupMembers(pgid)) process.kill(pid, 'SIGKILL');
  }
}

describe.runIf(process.platform === 'linux')('agent SIGKILLed mid-run', () => {
  it(
    "leaves no process of a running bash tool's group alive",
    async () => {
      const dir = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'soong-sigkill-'));
      const pidFile = path.join(dir, 'tool.pid');
      await killAgentWhileRunning({}, `sh -c '${HANG.trim()}' hang ${pidFile}`, pidFile);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    TIMEOUT,
  );

  it(
    "leaves no process of a running hook's group alive",
    async () => {
      const dir = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'soong-sigkill-'));
      const pidFile = path.join(dir, 'hook.pid');
      const hooks = {
        PreToolUse: [
          {
            matcher: 'bash',
            hooks: [
              {
                type: 'command',
                command: `sh "$SOONG_AGENT_HOME/hang.sh" ${pidFile}`,
                timeout: 300,
              },
            ],
          },
        ],
      };
      await killAgentWhileRunning(hooks, 'echo hi', pidFile);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    TIMEOUT,
  );
});
