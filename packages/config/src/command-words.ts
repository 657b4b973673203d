import fs from 'node:fs';
import path from 'node:path';
import { getDialect, hasDialect } from '@soong-agent/dialects';
import { parseShellWords, type ShellWord } from './shell-words.js';

/** One literal word of a shell command, as the shell would pass it (quotes removed). */
export interface CommandWord {
  text: string;
  /** The first word of a simple command: the program, looked up in PATH unless it has a `/`. */
  program: boolean;
}

/** Options of {@link commandWords}, {@link analyzeCommand} and {@link commandFiles}. */
export interface CommandWordsOptions {
  /** Variables the hook gets whose values are known (see `hookCommandVariables`). @default {} */
  variables?: Readonly<Record<string, string>>;
  /** The user's OS home: the value of `~`. Without it a word starting with `~` is unknown. */
  homeDir?: string;
}

/**
 * The known words of a `/bin/sh -c` command string (see `parseShellWords`): quotes removed, the
 * given variables and `~` expanded; words only the running shell can know, redirection targets,
 * assignments, operators and comments left out. Never throws.
 */
export function commandWords(command: string, options: CommandWordsOptions = {}): CommandWord[] {
  const words: CommandWord[] = [];
  for (const simple of parseShellWords(command, options).commands) {
    for (const [index, word] of simple.words.entries()) {
      if (word.text !== undefined && word.text !== '')
        words.push({ text: word.text, program: index === 0 });
    }
  }
  return words;
}

/** A file (or PATH name) a hook command runs. */
export interface CommandTarget {
  /** `program`: the word the shell runs; `script`: a file a program is given to run or load. */
  role: 'program' | 'script';
  /** The word as the shell passes it (quotes removed, known variables expanded). */
  text: string;
  /** The absolute path, or `undefined` for a program name without `/` (looked up in PATH). */
  path: string | undefined;
  /** For a script, the program that runs it (`python3`, `bash`, `.`…). */
  runner?: string;
  /** The program of the first simple command of the command string (or of a `bash -c` body). */
  leading?: true;
}

/** What {@link analyzeCommand} finds. */
export interface CommandAnalysis {
  /** The programs and scripts the command runs, in order, `bash -c`/`sh -c` bodies followed. */
  targets: CommandTarget[];
  /** Every other known word that is not an option, resolved against the working dir: what a hook may read. */
  operands: string[];
  /** `false` when part of what runs cannot be known without running the shell (an unknown program word or `-c` body, an unterminated quote). */
  complete: boolean;
}

// Programs that run another program given as their first operand (after their own options).
const WRAPPERS: Record<string, { argumentOptions: readonly string[] }> = {
  exec: { argumentOptions: ['-a'] },
  command: { argumentOptions: [] },
  nohup: { argumentOptions: [] },
  time: { argumentOptions: [] },
  nice: { argumentOptions: ['-n'] },
  env: { argumentOptions: ['-u', '-C', '-S'] },
  timeout: { argumentOptions: ['-s', '-k', '--signal', '--kill-after'] },
  stdbuf: { argumentOptions: ['-i', '-o', '-e'] },
  xargs: { argumentOptions: ['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a'] },
};

interface InterpreterRules {
  /** Options whose argument is code, not a file: nothing else runs from a file. */
  code: readonly string[];
  /** Options whose argument is a file the interpreter loads before the script. */
  load?: readonly string[];
  /** Options that take an argument (skipped). */
  argument?: readonly string[];
  /** Subcommands before the script (`deno run x.ts`). */
  subcommands?: readonly string[];
  /** A shell: a cluster holding `c` makes the first operand a command string, parsed in turn. */
  shell?: boolean;
}

const SHELL_RULES: InterpreterRules = {
  code: [],
  argument: ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'],
  shell: true,
};
const NODE_RULES: InterpreterRules = {
  code: ['-e', '--eval', '-p', '--print'],
  load: ['-r', '--require', '--import', '--loader', '--experimental-loader'],
  argument: ['-C', '--conditions', '--input-type', '--title', '--env-file'],
  subcommands: ['run'],
};
const INTERPRETERS: Record<string, InterpreterRules> = {
  sh: SHELL_RULES,
  bash: SHELL_RULES,
  dash: SHELL_RULES,
  zsh: SHELL_RULES,
  ksh: SHELL_RULES,
  mksh: SHELL_RULES,
  ash: SHELL_RULES,
  python: { code: ['-c', '-m'], argument: ['-W', '-X', '--check-hash-based-pycs'] },
  node: NODE_RULES,
  nodejs: NODE_RULES,
  bun: NODE_RULES,
  tsx: NODE_RULES,
  'ts-node': NODE_RULES,
  deno: { ...NODE_RULES, code: ['eval', '-e', '--eval'], subcommands: ['run'] },
  ruby: { code: ['-e'], load: ['-r'], argument: ['-I', '-C', '-E'] },
  perl: { code: ['-e', '-E'], argument: ['-I', '-M', '-m'] },
  php: { code: ['-r'], load: ['-f'], argument: ['-d', '-c', '-z'] },
  lua: { code: ['-e'], argument: ['-l'] },
};

/** The interpreter rules for a program name (`python3.12` → python's). */
function interpreterRules(program: string): InterpreterRules | undefined {
  const name = path.basename(program).replace(/(?<=^python)[0-9.]*$/, '');
  return Object.hasOwn(INTERPRETERS, name) ? INTERPRETERS[name] : undefined;
}

// How deep `bash -c 'sh -c "…"'` is followed.
const MAX_NESTED_SHELLS = 8;

/**
 * What a `/bin/sh -c` command really runs: each simple command's program (past wrappers such as
 * `exec`, `env`, `timeout`), the script an interpreter (`python3`, `node`, `bash`…) or `.`/`source` is
 * given, the modules `node -r`/`--import` preload, and, for `bash -c BODY` / `sh -c BODY`, what BODY
 * runs. Words are parsed as a POSIX shell does (`parseShellWords`) with `variables` and `~` expanded.
 * Code given inline (`node -e`, `python3 -c`, a jq filter) is never a file. Never throws.
 */
export function analyzeCommand(
  command: string,
  options: CommandWordsOptions & { cwd: string },
): CommandAnalysis {
  const analysis: CommandAnalysis = { targets: [], operands: [], complete: true };
  analyzeInto(command, options, analysis, 0);
  return analysis;
}

function analyzeInto(
  command: string,
  options: CommandWordsOptions & { cwd: string },
  analysis: CommandAnalysis,
  depth: number,
): void {
  const parsed = parseShellWords(command, options);
  if (!parsed.complete) analysis.complete = false;
  // `cd DIR && ./guard.sh`: relative words resolve where the shell is by then; after a `cd` to
  // somewhere only the shell knows, they cannot be resolved at all.
  let cwd: string | undefined = options.cwd;
  const resolve = (text: string): string | undefined => {
    if (path.isAbsolute(text)) return path.resolve(text);
    if (cwd === undefined) analysis.complete = false;
    return cwd === undefined ? undefined : path.resolve(cwd, text);
  };
  const script = (text: string | undefined, runner: string) => {
    if (text === undefined) analysis.complete = false;
    else if (text !== '' && text !== '-') {
      const resolved = resolve(text);
      if (resolved !== undefined)
        analysis.targets.push({ role: 'script', text, path: resolved, runner });
    }
  };
  const operand = (text: string | undefined) => {
    if (text === undefined || text === '' || text.startsWith('-')) return;
    const resolved = resolve(text);
    if (resolved !== undefined) analysis.operands.push(resolved);
  };
  for (const [commandIndex, { words }] of parsed.commands.entries()) {
    let index = skipWrappers(words);
    const programWord = words[index];
    if (programWord === undefined) continue;
    const program = programWord.text;
    if (program === undefined) {
      analysis.complete = false;
      continue;
    }
    if (program === 'cd') {
      const target = words.slice(index + 1).find((word) => word.text !== '--');
      cwd = target?.text === undefined || target.text === '-' ? undefined : resolve(target.text);
      continue;
    }
    const programPath = program.includes('/') ? resolve(program) : undefined;
    if (program.includes('/') && programPath === undefined) continue;
    analysis.targets.push({
      role: 'program',
      text: program,
      path: programPath,
      ...(commandIndex === 0 ? { leading: true as const } : {}),
    });
    index++;
    if (program === '.' || program === 'source') {
      script(words[index]?.text, program);
      continue;
    }
    const rules = interpreterRules(program);
    if (rules === undefined) {
      for (const word of words.slice(index)) operand(word.text);
      continue;
    }
    let inlineCode = false;
    let shellBody = false;
    let subcommandSeen = false;
    for (; index < words.length; index++) {
      const text = words[index]?.text;
      if (text === undefined) {
        analysis.complete = false;
        break;
      }
      if (text === '--') {
        index++;
        break;
      }
      if (!subcommandSeen && rules.subcommands?.includes(text)) {
        subcommandSeen = true;
        continue;
      }
      if (rules.code.includes(text)) {
        inlineCode = true;
        break;
      }
      const [option, attached] = splitOption(text);
      if (rules.code.includes(option) || (rules.code.includes(text.slice(0, 2)) && !rules.shell)) {
        inlineCode = true;
        break;
      }
      if (rules.load?.includes(option)) {
        const loaded = attached ?? words[++index]?.text;
        if (loaded !== undefined && /^[./~]/.test(loaded)) script(loaded, program);
        continue;
      }
      if (rules.argument?.includes(option)) {
        if (attached === undefined) index++;
        continue;
      }
      if (rules.shell && /^-[A-Za-z]*c[A-Za-z]*$/.test(text)) {
        shellBody = true;
        continue;
      }
      if (!/^[-+]./.test(text)) break;
    }
    if (inlineCode) continue;
    const first = words[index];
    if (first === undefined) continue;
    if (shellBody) {
      if (first.text === undefined || cwd === undefined || depth >= MAX_NESTED_SHELLS)
        analysis.complete = false;
      else analyzeInto(first.text, { ...options, cwd }, analysis, depth + 1);
      continue;
    }
    script(first.text, program);
    for (const word of words.slice(index + 1)) operand(word.text);
  }
}

// `--require=x` → ['--require', 'x']; `-rx` stays whole (short options are matched exactly).
function splitOption(text: string): [option: string, attached: string | undefined] {
  const equals = text.indexOf('=');
  if (text.startsWith('--') && equals !== -1)
    return [text.slice(0, equals), text.slice(equals + 1)];
  return [text, undefined];
}

// The index of the real program past `exec`, `env NAME=value`, `timeout 5` and the like.
function skipWrappers(words: readonly ShellWord[]): number {
  let index = 0;
  for (let round = 0; round < 8; round++) {
    const name = words[index]?.text;
    if (name === undefined || !Object.hasOwn(WRAPPERS, name)) return index;
    const wrapper = WRAPPERS[name] as { argumentOptions: readonly string[] };
    index++;
    // `command -v x` asks about x without running it.
    if (name === 'command' && /^-[pVv]*[Vv]/.test(words[index]?.text ?? '')) return words.length;
    for (; index < words.length; index++) {
      const text = words[index]?.text;
      if (text === undefined) return index;
      if (text === '--') {
        index++;
        break;
      }
      if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) continue;
      if (wrapper.argumentOptions.includes(text)) {
        index++;
        continue;
      }
      if (!text.startsWith('-')) break;
    }
    // `timeout 5 cmd`, `nice 10 cmd` (old spelling): the duration comes first.
    if (name === 'timeout' && words[index] !== undefined) index++;
  }
  return index;
}

/**
 * Where the shell finds a program name (no `/`) in `searchPath`: the first executable regular file.
 * An empty entry means the working dir and a relative one resolves against it, as in the shell.
 */
export function findProgramInPath(
  name: string,
  options: { searchPath: string | undefined; cwd: string },
): string | undefined {
  if (options.searchPath === undefined) return undefined;
  for (const entry of options.searchPath.split(path.delimiter)) {
    const candidate = path.resolve(options.cwd, entry, name);
    try {
      const stat = fs.statSync(candidate);
      if (stat.isFile() && (stat.mode & 0o111) !== 0) return candidate;
    } catch {
      // not there
    }
  }
  return undefined;
}

/**
 * The files a hook's command names: the programs and scripts it runs (see {@link analyzeCommand})
 * that are existing regular files, and any other operand that is one (a rules file it reads),
 * absolute, without duplicates. A program word without `/` is looked up in PATH by the shell, so it
 * is not one.
 */
export function commandFiles(
  command: string,
  options: CommandWordsOptions & { cwd: string; homeDir: string },
): string[] {
  const analysis = analyzeCommand(command, options);
  const candidates = [
    ...analysis.targets.flatMap((target) => (target.path === undefined ? [] : [target.path])),
    ...analysis.operands,
  ];
  const files = new Set<string>();
  for (const candidate of candidates) {
    try {
      if (fs.statSync(candidate).isFile()) files.add(candidate);
    } catch {
      // Not a file now: nothing to fingerprint.
    }
  }
  return [...files];
}

/**
 * The variables a hook's command sees whose values are known before it runs (spec §2.1, §7, §12):
 * `SOONG_AGENT_HOME`, `SOONG_AGENT_PROJECT_DIR`, and those its dialect sets that do not depend on
 * the session (`CLAUDE_PROJECT_DIR` for `"claude-code"`, `GEMINI_PROJECT_DIR` for `"gemini"`,
 * `CURSOR_PROJECT_DIR` for `"cursor"`, …). What `analyzeCommand` expands when it checks and
 * fingerprints a hook, so a script named through any of them is guarded alike.
 * (`HOME` passes through the env allowlist unless excluded, so it is not known here.)
 */
export function hookCommandVariables(options: {
  /** The agent home, absolute. */
  home: string;
  /** The project dir, absolute. */
  projectDir: string;
  /** The hook's protocol. */
  protocol: string;
}): Record<string, string> {
  return {
    ...dialectVariables(options),
    SOONG_AGENT_HOME: options.home,
    SOONG_AGENT_PROJECT_DIR: options.projectDir,
  };
}

// The dialect's env for two different sessions: what is the same in both is known now.
function dialectVariables(options: {
  home: string;
  projectDir: string;
  protocol: string;
}): Record<string, string> {
  if (!hasDialect(options.protocol)) return {};
  const dialect = getDialect(options.protocol);
  const envOf = (sessionId: string) =>
    dialect.env({
      sessionId,
      projectDir: options.projectDir,
      agentHome: options.home,
      transcriptPath: path.join(options.home, 'sessions', sessionId, 'transcript.jsonl'),
      hookId: sessionId,
    });
  const first = envOf('session-a');
  const second = envOf('session-b');
  const known: Record<string, string> = {};
  for (const [key, value] of Object.entries(first)) if (second[key] === value) known[key] = value;
  return known;
}
