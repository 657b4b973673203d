import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from './run-command.js';
import { RunnerError } from './runner-error.js';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return RunnerError.isInstance(error) ? error.code : undefined;
}

/** A script that would create `marker` when run, with the given mode. */
function script(dir: string, name: string, mode: number): { file: string; marker: string } {
  const file = path.join(dir, name);
  const marker = path.join(dir, `${name}.ran`);
  fs.writeFileSync(file, `#!/bin/sh\ntouch '${marker}'\necho ran\n`);
  fs.chmodSync(file, mode);
  return { file, marker };
}

describe('runCommand executable check', () => {
  it('rejects with SPAWN_FAILED when an argv executable does not exist', async () => {
    const dir = makeTempDir();
    expect(await codeOf(runCommand({ command: [path.join(dir, 'missing')] }))).toBe('SPAWN_FAILED');
  });

  it('rejects with SPAWN_FAILED when a bare name is not on the child PATH', async () => {
    expect(await codeOf(runCommand({ command: ['soong-no-such-program-xyz'] }))).toBe(
      'SPAWN_FAILED',
    );
  });

  it('rejects with SPAWN_FAILED and runs nothing when the file has no x bit (also as root)', async () => {
    const { file, marker } = script(makeTempDir(), 'tool.sh', 0o644);
    expect(await codeOf(runCommand({ command: [file] }))).toBe('SPAWN_FAILED');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('rejects with SPAWN_FAILED when the argv executable is a directory', async () => {
    expect(await codeOf(runCommand({ command: [makeTempDir()] }))).toBe('SPAWN_FAILED');
  });

  it('searches the PATH of the child env, not the parent', async () => {
    const dir = makeTempDir();
    const { marker } = script(dir, 'only-here', 0o755);
    const result = await runCommand({
      command: ['only-here'],
      env: { PATH: `${dir}:/usr/bin:/bin` },
    });
    expect(result.stdout).toBe('ran\n');
    expect(fs.existsSync(marker)).toBe(true);
    expect(await codeOf(runCommand({ command: ['only-here'] }))).toBe('SPAWN_FAILED');
  }, 20_000);

  it('resolves a relative argv path against cwd', async () => {
    const dir = makeTempDir();
    script(dir, 'local.sh', 0o755);
    const result = await runCommand({ command: ['./local.sh'], cwd: dir });
    expect(result.stdout).toBe('ran\n');
  }, 20_000);

  it('rejects with SPAWN_FAILED when the system refuses to start the process', async () => {
    // Arguments beyond the kernel's limit make exec fail with E2BIG.
    const error = await runCommand({ command: ['/bin/echo', 'x'.repeat(4_000_000)] }).catch(
      (caught: unknown) => caught,
    );
    expect(RunnerError.isInstance(error) && error.code).toBe('SPAWN_FAILED');
  }, 20_000);

  it('returns a result, not an error, when a shell string names a missing program', async () => {
    const result = await runCommand({ command: `'${path.join(makeTempDir(), 'missing')}'` });
    expect(result.exitCode).toBe(127);
  }, 20_000);
});
