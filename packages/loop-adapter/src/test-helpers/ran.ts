import type { RunResult } from '@soong-agent/runner';
import type { HookRunnerOutcome } from '../decide-hook-run.js';

/** A runner outcome for the pure decide functions: exit 0, empty streams, unless overridden. */
export function ran(overrides: Partial<RunResult> = {}): HookRunnerOutcome {
  const stdout = overrides.stdout ?? '';
  const stderr = overrides.stderr ?? '';
  return {
    result: {
      exitCode: 0,
      signal: null,
      timedOut: false,
      aborted: false,
      stdout,
      stderr,
      stdoutTail: stdout,
      stderrTail: stderr,
      stdoutBytes: Buffer.byteLength(stdout),
      stderrBytes: Buffer.byteLength(stderr),
      stdoutTruncated: false,
      stderrTruncated: false,
      stdoutLimitExceeded: false,
      durationMs: 12.34,
      ...overrides,
    },
  };
}
