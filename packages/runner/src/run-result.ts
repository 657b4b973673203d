import type { OutputCollector } from './output-collector.js';

/** Everything that happened to one run. The child's behaviour is always data, never an exception. */
export interface RunResult {
  /** Exit code of the direct child, or null when it was ended by a signal (or never started). */
  exitCode: number | null;
  /** Signal that ended the direct child (e.g. `'SIGTERM'`, `'SIGKILL'`), or null. */
  signal: NodeJS.Signals | null;
  /** True when `timeoutMs` expired and the runner signalled the group. */
  timedOut: boolean;
  /** True when `signal` aborted the run (or `killAllRuns` stopped it, or it was aborted before start). */
  aborted: boolean;
  /** The kept part of stdout (at most `maxOutputBytes` bytes), decoded as UTF-8. */
  stdout: string;
  /** The kept part of stderr (at most `maxOutputBytes` bytes), decoded as UTF-8. */
  stderr: string;
  /**
   * The last `tailBytes` bytes of stdout, decoded as UTF-8 (a character cut at the start of the
   * window is left out). Equals the end of `stdout` when nothing was truncated.
   */
  stdoutTail: string;
  /**
   * The last `tailBytes` bytes of stderr, decoded as UTF-8: the real end of the stream even
   * after a flood past `maxOutputBytes`.
   */
  stderrTail: string;
  /** All bytes the child wrote to stdout, kept or not. */
  stdoutBytes: number;
  /** All bytes the child wrote to stderr, kept or not. */
  stderrBytes: number;
  /** True when stdout produced more than `maxOutputBytes` bytes. */
  stdoutTruncated: boolean;
  /** True when stderr produced more than `maxOutputBytes` bytes. */
  stderrTruncated: boolean;
  /** True when `stopOnOutputLimit` killed the group because stdout passed `maxOutputBytes`. */
  stdoutLimitExceeded: boolean;
  /** Wall time from spawn to settle, in milliseconds, rounded to 0.1 ms. */
  durationMs: number;
}

/** The result of a run aborted before anything was spawned. */
export function notStartedAbortedResult(): RunResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: true,
    stdout: '',
    stderr: '',
    stdoutTail: '',
    stderrTail: '',
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    stdoutLimitExceeded: false,
    durationMs: 0,
  };
}

// Sub-microsecond digits of performance.now() are noise; 0.1 ms keeps records readable.
export function roundDuration(milliseconds: number): number {
  return Math.round(milliseconds * 10) / 10;
}

/**
 * The result of a run that ended as `ended`, from its collectors and what the runner did to it.
 * @internal
 */
export function collectedResult(
  ended: { code: number | null; signal: NodeJS.Signals | null },
  done: { timedOut: boolean; aborted: boolean; stdoutLimitExceeded: boolean },
  stdout: OutputCollector,
  stderr: OutputCollector,
  startedAt: number,
): RunResult {
  return {
    exitCode: ended.code,
    signal: ended.signal,
    timedOut: done.timedOut,
    aborted: done.aborted,
    stdout: stdout.finish(),
    stderr: stderr.finish(),
    stdoutTail: stdout.tail(),
    stderrTail: stderr.tail(),
    stdoutBytes: stdout.bytes,
    stderrBytes: stderr.bytes,
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    stdoutLimitExceeded: done.stdoutLimitExceeded,
    durationMs: roundDuration(performance.now() - startedAt),
  };
}
