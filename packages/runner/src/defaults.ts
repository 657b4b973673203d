/**
 * Parent environment variables passed to the child by default (exact names). Pinned by a test:
 * change it only on purpose.
 */
export const DEFAULT_ENV_ALLOWLIST: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'TZ',
  'TMPDIR',
]);

/** Default `timeoutMs` of `runCommand`: 30 s. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Default `killGraceMs` of `runCommand`: time between SIGTERM and SIGKILL to the group. */
export const DEFAULT_KILL_GRACE_MS = 1_000;

/** Default `maxOutputBytes` of `runCommand`: bytes kept in memory per stream (1 MiB). */
export const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;

/** Default `tailBytes` of `runCommand`: bytes of the end of each stream kept as its tail (8 KiB). */
export const DEFAULT_TAIL_BYTES = 8_192;

/** How long the runner waits for the pipes to close after the direct child exited. */
export const DRAIN_WINDOW_MS = 50;

/** The shell that runs a string command. */
export const SHELL_PATH = '/bin/sh';
