import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, makeWorkspace, writeScript } from './test-helpers/cli.js';

const PTY_RUN = fileURLToPath(new URL('./test-helpers/pty-run.py', import.meta.url));

async function runOnTerminal(answer: string, home: Record<string, string> = {}) {
  const workspace = makeWorkspace({ project: { 'a.txt': 'old' }, home });
  const script = writeScript(workspace.root, [
    { tool_calls: [{ name: 'write_file', input: { path: 'a.txt', content: 'new' } }] },
    { text: 'ok' },
  ]);
  const { stdout } = await promisify(execFile)(
    'python3',
    [
      PTY_RUN,
      '[y/N]',
      answer,
      '--',
      process.execPath,
      CLI,
      'run',
      'go',
      '--home',
      workspace.home,
      '--project',
      workspace.project,
      '--model',
      `scripted:${script}`,
    ],
    { env: workspace.env },
  );
  const result = JSON.parse(stdout) as { code: number; output: string; answered: number };
  return {
    ...result,
    workspace,
    content: fs.readFileSync(path.join(workspace.project, 'a.txt'), 'utf8'),
  };
}

describe('createTerminalAsk', () => {
  it('prompts on a terminal and allows the call when the user answers y', async () => {
    const result = await runOnTerminal('y');
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('Allow write_file a.txt? [y/N]');
    expect(result.answered).toBe(1);
    expect(result.content).toBe('new');
  }, 90_000);

  it('denies the call when the user answers anything else', async () => {
    const result = await runOnTerminal('n');
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('denied by permission');
    expect(result.content).toBe('old');
  }, 90_000);

  it('runs Notification hooks before the permission question and SessionEnd when the run ends (spec §2.3)', async () => {
    const observer = (name: string) => ({
      name,
      type: 'command',
      command: `cat >> "$SOONG_AGENT_HOME/${name}.jsonl"; echo >> "$SOONG_AGENT_HOME/${name}.jsonl"`,
    });
    const result = await runOnTerminal('y', {
      'hooks.json': JSON.stringify({
        version: 1,
        hooks: {
          Notification: [{ hooks: [observer('notification')] }],
          SessionEnd: [{ hooks: [observer('session-end')] }],
        },
      }),
    });
    expect(result.code, result.output).toBe(0);
    const inputs = (name: string) =>
      fs
        .readFileSync(path.join(result.workspace.home, `${name}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inputs('notification')).toEqual([
      expect.objectContaining({
        event: 'Notification',
        kind: 'permission_prompt',
        message: expect.stringContaining('Allow write_file a.txt?'),
      }),
    ]);
    expect(inputs('session-end')).toEqual([
      expect.objectContaining({ event: 'SessionEnd', reason: 'completed' }),
    ]);
    // In the log: the Notification hook ran while the call waited for its answer; SessionEnd last.
    const [sessionId] = fs.readdirSync(path.join(result.workspace.home, 'sessions'));
    const records = fs
      .readFileSync(
        path.join(result.workspace.home, 'sessions', String(sessionId), 'events.jsonl'),
        'utf8',
      )
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; event?: string });
    const order = records
      .filter(
        (record) =>
          ['tool_started', 'tool_finished', 'loop_ended'].includes(record.type) ||
          record.type === 'hook_started',
      )
      .map((record) => (record.type === 'hook_started' ? `hook ${record.event}` : record.type));
    expect(order).toEqual([
      'tool_started',
      'hook Notification',
      'tool_finished',
      'loop_ended',
      'hook SessionEnd',
    ]);
  }, 90_000);
});
