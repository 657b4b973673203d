import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, makeWorkspace, writeScript } from './test-helpers/cli.js';

const PTY_RUN = fileURLToPath(new URL('./test-helpers/pty-run.py', import.meta.url));

async function runOnTerminal(answer: string) {
  const workspace = makeWorkspace({ project: { 'a.txt': 'old' } });
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
  return { ...result, content: fs.readFileSync(path.join(workspace.project, 'a.txt'), 'utf8') };
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
});
