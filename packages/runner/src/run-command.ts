import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { execa } from 'execa';
import { buildChildEnv } from './child-env.js';
import { assertExecutable } from './executable.js';
import { openInputFile } from './input-file.js';
import { signalGroup, trackRun } from './live-runs.js';
import { OutputCollector } from './output-collector.js';
import {
  DRAIN_WINDOW_MS,
  type NormalizedRunOptions,
  normalizeRunOptions,
  type RunOptions,
} from './run-options.js';
import { RunnerError } from './runner-error.js';
import { resolveWorkingDir } from './working-dir.js';

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

/**
 * Run one command in bounded time, in its own process group, with an allowlisted environment
 * and bounded output. Rejects only with {@link RunnerError} (`INVALID_OPTIONS`, `CWD_INVALID`,
 * `SPAWN_FAILED`), and then nothing was spawned. When it settles, the group has been sent
 * SIGKILL: no background process of the command outlives the call.
 */
export async function runCommand(options: RunOptions): Promise<RunResult> {
  const normalized = normalizeRunOptions(options);
  const cwd = resolveWorkingDir(normalized.cwd, normalized.allowedRoots);
  const env = buildChildEnv({
    allowlist: normalized.envAllowlist,
    extra: normalized.env,
    parentEnv: normalized.parentEnv,
  });
  assertExecutable(normalized.file, cwd, env.PATH);
  if (normalized.signal?.aborted === true) return notStartedAbortedResult();
  return spawnAndCollect(normalized, cwd, env);
}

function spawnAndCollect(
  options: NormalizedRunOptions,
  cwd: string,
  env: Record<string, string>,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const stdin = stdinOf(options.input);
    let subprocess: ReturnType<typeof startSubprocess>;
    try {
      subprocess = startSubprocess(options, cwd, env, stdin);
    } catch (error) {
      stdin.close();
      reject(spawnFailed(options, error));
      return;
    }
    const pgid = subprocess.pid;
    if (pgid === undefined) {
      stdin.close();
      subprocess.then(
        (result) => reject(spawnFailed(options, result.cause)),
        (error: unknown) => reject(spawnFailed(options, error)),
      );
      return;
    }
    subprocess.then(noop, noop);

    const stdout = new OutputCollector(options.maxOutputBytes, options.tailBytes);
    const stderr = new OutputCollector(options.maxOutputBytes, options.tailBytes);
    let timedOut = false;
    let aborted = false;
    let stdoutLimitExceeded = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let openStreams = 2;
    let settled = false;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    // The escalation timer does not look at child.killed: the group may outlive the direct child.
    const terminate = (signal: NodeJS.Signals): void => {
      signalGroup(pgid, signal);
      if (signal !== 'SIGKILL') {
        graceTimer ??= setTimeout(() => signalGroup(pgid, 'SIGKILL'), options.killGraceMs);
      }
    };
    // Once the direct child has exited the run is complete: a late abort only hastens the
    // group kill that settling does anyway, and does not turn the result into an abort.
    const onAbort = (): void => {
      if (exit !== undefined) return;
      aborted = true;
      terminate('SIGTERM');
    };
    const untrack = trackRun({
      stop(signal) {
        if (exit === undefined) aborted = true;
        terminate(signal);
      },
    });

    const settle = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(graceTimer);
      clearTimeout(drainTimer);
      options.signal?.removeEventListener('abort', onAbort);
      untrack();
      stdin.close();
      // Whatever is left of the group (a background grandchild holding a pipe) dies with the call.
      signalGroup(pgid, 'SIGKILL');
      for (const stream of [subprocess.stdin, subprocess.stdout, subprocess.stderr])
        stream?.destroy();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        aborted,
        stdout: stdout.finish(),
        stderr: stderr.finish(),
        stdoutTail: stdout.tail(),
        stderrTail: stderr.tail(),
        stdoutBytes: stdout.bytes,
        stderrBytes: stderr.bytes,
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        stdoutLimitExceeded,
        durationMs: roundDuration(performance.now() - startedAt),
      });
    };

    const onStreamClosed = (): void => {
      openStreams -= 1;
      if (openStreams === 0 && exit !== undefined) settle();
    };
    const watchOutput = (
      stream: Readable | null,
      collector: OutputCollector,
      isStdout: boolean,
    ): void => {
      if (stream === null) {
        onStreamClosed();
        return;
      }
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (collector.push(chunk) && isStdout && options.stopOnOutputLimit) {
          stdoutLimitExceeded = true;
          signalGroup(pgid, 'SIGKILL');
        }
      });
      stream.on('error', noop);
      stream.once('close', onStreamClosed);
    };
    watchOutput(subprocess.stdout, stdout, true);
    watchOutput(subprocess.stderr, stderr, false);

    subprocess.once('exit', (code, signal) => {
      exit = { code, signal };
      clearTimeout(timeoutTimer);
      if (openStreams === 0) {
        settle();
        return;
      }
      // A background process may hold the pipes open forever: give them a short window, then
      // one more turn of the event loop so data already in the pipes is read, then settle.
      drainTimer = setTimeout(() => setImmediate(settle), DRAIN_WINDOW_MS);
    });

    // Only when no input file could be written: a child that never reads its stdin is fine,
    // EPIPE/ECONNRESET are not failures.
    if (stdin.value === 'pipe') {
      subprocess.stdin?.on('error', noop);
      subprocess.stdin?.end(options.input);
    }

    if (options.timeoutMs > 0) {
      timeoutTimer = setTimeout(() => {
        timedOut = true;
        terminate('SIGTERM');
      }, options.timeoutMs);
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// execa's own timeout, maxBuffer, cleanup and promise do not give our guarantees (they act on the
// direct child only, kill instead of draining, or wait for every pipe holder), so they are all off
// and the process and its streams are driven by spawnAndCollect.
function startSubprocess(
  options: NormalizedRunOptions,
  cwd: string,
  env: Record<string, string>,
  stdin: Stdin,
) {
  return execa(options.file, options.args, {
    cwd,
    env,
    extendEnv: false,
    // execa passes a descriptor number through to child_process.spawn; its types only list 0..9.
    stdin: stdin.value as 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    detached: true,
    cleanup: false,
    reject: false,
    stripFinalNewline: false,
  });
}

// The child's stdin: /dev/null without input; with input, a read-only descriptor of an unlinked
// file holding it (see openInputFile), or a pipe when no such file could be written.
interface Stdin {
  value: 'ignore' | 'pipe' | number;
  /** Our copy of the descriptor (the child has its own): closed once, at spawn failure or settle. */
  close(): void;
}

function stdinOf(input: string | Uint8Array | undefined): Stdin {
  const fd = input === undefined ? undefined : openInputFile(input);
  if (fd === undefined) return { value: input === undefined ? 'ignore' : 'pipe', close: noop };
  let open = true;
  return {
    value: fd,
    close() {
      // Closing twice could close a descriptor number reused by someone else.
      if (!open) return;
      open = false;
      fs.closeSync(fd);
    },
  };
}

function notStartedAbortedResult(): RunResult {
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

function spawnFailed(options: NormalizedRunOptions, cause: unknown): RunnerError {
  const what = options.shell ? options.file : JSON.stringify(options.file);
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new RunnerError({
    code: 'SPAWN_FAILED',
    message: `could not start ${what}: ${reason}`,
    cause,
  });
}

// Sub-microsecond digits of performance.now() are noise; 0.1 ms keeps records readable.
function roundDuration(milliseconds: number): number {
  return Math.round(milliseconds * 10) / 10;
}

function noop(): void {}
