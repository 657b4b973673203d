import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from './test-helpers/cli.js';

const README = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function starterHooksJson(): string {
  const marker = README.indexOf('<!-- starter-hooks.json -->');
  expect(marker).not.toBe(-1);
  const match = /```json\n([\s\S]*?)```/.exec(README.slice(marker));
  return match?.[1] ?? '';
}

describe('README', () => {
  it('shows a starter hooks.json that hooks validate accepts without warnings', async () => {
    const workspace = makeWorkspace({ home: { 'hooks.json': starterHooksJson() } });
    const result = await runCli(
      ['hooks', 'validate', '--home', workspace.home, '--project', workspace.project],
      { env: workspace.env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('3 rules');
    expect(fs.existsSync(path.join(workspace.home, 'hooks.json'))).toBe(true);
  }, 60_000);
});
