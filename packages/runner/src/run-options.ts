import {
  DEFAULT_ENV_ALLOWLIST,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TAIL_BYTES,
  DEFAULT_TIMEOUT_MS,
  describeRunLimit,
  RUN_LIMITS,
  type RunLimitName,
  withinRunLimit,
} from './defaults.js';
import { RunnerError } from './runner-error.js';

/** The shell that runs a string command. */
export const SHELL_PATH = '/bin/sh';

/** How long the runner waits for the pipes to close after the direct child exited. */
export const DRAIN_WINDOW_MS = 50;

/** Options of `runCommand`. */
export interface RunOptions {
  /** A string runs under `/bin/sh -c`; an array is argv (no shell). */
  command: string | readonly string[];
  /**
   * Working dir; must exist and be a directory. A relative path resolves against `process.cwd()`.
   * @default process.cwd()
   */
  cwd?: string | undefined;
  /**
   * When given, the real path of `cwd` (symlinks resolved) must lie at or under the real path of
   * one of these roots (whole path segments), else `CWD_INVALID`. Put the project dir first: when
   * it lies below a git root that holds `cwd`, the error names that root and `--project`.
   * @default undefined (no root check)
   */
  allowedRoots?: readonly string[] | undefined;
  /**
   * Parent variables (exact names) the child may see.
   * @default DEFAULT_ENV_ALLOWLIST
   */
  envAllowlist?: readonly string[] | undefined;
  /**
   * Extra variables, applied over the allowlisted ones, passed as given.
   * @default {}
   */
  env?: Readonly<Record<string, string>> | undefined;
  /**
   * The environment allowlisted variables are taken from.
   * @default process.env
   */
  parentEnv?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * The child's stdin: a read-only, already unlinked file (mode 0600, in `/dev/shm` when there is
   * one) holding these bytes, so `/dev/stdin` can be reopened; the child sees EOF at the end. A
   * child that does not read it is fine.
   * @default undefined (stdin is /dev/null)
   */
  input?: string | Uint8Array | undefined;
  /**
   * On expiry SIGTERM goes to the process group, then SIGKILL after `killGraceMs`. 0 = no timeout.
   * @default DEFAULT_TIMEOUT_MS (30000)
   */
  timeoutMs?: number | undefined;
  /**
   * Time between SIGTERM and SIGKILL to the group, on timeout or abort.
   * @default DEFAULT_KILL_GRACE_MS (1000)
   */
  killGraceMs?: number | undefined;
  /**
   * Bytes kept in memory per stream; the rest is drained and counted.
   * @default DEFAULT_MAX_OUTPUT_BYTES (1 MiB)
   */
  maxOutputBytes?: number | undefined;
  /**
   * Bytes of the *end* of each stream kept as `stdoutTail` / `stderrTail`, whatever
   * `maxOutputBytes` kept of the start (a rolling window: memory stays bounded). 0 = no tail.
   * @default DEFAULT_TAIL_BYTES (8192)
   */
  tailBytes?: number | undefined;
  /**
   * When true, the group is killed (SIGKILL) as soon as stdout passes `maxOutputBytes`, and the
   * result has `stdoutLimitExceeded: true`. When false, the output is drained and counted.
   * @default false
   */
  stopOnOutputLimit?: boolean | undefined;
  /**
   * Aborting kills the group (SIGTERM, SIGKILL after `killGraceMs`) and the result has
   * `aborted: true`. An already-aborted signal spawns nothing and returns an aborted result.
   * @default undefined
   */
  signal?: AbortSignal | undefined;
  /**
   * Spawn through the runner's spawn helper process (true) or straight from this process (false).
   * See the README's "Spawn helper" section for what each costs.
   * @default the runner-wide setting of `setSpawnHelper` (true unless turned off)
   */
  spawnHelper?: boolean | undefined;
}

/** Options after validation, defaults filled in. */
export interface NormalizedRunOptions {
  file: string;
  args: string[];
  shell: boolean;
  cwd: string | undefined;
  allowedRoots: readonly string[] | undefined;
  envAllowlist: readonly string[];
  env: Readonly<Record<string, string>>;
  parentEnv: Readonly<Record<string, string | undefined>>;
  input: string | Uint8Array | undefined;
  timeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  tailBytes: number;
  stopOnOutputLimit: boolean;
  signal: AbortSignal | undefined;
  /** undefined: the runner-wide setting. */
  spawnHelper: boolean | undefined;
}

/** Validate `options` (throws `INVALID_OPTIONS`) and fill in the defaults. */
export function normalizeRunOptions(options: RunOptions): NormalizedRunOptions {
  if (typeof options !== 'object' || options === null) {
    throw invalid(`options must be an object, got ${describe(options)}: pass { command: ... }`);
  }
  const { file, args, shell } = normalizeCommand(options.command);
  return {
    file,
    args,
    shell,
    cwd: optionalPathString('cwd', options.cwd),
    allowedRoots: normalizeAllowedRoots(options.allowedRoots),
    envAllowlist: normalizeAllowlist(options.envAllowlist),
    env: normalizeEnv(options.env),
    parentEnv: normalizeParentEnv(options.parentEnv),
    input: normalizeInput(options.input),
    timeoutMs: bounded('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS),
    killGraceMs: bounded('killGraceMs', options.killGraceMs, DEFAULT_KILL_GRACE_MS),
    maxOutputBytes: bounded('maxOutputBytes', options.maxOutputBytes, DEFAULT_MAX_OUTPUT_BYTES),
    tailBytes: bounded('tailBytes', options.tailBytes, DEFAULT_TAIL_BYTES),
    stopOnOutputLimit: optionalBoolean('stopOnOutputLimit', options.stopOnOutputLimit),
    signal: normalizeSignal(options.signal),
    spawnHelper:
      options.spawnHelper === undefined
        ? undefined
        : optionalBoolean('spawnHelper', options.spawnHelper),
  };
}

function normalizeCommand(command: unknown): { file: string; args: string[]; shell: boolean } {
  if (typeof command === 'string') {
    if (command.trim() === '') {
      throw invalid(`command is an empty string: pass a shell command such as "echo hi"`);
    }
    noNul('command', command);
    return { file: SHELL_PATH, args: ['-c', command], shell: true };
  }
  if (Array.isArray(command)) {
    if (command.length === 0) {
      throw invalid(`command is an empty array: pass argv such as ["git", "status"]`);
    }
    command.forEach((part: unknown, index) => {
      if (typeof part !== 'string') {
        throw invalid(
          `command[${index}] must be a string, got ${describe(part)}: pass argv as strings`,
        );
      }
      noNul(`command[${index}]`, part);
    });
    const [file, ...args] = command as string[];
    if (file === undefined || file === '') {
      throw invalid(`command[0] is empty: the first argv element names the executable`);
    }
    return { file, args, shell: false };
  }
  throw invalid(
    `command must be a shell string or an argv array, got ${describe(command)}: pass "echo hi" or ["echo", "hi"]`,
  );
}

function optionalPathString(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw invalid(`${name} must be a non-empty path string, got ${describe(value)}`);
  }
  noNul(name, value);
  return value;
}

function normalizeAllowedRoots(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid(
      `allowedRoots must be a non-empty array of directories, got ${describe(value)}: pass the roots, or omit it for no root check`,
    );
  }
  return value.map((root: unknown, index) => {
    const checked = optionalPathString(`allowedRoots[${index}]`, root);
    if (checked === undefined) throw invalid(`allowedRoots[${index}] must be a path string`);
    return checked;
  });
}

function normalizeAllowlist(value: unknown): readonly string[] {
  if (value === undefined) return DEFAULT_ENV_ALLOWLIST;
  if (!Array.isArray(value)) {
    throw invalid(`envAllowlist must be an array of variable names, got ${describe(value)}`);
  }
  value.forEach((name: unknown, index) => {
    if (typeof name !== 'string' || !isVariableName(name)) {
      throw invalid(
        `envAllowlist[${index}] must be a variable name (non-empty, no "=" or NUL), got ${describe(name)}`,
      );
    }
  });
  return value as string[];
}

function normalizeEnv(value: unknown): Readonly<Record<string, string>> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`env must be an object of string values, got ${describe(value)}`);
  }
  for (const [name, variable] of Object.entries(value)) {
    if (!isVariableName(name)) {
      throw invalid(
        `env has an invalid variable name ${JSON.stringify(name)}: names are non-empty, without "=" or NUL`,
      );
    }
    if (typeof variable !== 'string') {
      throw invalid(
        `env.${name} must be a string, got ${describe(variable)}: convert it, e.g. String(value) or JSON.stringify(value)`,
      );
    }
    noNul(`env.${name}`, variable);
  }
  return value as Record<string, string>;
}

function normalizeParentEnv(value: unknown): Readonly<Record<string, string | undefined>> {
  if (value === undefined) return process.env;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`parentEnv must be an object like process.env, got ${describe(value)}`);
  }
  return value as Record<string, string | undefined>;
}

function normalizeInput(value: unknown): string | Uint8Array | undefined {
  if (value === undefined || typeof value === 'string' || value instanceof Uint8Array) return value;
  throw invalid(`input must be a string or a Uint8Array, got ${describe(value)}`);
}

/** A numeric option checked against the shared bounds table (`RUN_LIMITS`). */
function bounded(name: RunLimitName, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const limit = RUN_LIMITS[name];
  if (!withinRunLimit(limit, value)) {
    throw invalid(`${name} must be ${describeRunLimit(limit)}, got ${describe(value)}`);
  }
  return value;
}

function optionalBoolean(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean')
    throw invalid(`${name} must be true or false, got ${describe(value)}`);
  return value;
}

function normalizeSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as AbortSignal).aborted !== 'boolean' ||
    typeof (value as AbortSignal).addEventListener !== 'function'
  ) {
    throw invalid(`signal must be an AbortSignal, got ${describe(value)}: pass controller.signal`);
  }
  return value as AbortSignal;
}

function isVariableName(name: string): boolean {
  return name !== '' && !name.includes('=') && !name.includes('\0');
}

function noNul(name: string, value: string): void {
  if (value.includes('\0')) {
    throw invalid(
      `${name} contains a NUL byte, which no process argument or variable can hold: remove it`,
    );
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return typeof value === 'object'
    ? `an object (${value.constructor?.name ?? 'null prototype'})`
    : typeof value;
}

function invalid(message: string): RunnerError {
  return new RunnerError({ code: 'INVALID_OPTIONS', message });
}
