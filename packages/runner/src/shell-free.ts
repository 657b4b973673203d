import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { executableProblem } from './executable.js';
import { SHELL_PATH } from './run-options.js';

// A string command runs under `/bin/sh -c`. When the shell would do nothing but split it into
// plain words, find the program and run it, the runner runs the program itself: one exec less per
// run (the shell's own start: 1 ms on a laptop, 3–4 ms on a small VM, a third of a trivial hook).
// Only where the result cannot differ: /bin/sh is dash (Debian, Ubuntu), whose effect on such a
// command is known exactly (it exports PWD and nothing else, runs the first regular file PATH
// names, reports a signal death as 128+N with a line on stderr). Anything else runs under the shell.

/** How to run a shell command without the shell. */
export interface ShellFreeCommand {
  /** The program's path as the shell passes it to exec (relative to the working dir, or not). */
  file: string;
  args: string[];
  /** argv[0] as the shell passes it: the word as written (after `~` expansion). */
  argv0: string;
}

// Characters that are literal in every position of a dash word (no quoting, expansion, globbing,
// redirection, comment or operator). `=` makes a first word an assignment, so it is refused there.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

// A first word that names one of these is not a program dash would exec.
const DASH_BUILTINS_AND_KEYWORDS = new Set(
  [
    '. : [ alias bg break cd chdir command continue echo eval exec exit export false fc fg getopts',
    'hash jobs kill local printf pwd read readonly return set shift test times trap true type',
    'ulimit umask unalias unset wait case do done elif else esac fi for if in then until while { } !',
  ]
    .join(' ')
    .split(' '),
);

let shellIsDash: boolean | undefined;

/**
 * The program `command` names when `/bin/sh -c command` would do nothing but run it with plain
 * arguments (the caller adds the `PWD` dash would export); undefined when the shell must run it.
 * `cwd` is the run's real working dir, `env` its exact environment.
 */
export function shellFreeCommand(
  command: string,
  cwd: string,
  env: Readonly<Record<string, string>>,
): ShellFreeCommand | undefined {
  // dash sets PWD from the environment's when it names the working dir: left to dash.
  if (env.PWD !== undefined || !isDash()) return undefined;
  const written = command.split(/[ \t]+/).filter((word) => word !== '');
  const words: string[] = [];
  for (const word of written) {
    const expanded = expandWord(word, env.HOME);
    if (expanded === undefined) return undefined;
    words.push(expanded);
  }
  const [first, ...args] = words;
  const firstWritten = written[0];
  if (first === undefined || firstWritten === undefined) return undefined;
  if (firstWritten.includes('=') || DASH_BUILTINS_AND_KEYWORDS.has(firstWritten)) return undefined;
  const file = findProgram(first, cwd, env.PATH);
  if (file === undefined || !startsAsProgram(path.resolve(cwd, file))) return undefined;
  return { file, args, argv0: first };
}

// dash expands `~` at the start of a word from HOME (a word is left as written when HOME is empty).
function expandWord(word: string, home: string | undefined): string | undefined {
  if (word === '~' || word.startsWith('~/')) {
    if (home === undefined || home === '') return undefined;
    const rest = word.slice(1);
    return PLAIN_WORD.test(`x${rest}`) ? `${home}${rest}` : undefined;
  }
  return PLAIN_WORD.test(word) ? word : undefined;
}

// dash's lookup: a name with a slash is taken from the working dir; otherwise the first regular file
// of that name along PATH, executable or not (when it is not, dash fails with 126: left to dash).
// Without PATH dash searches its own default; an empty entry (the working dir) is left to it too.
// Returns the path as dash hands it to exec, relative or not: a `#!` script gets it as its $0.
function findProgram(
  name: string,
  cwd: string,
  searchPath: string | undefined,
): string | undefined {
  if (name.includes('/')) return executableProblem(path.resolve(cwd, name)) ? undefined : name;
  if (searchPath === undefined) return undefined;
  for (const entry of searchPath.split(':')) {
    // `%builtin`-style entries mean something to dash alone.
    if (entry === '' || entry.includes('%')) return undefined;
    const candidate = `${entry}/${name}`;
    const resolved = path.resolve(cwd, candidate);
    // The first regular file is dash's pick, even when it cannot be run.
    if (isRegularFile(resolved))
      return executableProblem(resolved) === undefined ? candidate : undefined;
  }
  return undefined;
}

function isRegularFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

// An ELF binary or a `#!` script: the kernel runs either. Any other file dash would run as a shell
// script (exec fails with ENOEXEC), so it stays dash's.
function startsAsProgram(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY);
    const head = Buffer.alloc(4);
    const read = fs.readSync(fd, head, 0, 4, 0);
    if (read >= 2 && head[0] === 0x23 && head[1] === 0x21) return true;
    return read === 4 && head.equals(ELF_MAGIC);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);

function isDash(): boolean {
  if (shellIsDash === undefined) {
    try {
      shellIsDash =
        process.platform === 'linux' && path.basename(fs.realpathSync(SHELL_PATH)) === 'dash';
    } catch {
      shellIsDash = false;
    }
  }
  return shellIsDash;
}

/**
 * What dash reports for a program that a signal ended (one the runner did not send): exit status
 * 128+N, and on its stderr the signal's description, except for SIGINT and SIGPIPE. Undefined for a
 * signal Node does not number.
 */
export function shellSignalReport(
  signal: NodeJS.Signals,
): { exitCode: number; stderrLine: string | undefined } | undefined {
  const signo = (os.constants.signals as Partial<Record<NodeJS.Signals, number>>)[signal];
  if (signo === undefined) return undefined;
  return {
    exitCode: 128 + signo,
    stderrLine:
      signal === 'SIGINT' || signal === 'SIGPIPE'
        ? undefined
        : `${SIGNAL_TEXT[signal] ?? `Unknown signal ${signo}`}\n`,
  };
}

// glibc's strsignal(3), which dash prints.
const SIGNAL_TEXT: Partial<Record<NodeJS.Signals, string>> = {
  SIGHUP: 'Hangup',
  SIGQUIT: 'Quit',
  SIGILL: 'Illegal instruction',
  SIGTRAP: 'Trace/breakpoint trap',
  SIGABRT: 'Aborted',
  SIGBUS: 'Bus error',
  SIGFPE: 'Floating point exception',
  SIGKILL: 'Killed',
  SIGUSR1: 'User defined signal 1',
  SIGSEGV: 'Segmentation fault',
  SIGUSR2: 'User defined signal 2',
  SIGALRM: 'Alarm clock',
  SIGTERM: 'Terminated',
  SIGSTKFLT: 'Stack fault',
  SIGXCPU: 'CPU time limit exceeded',
  SIGXFSZ: 'File size limit exceeded',
  SIGVTALRM: 'Virtual timer expired',
  SIGPROF: 'Profiling timer expired',
  SIGIO: 'I/O possible',
  SIGPOLL: 'I/O possible',
  SIGPWR: 'Power failure',
  SIGSYS: 'Bad system call',
};
