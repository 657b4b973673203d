import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { buildChildEnv } from './child-env.js';
import { decodeOutput } from './decode-output.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from './defaults.js';
import { assertExecutable } from './executable.js';
import { chunkBytes } from './output-collector.js';
import { type ProcessGroup, startProcessGroup } from './process-group.js';
import { normalizeRunOptions, type RunOptions, SHELL_PATH } from './run-options.js';
import { RunnerError } from './runner-error.js';
import { resolveWorkingDir } from './working-dir.js';

/** Options of {@link startWorker}: those of `runCommand` that make sense for a long-lived child. */
export interface WorkerOptions
  extends Pick<
    RunOptions,
    'command' | 'cwd' | 'allowedRoots' | 'envAllowlist' | 'env' | 'parentEnv' | 'killGraceMs'
  > {
  /**
   * Longest stdout line kept. A longer line is not delivered: `onStdoutOverflow` is called (the
   * caller decides whether to stop the worker). stderr lines are cut to this length.
   * @default DEFAULT_MAX_OUTPUT_BYTES (1 MiB)
   */
  maxLineBytes?: number | undefined;
  /** Called with each complete stdout line (without its newline). */
  onStdoutLine?: ((line: string) => void) | undefined;
  /** Called with each complete stderr line (without its newline, cut to `maxLineBytes`). */
  onStderrLine?: ((line: string) => void) | undefined;
  /** Called once per stdout line that passes `maxLineBytes`, with the bytes seen so far. */
  onStdoutOverflow?: ((bytes: number) => void) | undefined;
}

/** How a worker's process ended. */
export interface WorkerExit {
  /** Exit code of the worker command, or null when it was ended by a signal. */
  exitCode: number | null;
  /** Signal that ended the worker command, or null. */
  signal: NodeJS.Signals | null;
  /** Wall time from start to exit, in milliseconds, rounded to 0.1 ms. */
  durationMs: number;
}

/** A running worker: one long-lived child in its own process group, spoken to in lines. */
export interface Worker {
  /** The pid of the group leader (the process group id). */
  readonly pid: number;
  /** Resolves once, when the worker has exited and its group has been killed. Never rejects. */
  readonly exited: Promise<WorkerExit>;
  /** True once the worker process has exited. */
  readonly hasExited: boolean;
  /** Writes `line` and a newline to the worker's stdin. Returns false when the worker has exited. */
  writeLine(line: string): boolean;
  /**
   * Ends the worker: closes its stdin (a well-behaved worker exits on EOF), then after
   * `closeGraceMs` SIGTERM to the group, then SIGKILL after `killGraceMs`. Idempotent.
   * @param closeGraceMs - how long EOF alone may take. @default 100
   */
  stop(closeGraceMs?: number): Promise<WorkerExit>;
  /** SIGTERM to the group now, SIGKILL after `killGraceMs`. Resolves when it has exited. */
  kill(): Promise<WorkerExit>;
  /**
   * Reads, now and synchronously, what the worker has already written to its stdout, and hands
   * each complete line to `onStdoutLine` before returning (lines otherwise come on a later turn of
   * the event loop). A caller that must never take a line written before a request for that
   * request's answer calls it just before `writeLine`. Returns false when it could not read
   * (then wait for a poll phase of the event loop instead). Optional so that stand-ins for a
   * worker (tests) need not have it; a worker from `startWorker` always does.
   */
  readPendingOutput?(): boolean;
}

// The group leader: a watchdog shell that runs the command with the real stdin/stdout/stderr and
// holds the read end of a pipe (fd 3) whose only writer is the agent. When the agent dies, even by
// SIGKILL, the pipe reaches EOF and the watchdog kills the whole group: no worker outlives its
// agent. When the command exits, the leader exits with its status (re-raising a signal).
const WATCHDOG = [
  'exec 4<&0',
  '(read _ <&3; kill -KILL 0) </dev/null >/dev/null 2>&1 4<&- &',
  'w=$!',
  '"$@" 0<&4 3<&- 4<&- &',
  'c=$!',
  'exec 3<&- 4<&- 0</dev/null',
  'wait $c; s=$?',
  'kill $w 2>/dev/null',
  '[ $s -gt 128 ] && kill -$((s - 128)) $$',
  'exit $s',
].join('\n');

/**
 * Starts `command` as a long-lived worker with the runner's rules: option checks, allowlisted
 * environment, working-dir check, its own process group, killed on the agent's exit or signals
 * (and, through a watchdog leader, when the agent is SIGKILLed). Rejects only with
 * {@link RunnerError} (`INVALID_OPTIONS`, `CWD_INVALID`, `SPAWN_FAILED`), and then nothing runs.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const normalized = normalizeRunOptions({
    command: options.command,
    cwd: options.cwd,
    allowedRoots: options.allowedRoots,
    envAllowlist: options.envAllowlist,
    env: options.env,
    parentEnv: options.parentEnv,
    killGraceMs: options.killGraceMs,
    maxOutputBytes: maxLineBytes,
  });
  const cwd = resolveWorkingDir(normalized.cwd, normalized.allowedRoots);
  const env = buildChildEnv({
    allowlist: normalized.envAllowlist,
    extra: normalized.env,
    parentEnv: normalized.parentEnv,
  });
  assertExecutable(normalized.file, cwd, env.PATH);

  const startedAt = performance.now();
  let resolveExited!: (exit: WorkerExit) => void;
  const exited = new Promise<WorkerExit>((resolve) => {
    resolveExited = resolve;
  });
  let group: ProcessGroup;
  try {
    // fd 3 is the pipe whose EOF tells the watchdog that the agent is gone.
    group = await startProcessGroup(
      {
        file: SHELL_PATH,
        args: ['-c', WATCHDOG, 'soong-agent-worker', normalized.file, ...normalized.args],
        cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
        killGraceMs: normalized.killGraceMs,
      },
      {
        onSettle: (exit) =>
          resolveExited({
            exitCode: exit.code,
            signal: exit.signal,
            durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
          }),
      },
    );
  } catch (error) {
    throw spawnFailed(normalized.file, error);
  }
  const stdoutChunk = readLines(group.stdout, maxLineBytes, {
    line: (line) => options.onStdoutLine?.(line),
    overflow: (bytes) => options.onStdoutOverflow?.(bytes),
  });
  readLines(group.stderr, maxLineBytes, {
    line: (line) => options.onStderrLine?.(line),
    overflow: noop,
    keepHead: true,
  });

  const stdin = group.stdin;
  let stopping: Promise<WorkerExit> | undefined;
  return {
    pid: group.pid,
    exited,
    get hasExited() {
      return group.exit !== undefined;
    },
    writeLine(line) {
      if (group.exit !== undefined || stdin === null || stdin.destroyed) return false;
      stdin.write(`${line}\n`);
      return true;
    },
    stop(closeGraceMs = 100) {
      stopping ??= (() => {
        stdin?.end();
        const timer = setTimeout(() => group.terminate('SIGTERM'), closeGraceMs);
        void exited.then(() => clearTimeout(timer));
        return exited;
      })();
      return stopping;
    },
    kill() {
      if (group.exit === undefined) group.terminate('SIGTERM');
      return exited;
    },
    readPendingOutput() {
      return readPendingNow(group.stdout, stdoutChunk);
    },
  };
}

const PENDING_READ_BYTES = 64 * 1024;
let pendingReadBuffer: Buffer | undefined;

// Drains the pipe behind `stream` with read(2) on its descriptor, which libuv keeps non-blocking
// (EAGAIN: nothing more), and hands each chunk to the same line splitter as a 'data' event. Only
// when nothing read earlier is still buffered in the stream, so lines keep their order.
function readPendingNow(stream: Readable | null, onChunk: ((chunk: Buffer) => void) | undefined) {
  const fd = descriptorOf(stream);
  if (stream === null || onChunk === undefined || fd === undefined) return false;
  if (stream.readableLength > 0 || !stream.readableFlowing || stream.destroyed) return false;
  pendingReadBuffer ??= Buffer.allocUnsafe(PENDING_READ_BYTES);
  // EAGAIN is the common answer: skip building a stack trace for it.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (;;) {
      const bytes = fs.readSync(fd, pendingReadBuffer, 0, PENDING_READ_BYTES, null);
      // End of file: left for the stream to see, as it would have.
      if (bytes === 0) return true;
      onChunk(Buffer.from(pendingReadBuffer.subarray(0, bytes)));
    }
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EAGAIN';
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

function descriptorOf(stream: Readable | null): number | undefined {
  const fd = (stream as { _handle?: { fd?: unknown } } | null)?._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

interface LineSink {
  line(line: string): void;
  overflow(bytes: number): void;
  /** Deliver the head of an over-long line (cut) instead of dropping it. */
  keepHead?: boolean;
}

// Splits a stream into lines, holding at most `maxLineBytes` of an unfinished line. Returns the
// handler of one chunk (also fed by readPendingNow).
function readLines(
  stream: Readable | null,
  maxLineBytes: number,
  sink: LineSink,
): ((chunk: Buffer) => void) | undefined {
  if (stream === null) return undefined;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overflowed = false;
  const push = (part: Buffer): void => {
    if (overflowed) {
      pendingBytes += part.length;
      return;
    }
    const room = maxLineBytes - pendingBytes;
    if (part.length > room) {
      if (room > 0) pending.push(part.subarray(0, room));
      pendingBytes += part.length;
      overflowed = true;
      if (!sink.keepHead) sink.overflow(pendingBytes);
      return;
    }
    pending.push(part);
    pendingBytes += part.length;
  };
  const endLine = (): void => {
    if (!overflowed || sink.keepHead) sink.line(decodeOutput(Buffer.concat(pending)));
    pending = [];
    pendingBytes = 0;
    overflowed = false;
  };
  // A string chunk (a stream with an encoding set; seen under Bun): counted as its UTF-8 bytes.
  const onChunk = (data: Buffer | string): void => {
    const chunk = chunkBytes(data);
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      push(chunk.subarray(start, newline));
      endLine();
      start = newline + 1;
    }
    if (start < chunk.length) push(chunk.subarray(start));
  };
  stream.on('data', onChunk);
  stream.once('close', () => {
    if (pendingBytes > 0) endLine();
  });
  return onChunk;
}

function spawnFailed(file: string, cause: unknown): RunnerError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new RunnerError({
    code: 'SPAWN_FAILED',
    message: `could not start ${JSON.stringify(file)}: ${reason}`,
    cause,
  });
}

function noop(): void {}
