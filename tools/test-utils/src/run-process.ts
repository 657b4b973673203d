import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** What a finished process produced. */
export interface ProcessRun {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  /** The signal that ended it, or null. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link startProcess} and {@link runProcess}. */
export interface ProcessOptions {
  /** The working directory. @default process.cwd() */
  cwd?: string;
  /** The whole environment of the process (nothing of the test's own is added). @default `{ PATH }` */
  env?: Record<string, string>;
  /**
   * Text written to stdin, which is then closed; without it stdin is `/dev/null`. An array is
   * written chunk by chunk, each its own write a few milliseconds after the last, so that the
   * process may read a line split across reads. @default none
   */
  stdin?: string | readonly string[];
}

/** A started process: the child and a promise of its {@link ProcessRun}. */
export interface StartedProcess {
  child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  /** Resolves when the process exited and its output closed; rejects when it could not start. */
  done: Promise<ProcessRun>;
}

/** The environment a test gives a process unless it says otherwise: a PATH only. */
export function minimalEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...extra };
}

/** Starts `file args` (a real process, no shell) and collects its stdout and stderr. */
export function startProcess(
  file: string,
  args: readonly string[],
  options: ProcessOptions = {},
): StartedProcess {
  const child = spawn(file, args, {
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? minimalEnv(),
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    // stdout and stderr are pipes here; only stdin depends on the options.
  }) as StartedProcess['child'];
  if (options.stdin !== undefined && child.stdin !== null) {
    // A process that exits before reading all of stdin is an outcome to assert, not a crash.
    child.stdin.on('error', () => {});
    writeStdin(child.stdin, options.stdin);
  }
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<ProcessRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

function writeStdin(stdin: Writable, text: string | readonly string[]): void {
  if (typeof text === 'string') {
    stdin.end(text);
    return;
  }
  void (async () => {
    for (const chunk of text) {
      stdin.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    stdin.end();
  })();
}

/** Runs `file args` to its end: {@link startProcess}'s `done`. */
export function runProcess(
  file: string,
  args: readonly string[],
  options: ProcessOptions = {},
): Promise<ProcessRun> {
  return startProcess(file, args, options).done;
}
