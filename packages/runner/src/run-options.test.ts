import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { RUN_LIMITS } from './defaults.js';
import { type RunOptions, runCommand } from './index.js';
import { RunnerError } from './runner-error.js';

/** Options that would create `marker` if anything were spawned, merged with `overrides`. */
function markerOptions(marker: string, overrides: Record<string, unknown>): RunOptions {
  return { command: `touch '${marker}'`, ...overrides } as RunOptions;
}

describe('runCommand options', () => {
  const invalid: [string, Record<string, unknown>][] = [
    ['an empty command string', { command: '' }],
    ['a whitespace-only command string', { command: '  \n ' }],
    ['an empty argv', { command: [] }],
    ['an empty argv[0]', { command: [''] }],
    ['a non-string argv element', { command: ['echo', 1] }],
    ['a command that is neither string nor array', { command: 42 }],
    ['a NUL byte in the command', { command: 'echo a\0b' }],
    ['a negative timeoutMs', { timeoutMs: -1 }],
    ['a NaN timeoutMs', { timeoutMs: Number.NaN }],
    ['an infinite timeoutMs', { timeoutMs: Number.POSITIVE_INFINITY }],
    ['a timeoutMs beyond what timers can hold', { timeoutMs: 2 ** 31 }],
    ['a string timeoutMs', { timeoutMs: '100' }],
    ['a timeoutMs too short to start anything', { timeoutMs: 1e-297 }],
    ['a timeoutMs just under the minimum', { timeoutMs: RUN_LIMITS.timeoutMs.min - 0.5 }],
    ['a killGraceMs beyond what timers can hold', { killGraceMs: 2_147_483_648 }],
    ['a killGraceMs over its maximum', { killGraceMs: RUN_LIMITS.killGraceMs.max + 1 }],
    ['a maxOutputBytes past the V8 string limit', { maxOutputBytes: 2e9 }],
    ['a maxOutputBytes over its maximum', { maxOutputBytes: RUN_LIMITS.maxOutputBytes.max + 1 }],
    ['a tailBytes over its maximum', { tailBytes: RUN_LIMITS.tailBytes.max + 1 }],
    ['a negative killGraceMs', { killGraceMs: -5 }],
    ['a NaN killGraceMs', { killGraceMs: Number.NaN }],
    ['a negative maxOutputBytes', { maxOutputBytes: -1 }],
    ['a fractional maxOutputBytes', { maxOutputBytes: 1.5 }],
    ['a NaN maxOutputBytes', { maxOutputBytes: Number.NaN }],
    ['a negative tailBytes', { tailBytes: -1 }],
    ['a fractional tailBytes', { tailBytes: 2.5 }],
    ['a non-string env value', { env: { COUNT: 3 } }],
    ['an undefined env value', { env: { MISSING: undefined } }],
    ['an env name with =', { env: { 'A=B': 'x' } }],
    ['an env that is an array', { env: ['A=B'] }],
    ['a NUL byte in an env value', { env: { A: 'x\0y' } }],
    ['an envAllowlist that is a string', { envAllowlist: 'PATH' }],
    ['an empty name in envAllowlist', { envAllowlist: ['PATH', ''] }],
    ['an empty allowedRoots', { allowedRoots: [] }],
    ['a non-string allowed root', { allowedRoots: [1] }],
    ['an empty cwd', { cwd: '' }],
    ['an input that is a number', { input: 5 }],
    ['a non-boolean stopOnOutputLimit', { stopOnOutputLimit: 'yes' }],
    ['a signal that is not an AbortSignal', { signal: { aborted: false } }],
  ];

  it.each(invalid)(
    'rejects with INVALID_OPTIONS and spawns nothing when given %s',
    async (_, overrides) => {
      const marker = path.join(makeTempDir(), 'marker');
      const error = await runCommand(markerOptions(marker, overrides)).catch(
        (caught: unknown) => caught,
      );
      expect(RunnerError.isInstance(error)).toBe(true);
      expect((error as RunnerError).code).toBe('INVALID_OPTIONS');
      expect(fs.existsSync(marker)).toBe(false);
    },
  );

  it('rejects with INVALID_OPTIONS when options is not an object', async () => {
    const error = await runCommand(null as unknown as RunOptions).catch(
      (caught: unknown) => caught,
    );
    expect((error as RunnerError).code).toBe('INVALID_OPTIONS');
  });

  it('names the option, the value and the fix in the message when an env value is not a string', async () => {
    const error = await runCommand({
      command: 'true',
      env: { COUNT: 3 as unknown as string },
    }).catch((caught: unknown) => caught);
    expect((error as RunnerError).message).toBe(
      'env.COUNT must be a string, got 3: convert it, e.g. String(value) or JSON.stringify(value)',
    );
  });

  it('names the option, the value and the fix in the message when timeoutMs is negative', async () => {
    const error = await runCommand({ command: 'true', timeoutMs: -1 }).catch(
      (caught: unknown) => caught,
    );
    expect((error as RunnerError).message).toBe(
      'timeoutMs must be a number of milliseconds from 100 to 2147483647, or 0 for no timeout, got -1',
    );
  });

  it('accepts options given explicitly as undefined', async () => {
    const result = await runCommand({
      command: 'echo ok',
      cwd: undefined,
      allowedRoots: undefined,
      env: undefined,
      input: undefined,
      timeoutMs: undefined,
      killGraceMs: undefined,
      maxOutputBytes: undefined,
      tailBytes: undefined,
      stopOnOutputLimit: undefined,
      signal: undefined,
    });
    expect(result.stdout).toBe('ok\n');
  }, 20_000);

  it('accepts maxOutputBytes 0 and keeps nothing while counting everything', async () => {
    const result = await runCommand({ command: 'echo hello', maxOutputBytes: 0 });
    expect(result).toMatchObject({
      stdout: '',
      stdoutBytes: 6,
      stdoutTruncated: true,
      exitCode: 0,
    });
  }, 20_000);
});
