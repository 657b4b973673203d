import type { RunResult } from '@soong-agent/runner';
import { type HookRunOutcome, outcomeOfRunResult } from '../decide-hook-run.js';

/**
 * The outcome of a spawned hook for the pure decide function: exit 0, empty streams, unless
 * overridden (timeout 5 s, max_output_bytes 1024).
 */
export function ran(overrides: Partial<RunResult> = {}): HookRunOutcome {
  const stdout = overrides.stdout ?? '';
  const stderr = overrides.stderr ?? '';
  return outcomeOfRunResult(
    {
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
    { timeoutSec: 5, maxOutputBytes: 1024 },
  );
}
