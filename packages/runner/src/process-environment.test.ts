import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForFixtures, fixture } from './test-helpers/build.js';

// The attacker's side: a child of the agent reads the agent's environment block at
// /proc/$PPID/environ, which deleting from process.env does not change.
const SECRET = 'sk-hidden-5e1f0c';
const run = promisify(execFile);

let build: ReturnType<typeof buildForFixtures>;
beforeAll(() => {
  build = buildForFixtures();
}, 120_000);
afterAll(() => build?.cleanup());

async function parentReport(mode: 'hide' | 'keep') {
  const { stdout } = await run(
    process.execPath,
    [fixture('hide-environment.mjs'), build.entryUrl, mode],
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
});
