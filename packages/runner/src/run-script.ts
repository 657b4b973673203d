import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { type Stdin, stdinOf } from './input-file.js';
import { OutputCollector } from './output-collector.js';
import { type GroupExit, type ProcessGroup, startProcessGroup } from './process-group.js';
import { lostRun, type RunPlan } from './run-plan.js';
import { collectedResult, type RunResult } from './run-result.js';
import { RunnerError } from './runner-error.js';
import {
  DEVICES,
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
    new ScriptRun(plan, stdin, signal, onStarted, resolve, runUnderShell).next();
  });
}

class ScriptRun {
  private readonly startedAt = performance.now();
  private readonly stdout: OutputCollector;
  private readonly stderr: OutputCollector;
  private timedOut = false;
  private aborted = false;
  private stdoutLimitExceeded = false;
  private finished = false;
  // Set once the run is told to end: the step running gets the signal and no other starts, and
  // the run ends as the shell would have, killed by it.
  private halted: NodeJS.Signals | undefined;
  // Every step's group, held until the list ends: what a step leaves running in the background
  // lives as long as the list, as in the shell's one group, and dies with it.
  private readonly groups: ProcessGroup[] = [];
  private status = 0;
  private index = 0;
  private readonly timeoutTimer: NodeJS.Timeout | undefined;
  private readonly onAbort = (): void => {
    if (this.finished) return;
    this.aborted = true;
    this.halt('SIGTERM');
  };
  private readonly stop = (stopSignal: NodeJS.Signals): void => {
    if (this.finished) return;
    this.aborted = true;
    this.halt(stopSignal);
  };
  private readonly toStdout = (data: string | Uint8Array): void => {
    if (this.stdout.push(data) && this.plan.stopOnOutputLimit && !this.stdoutLimitExceeded) {
      this.stdoutLimitExceeded = true;
      this.halt('SIGKILL');
    }
  };
  private readonly toStderr = (data: string | Uint8Array): void => {
    this.stderr.push(data);
  };
  private readonly write = (slot: Slot, text: string): boolean => {
    if (text === '') return true;
    if (slot === 'stdout') this.toStdout(text);
    else if (slot === 'stderr') this.toStderr(text);
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

  constructor(
    private readonly plan: RunPlan & { exec: ShellFreeScript },
    private readonly stdin: Stdin,
    private readonly signal: AbortSignal | undefined,
    private readonly onStarted:
      | ((pid: number, stop: (signal: NodeJS.Signals) => void) => void)
      | undefined,
    private readonly resolve: (result: RunResult | Promise<RunResult>) => void,
    private readonly runUnderShell: () => Promise<RunResult>,
  ) {
    this.stdout = new OutputCollector(plan.maxOutputBytes, plan.tailBytes);
    this.stderr = new OutputCollector(plan.maxOutputBytes, plan.tailBytes);
    if (plan.timeoutMs > 0)
      this.timeoutTimer = setTimeout(() => {
        this.timedOut = true;
        this.halt('SIGTERM');
      }, plan.timeoutMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  // How dash begins its messages: by its argv[0] (the script file it reads, or /bin/sh for a
  // `-c` string), and the line.
  private shellName(step: ShellFreeStep): string {
    return `${this.plan.exec.file ?? this.plan.file}: ${step.line ?? 1}: `;
  }

  private halt(haltSignal: NodeJS.Signals): void {
    this.halted ??= haltSignal;
    // The shell's one group gets the signal whole: the step running and what earlier ones left.
    for (const group of this.groups) group.terminate(haltSignal);
  }

  /** Ends the run's own timers and listeners and the stdin descriptor. */
  private close(): void {
    this.finished = true;
    for (const group of this.groups) group.release();
    clearTimeout(this.timeoutTimer);
    this.signal?.removeEventListener('abort', this.onAbort);
    this.stdin.close();
  }

  private finish(exit: GroupExit): void {
    this.close();
    const ended = this.halted === undefined ? exit : { code: null, signal: this.halted };
    const { timedOut, aborted, stdoutLimitExceeded } = this;
    this.resolve(
      collectedResult(
        ended,
        { timedOut, aborted, stdoutLimitExceeded },
        this.stdout,
        this.stderr,
        this.startedAt,
      ),
    );
  }

  /** Runs steps until one must be waited for (a program) or the script ends. */
  next(): void {
    const { steps } = this.plan.exec;
    while (this.index < steps.length) {
      if (this.halted !== undefined) {
        this.finish({ code: null, signal: this.halted });
        return;
      }
      const step = steps[this.index] as ShellFreeStep;
      this.index += 1;
      if ((step.after === '&&' && this.status !== 0) || (step.after === '||' && this.status === 0))
        continue;
      const opened = openRedirects(step, this.plan.cwd, this.shellName(step), this.write);
      if (opened.failed) {
        closeAll(opened.files);
        this.status = 2;
        if (step.file === undefined && SPECIAL_BUILTINS.has(step.words[0] as string)) {
          this.finish({ code: this.status, signal: null });
          return;
        }
        continue;
      }
      if (step.file !== undefined) {
        this.startStep(step, opened.slots, opened.files);
        return;
      }
      const ran = runBuiltin(
        step.words,
        opened.slots,
        this.status,
        this.shellName(step),
        this.write,
      );
      closeAll(opened.files);
      this.status = ran.status;
      if (ran.exit) {
        this.finish({ code: this.status, signal: null });
        return;
      }
    }
    this.finish({ code: this.status, signal: null });
  }

  private startStep(step: ShellFreeStep, slots: Slot[], files: number[]): void {
    const stdio = slots.map((slot) =>
      slot === 'stdin' ? this.stdin.value : typeof slot === 'number' ? slot : 'pipe',
    ) as ('pipe' | 'ignore' | number)[];
    const first = this.index === 1;
    const spec = {
      file: step.file as string,
      args: step.words.slice(1),
      argv0: step.words[0] as string,
      cwd: this.plan.cwd,
      env: this.plan.env,
      stdio,
      killGraceMs: this.plan.killGraceMs,
      hold: true,
      sharedStdin: slots[0] === 'stdin',
    };
    let stepGroup: ProcessGroup | undefined;
    const onSettle = (exit: GroupExit): void => {
      if (stepGroup?.lost !== undefined) {
        // The spawner died under the step: the list fails as a whole, nothing more runs.
        closeAll(files);
        this.close();
        this.resolve(Promise.reject(lostRun(this.plan, stepGroup.lost)));
        return;
      }
      // dash holds a step's redirections until it has waited for it, and reports a signal death
      // on the step's descriptor 2.
      const report = statusOf(exit);
      if (report.line !== undefined) this.write(slots[2] as Slot, report.line);
      closeAll(files);
      if (this.halted !== undefined) {
        this.finish({ code: null, signal: this.halted });
        return;
      }
      this.status = report.status;
      this.next();
    };
    startProcessGroup(spec, { onStop: this.stop, onSettle }).then(
      (group) => {
        stepGroup = group;
        this.started(group, slots);
      },
      (error: unknown) => {
        // The spawner died before it said whether it started the step: the list fails whole,
        // and nothing runs it again.
        if (RunnerError.isInstance(error)) {
          closeAll(files);
          this.close();
          this.resolve(Promise.reject(error));
          return;
        }
        // Nothing has run yet: the shell runs the command, and fails the way it does (unless the
        // run was told to stop meanwhile).
        if (first && this.halted === undefined) {
          closeAll(files);
          this.close();
          this.resolve(this.runUnderShell());
          return;
        }
        // What dash's child says when its exec fails (a program gone since the plan was made).
        const code = (error as NodeJS.ErrnoException).code;
        const notFound = code === 'ENOENT' || code === 'ENOTDIR';
        const reason = notFound ? 'not found' : strerror(code);
        this.write(slots[2] as Slot, `${this.shellName(step)}${step.words[0]}: ${reason}\n`);
        closeAll(files);
        this.status = notFound ? 127 : 126;
        this.next();
      },
    );
  }

  private started(group: ProcessGroup, slots: readonly Slot[]): void {
    this.groups.push(group);
    const collect = (stream: Readable | null, push: (data: Uint8Array) => void) =>
      stream?.on('data', (chunk: Uint8Array) => {
        if (!group.settled) push(chunk);
      });
    // A slot that names a file gave the child its descriptor: no pipe to read there.
    collect(group.stdout, slots[1] === 'stderr' ? this.toStderr : this.toStdout);
    collect(group.stderr, slots[2] === 'stdout' ? this.toStdout : this.toStderr);
    this.onStarted?.(group.pid, this.stop);
    if (this.halted !== undefined) group.terminate(this.halted);
  }
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
    if (!stat.isFile() && !(DEVICES.has(redirect.target) && stat.isCharacterDevice())) {
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
