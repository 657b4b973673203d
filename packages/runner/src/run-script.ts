import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { stdinOf } from './input-file.js';
import { OutputCollector } from './output-collector.js';
import { type GroupExit, type ProcessGroup, startProcessGroup } from './process-group.js';
import type { RunPlan } from './run-plan.js';
import { collectedResult, type RunResult } from './run-result.js';
import {
  redirectPath,
  type ShellFreeScript,
  type ShellFreeStep,
  SPECIAL_BUILTINS,
  shellSignalReport,
} from './shell-free.js';

// A shell command of several simple commands (`cat >/dev/null; echo . >>log`), run as dash would
// run it but without dash (see shell-free.ts for the subset): each program step in its own
// process group, one after the other, with the run's stdin descriptor shared by all (as the shell's
// children share it), the redirections opened here in the order written, and the builtins run here.
// The run's timeout, abort, stop and output limit act on the step running and start no other.

/** Where one of a step's descriptors 0–2 goes: the run's own stdin or pipes, or a file opened here. */
type Slot = 'stdin' | 'stdout' | 'stderr' | number;

/**
 * Run `plan.exec`'s steps. `runUnderShell` runs the plan under the shell instead: taken when the
 * first step cannot be spawned (nothing has run yet), or when the input could not be put in a file
 * the steps can share.
 */
export function runScript(
  plan: RunPlan & { exec: ShellFreeScript },
  signal: AbortSignal | undefined,
  onStarted: ((pid: number, stop: (signal: NodeJS.Signals) => void) => void) | undefined,
  runUnderShell: () => Promise<RunResult>,
): Promise<RunResult> {
  const stdin = stdinOf(plan.input);
  // A pipe is written once, for one reader: a list's steps need the input file.
  if (stdin.value === 'pipe') {
    stdin.close();
    return runUnderShell();
  }
  return new Promise((resolve) => {
    const startedAt = performance.now();
    const stdout = new OutputCollector(plan.maxOutputBytes, plan.tailBytes);
    const stderr = new OutputCollector(plan.maxOutputBytes, plan.tailBytes);
    // dash names itself in its messages by its argv[0], and numbers the one line.
    const shellName = `${plan.file}: 1: `;
    let timedOut = false;
    let aborted = false;
    let stdoutLimitExceeded = false;
    let finished = false;
    // Set once the run is told to end: the step running gets the signal and no other starts, and
    // the run ends as the shell would have, killed by it.
    let halted: NodeJS.Signals | undefined;
    let current: ProcessGroup | undefined;
    let status = 0;
    let index = 0;

    const halt = (haltSignal: NodeJS.Signals): void => {
      halted ??= haltSignal;
      current?.terminate(haltSignal);
    };
    const toStdout = (data: string | Uint8Array): void => {
      if (stdout.push(data) && plan.stopOnOutputLimit && !stdoutLimitExceeded) {
        stdoutLimitExceeded = true;
        halt('SIGKILL');
      }
    };
    const write = (slot: Slot, text: string): boolean => {
      if (text === '') return true;
      if (slot === 'stdout') toStdout(text);
      else if (slot === 'stderr') stderr.push(text);
      else if (slot === 'stdin') return false;
      else {
        try {
          const bytes = Buffer.from(text, 'utf8');
          let written = 0;
          while (written < bytes.length) written += fs.writeSync(slot, bytes, written);
        } catch {
          return false;
        }
      }
      return true;
    };
    const onAbort = (): void => {
      if (finished) return;
      aborted = true;
      halt('SIGTERM');
    };
    const stop = (stopSignal: NodeJS.Signals): void => {
      if (finished) return;
      aborted = true;
      halt(stopSignal);
    };
    const timeoutTimer =
      plan.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            halt('SIGTERM');
          }, plan.timeoutMs)
        : undefined;
    signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (exit: GroupExit): void => {
      finished = true;
      clearTimeout(timeoutTimer);
      signal?.removeEventListener('abort', onAbort);
      stdin.close();
      const ended = halted === undefined ? exit : { code: null, signal: halted };
      resolve(
        collectedResult(
          ended,
          { timedOut, aborted, stdoutLimitExceeded },
          stdout,
          stderr,
          startedAt,
        ),
      );
    };

    // Runs steps until one must be waited for (a program) or the script ends.
    const next = (): void => {
      while (index < plan.exec.steps.length) {
        if (halted !== undefined) {
          finish({ code: null, signal: halted });
          return;
        }
        const step = plan.exec.steps[index] as ShellFreeStep;
        index += 1;
        if ((step.after === '&&' && status !== 0) || (step.after === '||' && status === 0))
          continue;
        const opened = openRedirects(step, plan.cwd, shellName, write);
        const [name] = step.words;
        if (opened.failed) {
          closeAll(opened.files);
          status = 2;
          if (step.file === undefined && SPECIAL_BUILTINS.has(name as string)) {
            finish({ code: status, signal: null });
            return;
          }
          continue;
        }
        if (step.file === undefined) {
          const ran = runBuiltin(step.words, opened.slots, status, shellName, write);
          closeAll(opened.files);
          status = ran.status;
          if (ran.exit) {
            finish({ code: status, signal: null });
            return;
          }
          continue;
        }
        startStep(step, opened.slots, opened.files);
        return;
      }
      finish({ code: status, signal: null });
    };

    const startStep = (step: ShellFreeStep, slots: Slot[], files: number[]): void => {
      const stdio = slots.map((slot) =>
        slot === 'stdin' ? stdin.value : typeof slot === 'number' ? slot : 'pipe',
      ) as ('pipe' | 'ignore' | number)[];
      const first = index === 1;
      startProcessGroup(
        {
          file: step.file as string,
          args: step.words.slice(1),
          argv0: step.words[0] as string,
          cwd: plan.cwd,
          env: plan.env,
          stdio,
          killGraceMs: plan.killGraceMs,
        },
        {
          onStop: stop,
          onSettle(exit) {
            current = undefined;
            // dash holds a step's redirections until it has waited for it, and reports a signal
            // death on the step's descriptor 2.
            const report = statusOf(exit);
            if (report.line !== undefined) write(slots[2] as Slot, report.line);
            closeAll(files);
            if (halted !== undefined) {
              finish({ code: null, signal: halted });
              return;
            }
            status = report.status;
            next();
          },
        },
      ).then(
        (group) => {
          current = group;
          const collect = (stream: Readable | null, push: (data: Uint8Array) => void) =>
            stream?.on('data', (chunk: Uint8Array) => {
              if (!group.settled) push(chunk);
            });
          // A slot that names a file gave the child its descriptor: no pipe to read there.
          collect(group.stdout, slots[1] === 'stderr' ? (data) => stderr.push(data) : toStdout);
          collect(group.stderr, slots[2] === 'stdout' ? toStdout : (data) => stderr.push(data));
          onStarted?.(group.pid, stop);
          if (halted !== undefined) group.terminate(halted);
        },
        (error: unknown) => {
          // Nothing has run yet: the shell runs the command, and fails the way it does.
          if (first) {
            closeAll(files);
            finished = true;
            clearTimeout(timeoutTimer);
            signal?.removeEventListener('abort', onAbort);
            stdin.close();
            resolve(runUnderShell());
            return;
          }
          // What dash's child says when its exec fails (a program gone since the plan was made).
          const code = (error as NodeJS.ErrnoException).code;
          const notFound = code === 'ENOENT' || code === 'ENOTDIR';
          const reason = notFound ? 'not found' : strerror(code);
          write(slots[2] as Slot, `${shellName}${step.words[0]}: ${reason}\n`);
          closeAll(files);
          status = notFound ? 127 : 126;
          next();
        },
      );
    };

    next();
  });
}

interface Opened {
  slots: Slot[];
  /** Descriptors opened here, closed once the step has them (or has run). */
  files: number[];
  failed: boolean;
}

// The step's redirections, in order, as dash applies them. A file that cannot be opened ends the
// step with dash's message on the descriptor 2 of that moment.
function openRedirects(
  step: ShellFreeStep,
  cwd: string,
  shellName: string,
  write: (slot: Slot, text: string) => boolean,
): Opened {
  const slots: Slot[] = ['stdin', 'stdout', 'stderr'];
  const files: number[] = [];
  const { O_RDONLY, O_WRONLY, O_CREAT, O_TRUNC, O_APPEND, O_NONBLOCK } = fs.constants;
  for (const redirect of step.redirects) {
    if (redirect.op === '>&') {
      slots[redirect.fd] = slots[redirect.from] as Slot;
      continue;
    }
    const reading = redirect.op === '<';
    const flags = reading
      ? O_RDONLY
      : O_WRONLY | O_CREAT | (redirect.op === '>>' ? O_APPEND : O_TRUNC);
    let fd: number;
    try {
      // Non-blocking: a FIFO put there since the plan was checked must not hold this process.
      fd = fs.openSync(redirectPath(redirect.target, cwd), flags | O_NONBLOCK, 0o666);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const missing = code === 'ENOENT' || code === 'ENOTDIR';
      const reason = missing
        ? reading
          ? 'No such file'
          : 'Directory nonexistent'
        : strerror(code);
      write(
        slots[2] as Slot,
        `${shellName}cannot ${reading ? 'open' : 'create'} ${redirect.target}: ${reason}\n`,
      );
      return { slots, files, failed: true };
    }
    files.push(fd);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() && !stat.isCharacterDevice()) {
      write(
        slots[2] as Slot,
        `${shellName}cannot ${reading ? 'open' : 'create'} ${redirect.target}: not a regular file\n`,
      );
      return { slots, files, failed: true };
    }
    slots[redirect.fd] = fd;
  }
  return { slots, files, failed: false };
}

// `:`, `true`, `false`, `echo`, `exit`, as dash runs them (their arguments were checked at plan).
function runBuiltin(
  words: readonly string[],
  slots: readonly Slot[],
  status: number,
  shellName: string,
  write: (slot: Slot, text: string) => boolean,
): { status: number; exit: boolean } {
  const [name, ...args] = words;
  if (name === 'exit')
    return { status: args[0] === undefined ? status : Number(args[0]), exit: true };
  if (name === 'false') return { status: 1, exit: false };
  if (name !== 'echo') return { status: 0, exit: false };
  // dash's echo: `-n` as the first word drops the newline; no other option.
  const noNewline = args[0] === '-n';
  const text = `${(noNewline ? args.slice(1) : args).join(' ')}${noNewline ? '' : '\n'}`;
  if (write(slots[1] as Slot, text)) return { status: 0, exit: false };
  write(slots[2] as Slot, `${shellName}echo: echo: I/O error\n`);
  return { status: 1, exit: false };
}

// A step's status as dash sets it: the exit code, or 128+N for a signal, with the line dash prints.
function statusOf(exit: GroupExit): { status: number; line?: string } {
  if (exit.signal === null) return { status: exit.code ?? 0 };
  const report = shellSignalReport(exit.signal);
  if (report === undefined) return { status: 128 };
  return report.stderrLine === undefined
    ? { status: report.exitCode }
    : { status: report.exitCode, line: report.stderrLine };
}

function closeAll(files: readonly number[]): void {
  for (const fd of files) {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed
    }
  }
}

// glibc's strerror(3) for what an open or an exec can fail with, which dash prints.
const STRERROR: Record<string, string> = {
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  EROFS: 'Read-only file system',
  ENOSPC: 'No space left on device',
  EDQUOT: 'Disk quota exceeded',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  ETXTBSY: 'Text file busy',
  EEXIST: 'File exists',
  EFBIG: 'File too large',
  EMFILE: 'Too many open files',
  ENFILE: 'Too many open files in system',
  ENXIO: 'No such device or address',
  ENODEV: 'No such device',
  EBUSY: 'Device or resource busy',
  ENOEXEC: 'Exec format error',
  E2BIG: 'Argument list too long',
  ENOMEM: 'Cannot allocate memory',
};

function strerror(code: string | undefined): string {
  return (code === undefined ? undefined : STRERROR[code]) ?? code ?? 'Unknown error';
}
