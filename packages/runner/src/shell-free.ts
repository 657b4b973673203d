import { isUtf8 } from 'node:buffer';
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

/**
 * How to run a shell command without the shell: its simple commands in order, each a program the
 * runner spawns or one of the few builtins it runs itself (see {@link SHELL_FREE_BUILTINS}).
 */
export interface ShellFreeScript {
  steps: ShellFreeStep[];
  /**
   * The `#!/bin/sh` file whose lines these steps are (the command named only it): dash names
   * itself by that path in its messages, with each step's line.
   */
  file?: string;
}

/** One simple command of a {@link ShellFreeScript}. */
export interface ShellFreeStep {
  /** How it follows the previous one: always, after a success, after a failure. */
  after: ';' | '&&' | '||';
  /** The words after quote removal and `~` expansion; the first names the program or builtin. */
  words: string[];
  /** In the order written, which is the order dash applies them. */
  redirects: ShellFreeRedirect[];
  /** A program's path as the shell passes it to exec (relative to the working dir, or not). */
  file?: string;
  /** Its line in the script file ({@link ShellFreeScript.file}); 1 in a `-c` string. */
  line?: number;
}

/** `N<word`, `N>word`, `N>>word` (a file), or `N>&M` (a copy of another descriptor). */
export type ShellFreeRedirect =
  | { fd: 0 | 1 | 2; op: '<' | '>' | '>>'; target: string }
  | { fd: 1 | 2; op: '>&'; from: 1 | 2 };

/** The dash builtins the runner runs itself: the whole effect of each is known and small. */
export const SHELL_FREE_BUILTINS: ReadonlySet<string> = new Set([
  ':',
  'true',
  'false',
  'echo',
  'exit',
]);

/** Special builtins: a redirection of theirs that fails ends the shell (status 2). */
export const SPECIAL_BUILTINS: ReadonlySet<string> = new Set([':', 'exit']);

// Characters that are literal in every position of a dash word (no quoting, expansion, globbing,
// redirection, comment or operator). `=` makes a first word an assignment, so it is refused there.
const PLAIN_CHAR = /[A-Za-z0-9_@%+=:,./-]/;
// What ends a word: a blank or an operator of the subset (any other special character is refused).
const WORD_END = /[ \t;&|<>]/;

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

// Variables dash sets itself when they come in its environment.
const DASH_OWN_VARIABLES = new Set(['PWD', 'PPID', 'OPTIND', 'IFS']);

let shellIsDash: boolean | undefined;

/**
 * How to run `command` without the shell, when what `/bin/sh -c command` would do is known exactly
 * (the caller adds the `PWD` dash would export); undefined when the shell must run it. `cwd` is the
 * run's real working dir, `env` its exact environment.
 *
 * The subset: simple commands joined by `;`, `&&` and `||`; words of plain characters, `'…'`, and
 * `"…"` without `$`, `` ` `` or a backslash; `~` and `~/…` from HOME; the redirections `<`, `>`
 * and `>>` of fd 0, 1 or 2 to a file that is a regular one, `/dev/null`, or not there yet, and
 * `2>&1` and `>&2` where no pipe would have to be shared; programs dash would exec, and the
 * builtins `:`, `true`, `false`, `echo` (its words without a backslash) and `exit`. Anything else
 * is the shell's.
 */
export function shellFreeCommand(
  command: string,
  cwd: string,
  env: Readonly<Record<string, string>>,
): ShellFreeScript | undefined {
  // dash sets PWD from the environment's when it names the working dir, and sets PPID, OPTIND
  // and IFS of its own; it drops a variable whose name is not a shell name; a `%` entry in PATH
  // can make a name a builtin: all left to dash.
  if (!isDash() || env.PATH?.includes('%') === true) return undefined;
  for (const name of Object.keys(env))
    if (DASH_OWN_VARIABLES.has(name) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
  const steps = checkedSteps(parseCommand(command, env.HOME), cwd, env);
  if (steps === undefined) return undefined;
  const [only] = steps;
  // A `#!/bin/sh` file named alone, whose lines are in the subset too: its steps, without the
  // shell that would read them (most real hooks are such files).
  const script =
    steps.length === 1 && only?.file !== undefined && only.redirects.length === 0
      ? scriptSteps(only.file, cwd, env)
      : undefined;
  return script === undefined ? { steps } : { steps: script, file: only?.file as string };
}

// The steps of a parse, each checked to be the runner's to run (a builtin it takes, or a program
// dash would exec, with redirections to plain files); undefined when one is not.
function checkedSteps(
  parsed: ParsedStep[] | undefined,
  cwd: string,
  env: Readonly<Record<string, string>>,
): ShellFreeStep[] | undefined {
  if (parsed === undefined) return undefined;
  const steps: ShellFreeStep[] = [];
  for (const { plainName, ...step } of parsed) {
    const [name] = step.words;
    if (name === undefined) return undefined;
    if (SHELL_FREE_BUILTINS.has(name)) {
      // A quoted builtin name is still the builtin; the runner's take only some arguments.
      if (!builtinTakes(name, step.words)) return undefined;
    } else {
      if (!plainName || name.includes('=') || DASH_BUILTINS_AND_KEYWORDS.has(name))
        return undefined;
      const file = findProgram(name, cwd, env.PATH);
      if (file === undefined || !startsAsProgram(path.resolve(cwd, file))) return undefined;
      step.file = file;
      // A copy of an output pipe into another descriptor would need one pipe for both.
      if (!copiesOnlyFiles(step.redirects)) return undefined;
    }
    for (const redirect of step.redirects)
      if (redirect.op !== '>&' && !fileTargetIsPlain(redirect.target, cwd)) return undefined;
    steps.push(step);
  }
  return steps;
}

/** The largest script file read for its lines; a larger one runs under its shell. */
const MAX_SCRIPT_BYTES = 16 * 1024;

// How a `#!/bin/sh` or `#! /bin/sh` file starts (its first line is checked whole once read).
const SH_HEAD = /^#! ?\/bin\/sh/;
const SH_HEAD_BYTES = '#! /bin/sh'.length;

// The steps of a `#!/bin/sh` file, line by line, when every line is empty, a comment, or a list in
// the subset (a newline ends a list as `;` does); undefined otherwise. dash reads and runs a file
// a line at a time: a line it would reject only stops it when reached, after the lines before ran,
// so a file with any line outside the subset is left to it whole.
function scriptSteps(
  file: string,
  cwd: string,
  env: Readonly<Record<string, string>>,
): ShellFreeStep[] | undefined {
  const text = readScript(path.resolve(cwd, file));
  if (text === undefined) return undefined;
  const [first, ...lines] = text.split('\n');
  // The kernel runs `#!/bin/sh` and `#! /bin/sh` (blanks after it dropped) with no argument.
  if (first === undefined || !/^#! ?\/bin\/sh[ \t]*$/.test(first)) return undefined;
  const steps: ShellFreeStep[] = [];
  for (const [index, line] of lines.entries()) {
    const trimmed = line.replace(/^[ \t]+/, '');
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const parsed = checkedSteps(parseCommand(line, env.HOME), cwd, env);
    if (parsed === undefined) return undefined;
    for (const step of parsed) steps.push({ ...step, line: index + 2 });
  }
  return steps.length === 0 ? undefined : steps;
}

// The file's text when it starts as a `#!/bin/sh` file, is small, whole UTF-8 without NUL; else
// undefined. Its head is read first: most programs named alone are binaries, read no further.
function readScript(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const head = Buffer.alloc(SH_HEAD_BYTES);
    const headRead = fs.readSync(fd, head, 0, head.length, 0);
    if (!SH_HEAD.test(head.toString('latin1', 0, headRead))) return undefined;
    const bytes = Buffer.alloc(MAX_SCRIPT_BYTES + 1);
    const read = fs.readSync(fd, bytes, 0, bytes.length, 0);
    if (read > MAX_SCRIPT_BYTES) return undefined;
    const content = bytes.subarray(0, read);
    if (content.includes(0) || !isUtf8(content)) return undefined;
    return content.toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

interface ParsedStep extends ShellFreeStep {
  /** The first word was written without quotes (a quoted word is never a keyword). */
  plainName: boolean;
}

// The simple commands of `command`, or undefined at anything outside the subset.
function parseCommand(command: string, home: string | undefined): ParsedStep[] | undefined {
  const steps: ParsedStep[] = [];
  let step: ParsedStep = { after: ';', words: [], redirects: [], plainName: true };
  // An operator ends a simple command, which must have a word (`; ;`, `&& x`, `>f;` are not ours).
  const endStep = (next: ShellFreeStep['after']): boolean => {
    if (step.words.length === 0) return false;
    steps.push(step);
    step = { after: next, words: [], redirects: [], plainName: true };
    return true;
  };
  let at = 0;
  while (at < command.length) {
    const rest = command.slice(at);
    if (rest[0] === ' ' || rest[0] === '\t') {
      at += 1;
    } else if (rest[0] === ';') {
      if (!endStep(';')) return undefined;
      at += 1;
    } else if (rest.startsWith('&&') || rest.startsWith('||')) {
      if (!endStep(rest.slice(0, 2) as '&&' | '||')) return undefined;
      at += 2;
    } else if (/^[0-9]*[<>]/.test(rest)) {
      const redirect = /^([012]?)(>>|>&|>|<)/.exec(rest);
      // Another descriptor, or `<&`, `<>`, `>|`, `<<`: the shell's.
      if (redirect === null || /^(<[<&>]|>\|)/.test(rest.slice(redirect[1]?.length ?? 0)))
        return undefined;
      const op = redirect[2] as '>>' | '>&' | '>' | '<';
      const fd = redirect[1] === '' ? (op === '<' ? 0 : 1) : (Number(redirect[1]) as 0 | 1 | 2);
      at += redirect[0].length;
      if (op === '>&') {
        const copy = /^([12])(?=$|[ \t;&|])/.exec(command.slice(at));
        if (copy === null || fd === 0) return undefined;
        const from = Number(copy[1]) as 1 | 2;
        if (from !== fd) step.redirects.push({ fd, op, from });
        at += 1;
        continue;
      }
      // `0>`, `1<`, `2<`: not in the subset.
      if ((op === '<') !== (fd === 0)) return undefined;
      while (command[at] === ' ' || command[at] === '\t') at += 1;
      const word = readWord(command, at, home);
      if (word === undefined || word.text === '') return undefined;
      step.redirects.push({ fd, op, target: word.text });
      at = word.end;
    } else {
      const word = readWord(command, at, home);
      if (word === undefined || word.end === at) return undefined;
      if (step.words.length === 0) step.plainName = !word.quoted;
      step.words.push(word.text);
      at = word.end;
    }
  }
  // A trailing `;` ends the last command; a trailing `&&` or `||` is a syntax error.
  if (step.words.length > 0) steps.push(step);
  else if (step.after !== ';' || step.redirects.length > 0 || steps.length === 0) return undefined;
  return steps;
}

// One word from `start`: plain characters and quoted parts, up to a blank or an operator.
function readWord(
  command: string,
  start: number,
  home: string | undefined,
): { text: string; end: number; quoted: boolean } | undefined {
  let text = '';
  let quoted = false;
  let at = start;
  // `~` or `~/…` at the start of a word, unquoted: HOME. dash leaves it as written when HOME is
  // empty, and `~user` names another home: both left to dash.
  if (command[at] === '~') {
    const next = command[at + 1];
    if (next !== undefined && next !== '/' && !WORD_END.test(next)) return undefined;
    if (home === undefined || home === '') return undefined;
    text = home;
    at += 1;
  }
  while (at < command.length) {
    const char = command[at] as string;
    if (WORD_END.test(char)) break;
    if (char === "'" || char === '"') {
      const close = command.indexOf(char, at + 1);
      if (close === -1) return undefined;
      const inside = command.slice(at + 1, close);
      // A newline would move dash's line numbers, which its messages print.
      if (inside.includes('\n') || (char === '"' && /[$`\\]/.test(inside))) return undefined;
      text += inside;
      quoted = true;
      at = close + 1;
    } else if (PLAIN_CHAR.test(char)) {
      text += char;
      at += 1;
    } else return undefined;
  }
  return { text, end: at, quoted };
}

// What the runner's builtins take: `echo` words without a backslash (dash's echo reads escapes),
// `exit` with at most a status, 0 to 255 in digits.
function builtinTakes(name: string, words: readonly string[]): boolean {
  if (name === 'echo') return words.every((word) => !word.includes('\\'));
  if (name !== 'exit') return true;
  const status = words[1];
  return (
    words.length <= 2 &&
    (status === undefined || /^[0-9]{1,3}$/.test(status)) &&
    Number(status ?? 0) <= 255
  );
}

// Every `N>&M` of a program copies a file the step opened (the child gets one descriptor twice);
// a copy of the output pipe would need one pipe shared by two descriptors.
function copiesOnlyFiles(redirects: readonly ShellFreeRedirect[]): boolean {
  const isFile = [false, false, false];
  for (const redirect of redirects) {
    if (redirect.op !== '>&') isFile[redirect.fd] = true;
    else if (!isFile[redirect.from]) return false;
    else isFile[redirect.fd] = true;
  }
  return true;
}

// A redirection's file as it stands now: not there yet, or a regular file, reached by no symlink
// into /proc or /dev; or /dev/null, /dev/full or /dev/zero, written so. Anything else (a FIFO whose
// open would block, a directory, a terminal, /dev/stdout or /proc/self/fd/N, which would name this
// process's descriptors, not the shell's) is the shell's.
function fileTargetIsPlain(target: string, cwd: string): boolean {
  if (DEVICES.has(target)) return true;
  let file = redirectPath(target, cwd);
  for (let hops = 0; hops <= 8; hops += 1) {
    // The real path of its folder: `//proc`, `/./dev`, a symlinked folder all come out plain.
    let real: string;
    try {
      real = path.join(fs.realpathSync(path.dirname(file)), path.basename(file));
    } catch (error) {
      // No such folder: the open fails, with dash's message.
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR';
    }
    if (/^\/(proc|dev)(\/|$)/.test(real)) return false;
    try {
      const stat = fs.lstatSync(real);
      if (!stat.isSymbolicLink()) return stat.isFile();
      file = path.resolve(path.dirname(real), fs.readlinkSync(real));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR';
    }
  }
  return false;
}

/** The devices a redirection may name (by these paths only). */
export const DEVICES: ReadonlySet<string> = new Set(['/dev/null', '/dev/full', '/dev/zero']);

/**
 * The path to open for a redirection's `target`: as written when absolute, else joined to the
 * working dir without normalising, so that `..` after a symlink goes where the kernel takes it.
 */
export function redirectPath(target: string, cwd: string): string {
  return target.startsWith('/') ? target : `${cwd}/${target}`;
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
    // Most PATH entries lack the name: no error built for them (its stack costs more than the stat).
    return fs.statSync(file, { throwIfNoEntry: false })?.isFile() === true;
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
