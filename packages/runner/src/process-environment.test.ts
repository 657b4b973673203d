import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { builtEntryUrl, fixture } from './test-helpers/build.js';

// The attacker's side: a child of the agent reads the agent's environment block at
// /proc/$PPID/environ, which deleting from process.env does not change.
const SECRET = 'sk-hidden-5e1f0c';
const run = promisify(execFile);

async function parentReport(mode: 'hide' | 'keep', helper: 'on' | 'off' | 'posix' = 'off') {
  const { stdout } = await run(
    process.execPath,
    [fixture('hide-environment.mjs'), builtEntryUrl(), mode, helper],
    {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HIDDEN_SECRET: SECRET,
        ALLOWED_EXTRA: 'x1',
      },
    },
  );
  return JSON.parse(stdout) as {
    hide: { hidden: boolean; bytes: number; reason?: string } | null;
    parentEnviron: string;
    parentEnvironExit: number;
    hostEnviron: string;
    childEnv: string;
    secretInProcessEnv: string | null;
  };
}

// Linux only: elsewhere there is no /proc/<pid>/environ to read (see the README).
describe.runIf(process.platform === 'linux')('hideProcessEnvironment', () => {
  it('lets a child read the secret at /proc/$PPID/environ when the parent does not call it', async () => {
    const report = await parentReport('keep');
    expect(report.parentEnvironExit).toBe(0);
    expect(report.parentEnviron).toContain(`HIDDEN_SECRET=${SECRET}`);
  });

  it('leaves nothing readable at /proc/$PPID/environ when the parent called it', async () => {
    const report = await parentReport('hide');
    expect(report.hide?.hidden).toBe(true);
    expect(report.hide?.bytes).toBeGreaterThan(SECRET.length);
    expect(report.parentEnvironExit).toBe(0);
    expect(report.parentEnviron).not.toContain(SECRET);
    expect(report.parentEnviron.replace(/\n/g, '')).toBe('');
  });

  it('keeps process.env and the allowlist working when it has hidden the block', async () => {
    const report = await parentReport('hide');
    expect(report.secretInProcessEnv).toBe(SECRET);
    expect(report.childEnv).toMatch(/^ALLOWED_EXTRA=x1$/m);
    expect(report.childEnv).toMatch(/^PATH=/m);
    expect(report.childEnv).not.toContain(SECRET);
  });

  it('shows a child only the spawn helper at /proc/$PPID/environ, whose environment holds no secret', async () => {
    const report = await parentReport('keep', 'on');
    expect(report.parentEnvironExit).toBe(0);
    expect(report.parentEnviron).not.toContain(SECRET);
    // Only what Node's IPC channel needs: nothing of the host's environment.
    const names = report.parentEnviron
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.slice(0, line.indexOf('=')));
    expect(names.sort()).toEqual(['NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE']);
    // The host's own block is still there to read: hideProcessEnvironment is still needed.
    expect(report.hostEnviron).toContain(`HIDDEN_SECRET=${SECRET}`);
  });

  it('shows a child only the posix spawner at /proc/$PPID/environ, which is empty', async () => {
    const report = await parentReport('keep', 'posix');
    expect(report.parentEnvironExit).toBe(0);
    expect(report.parentEnviron).toBe('');
    expect(report.childEnv).toMatch(/^ALLOWED_EXTRA=x1$/m);
    // The host's own block is still there to read: hideProcessEnvironment is still needed.
    expect(report.hostEnviron).toContain(`HIDDEN_SECRET=${SECRET}`);
  });

  it('leaves nothing readable in the host block through the spawn helper when the host called it', async () => {
    const report = await parentReport('hide', 'on');
    expect(report.hide?.hidden).toBe(true);
    expect(report.hostEnviron.replace(/\n/g, '')).toBe('');
    expect(report.parentEnviron).not.toContain(SECRET);
    expect(report.childEnv).toMatch(/^ALLOWED_EXTRA=x1$/m);
    expect(report.childEnv).not.toContain(SECRET);
  });
});
