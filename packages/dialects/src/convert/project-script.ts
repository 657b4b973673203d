/** A script a hook command runs from the project (see {@link projectScriptOf}). */
export interface ProjectScript {
  /** The script as written, quotes removed: `$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh`, `./scripts/x.sh`. */
  text: string;
  /** `variable`: named through a project-dir variable; `relative`: resolved against the project dir. */
  how: 'variable' | 'relative';
}

// What the agents (and we) set to the project dir, or what finds it at run time.
const PROJECT_DIR_WORD =
  /^(?:\$\{?(?:CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|GEMINI_CWD|CURSOR_PROJECT_DIR|SOONG_AGENT_PROJECT_DIR|PWD)\}?(?![A-Za-z0-9_])|\$\(\s*(?:pwd|git rev-parse --show-toplevel)\s*\)|`\s*(?:pwd|git rev-parse --show-toplevel)\s*`)/;
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'node',
  'nodejs',
  'bun',
  'deno',
  'tsx',
  'ts-node',
  'python',
  'python2',
  'python3',
  'ruby',
  'perl',
  'php',
  'lua',
  'source',
  '.',
]);
// Options after which an interpreter runs code given inline, not a file.
const INLINE_CODE = /^-(?:[A-Za-z]*[ce]|-eval|-print|p|m)$/;
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
const WRAPPERS = new Set(['exec', 'command', 'nohup', 'time', 'env', 'nice']);
const SUBCOMMANDS = new Set(['run']);
const SCRIPT = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|rb|pl|php|lua)$/;

/**
 * The first script or program a hook command runs from the project: named through a variable that
 * holds the project dir (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`, `$GEMINI_PROJECT_DIR`,
 * `$CURSOR_PROJECT_DIR`, `$(git rev-parse --show-toplevel)`, …), or relative while the hook runs in
 * the project dir (its working dir by default: `./scripts/x.sh`, `python3 .claude/hooks/x.py`).
 * A heuristic on the words of the command (quotes removed, `cd` followed); the home's own checks
 * (`hooks validate --strict`) parse the command as the shell does. Never throws.
 */
export function projectScriptOf(
  command: string,
  options: { workingDir?: string } = {},
): ProjectScript | undefined {
  const inProject = options.workingDir === undefined || classify(options.workingDir) !== 'outside';
  return scan(command, inProject, 0);
}

// Where a simple command's program is: after its `NAME=value` words and any wrappers (`env`,
// `exec`, …) with their options and assignments.
function programIndex(words: readonly string[]): number {
  let index = 0;
  while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] as string))
    index += 1;
  while (WRAPPERS.has(words[index] ?? '')) {
    index += 1;
    while (index < words.length && /^-|^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] as string))
      index += 1;
  }
  return index;
}

// How deep `bash -c 'sh -c "…"'` is followed.
const MAX_NESTED_SHELLS = 4;

function scan(command: string, startsInProject: boolean, depth: number): ProjectScript | undefined {
  let inProject = startsInProject;
  for (const words of simpleCommands(command)) {
    const index = programIndex(words);
    const program = words[index];
    if (program === undefined) continue;
    if (program === 'cd') {
      // `cd -- DIR`, `cd -P DIR`: the folder is the first operand.
      let operand = index + 1;
      while (/^-[LPe@]+$/.test(words[operand] ?? '')) operand += 1;
      if (words[operand] === '--') operand += 1;
      const target = words[operand];
      const where = target === undefined ? 'outside' : classify(target);
      inProject = where === 'project' || (where === 'relative' && inProject);
      continue;
    }
    const candidates: string[] = [];
    if (program.includes('/')) candidates.push(program);
    const name = program.split('/').at(-1) ?? '';
    if (INTERPRETERS.has(name) || /^python[0-9.]+$/.test(name)) {
      for (const [offset, word] of words.slice(index + 1).entries()) {
        if (SHELLS.has(name) && /^-[A-Za-z]*c[A-Za-z]*$/.test(word)) {
          // `bash -c BODY`: what BODY runs, from where this command is.
          const body = words[index + 2 + offset];
          const found =
            body === undefined || depth >= MAX_NESTED_SHELLS
              ? undefined
              : scan(body, inProject, depth + 1);
          if (found !== undefined) return found;
          break;
        }
        if (INLINE_CODE.test(word)) break;
        if (word.startsWith('-') || SUBCOMMANDS.has(word)) continue;
        if (word.includes('/') || SCRIPT.test(word)) candidates.push(word);
        break;
      }
    }
    for (const candidate of candidates) {
      const where = classify(candidate);
      if (where === 'project') return { text: candidate, how: 'variable' };
      if (where === 'relative' && inProject) return { text: candidate, how: 'relative' };
    }
  }
  return undefined;
}

function classify(word: string): 'project' | 'relative' | 'outside' {
  if (PROJECT_DIR_WORD.test(word)) return 'project';
  if (/^[/~$`]/.test(word)) return 'outside';
  // `..` climbs out of wherever it starts, the project dir included.
  if (word === '..' || word.startsWith('../')) return 'outside';
  return 'relative';
}

/** The words of each simple command, quotes removed (expansions kept as written). */
function simpleCommands(command: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  let index = 0;
  while (index < command.length) {
    const char = command[index] as string;
    if (char === "'") {
      const end = command.indexOf("'", index + 1);
      word = (word ?? '') + command.slice(index + 1, end === -1 ? undefined : end);
      index = end === -1 ? command.length : end + 1;
    } else if (char === '"') {
      let end = index + 1;
      while (end < command.length && command[end] !== '"') end += command[end] === '\\' ? 2 : 1;
      word = (word ?? '') + command.slice(index + 1, end).replace(/\\(["\\$`])/g, '$1');
      index = end + 1;
    } else if (char === '\\') {
      word = (word ?? '') + (command[index + 1] ?? '');
      index += 2;
    } else if (char === '$' && command[index + 1] === '(') {
      // A command substitution is part of the word, whole.
      let depth = 0;
      let end = index + 1;
      for (; end < command.length; end += 1) {
        if (command[end] === '(') depth += 1;
        else if (command[end] === ')' && --depth === 0) break;
      }
      word = (word ?? '') + command.slice(index, end + 1);
      index = end + 1;
    } else if (char === '`') {
      const end = command.indexOf('`', index + 1);
      word = (word ?? '') + command.slice(index, end === -1 ? undefined : end + 1);
      index = end === -1 ? command.length : end + 1;
    } else if (char === '#' && word === undefined) {
      const end = command.indexOf('\n', index);
      index = end === -1 ? command.length : end;
    } else if (/[;&|()\n]/.test(char)) {
      endCommand();
      index += 1;
    } else if (/[<>]/.test(char)) {
      // A redirection's target is not a word of the command.
      endWord();
      index += 1;
      while (/[<>&\s]/.test(command[index] ?? '')) index += 1;
      while (index < command.length && !/[\s;&|()<>]/.test(command[index] as string)) index += 1;
    } else if (/\s/.test(char)) {
      endWord();
      index += 1;
    } else {
      word = (word ?? '') + char;
      index += 1;
    }
  }
  endCommand();
  return commands;
}

/**
 * The program a command runs itself (not through an interpreter such as `bash x.sh`): the first
 * simple command's program when it is a path (`./scripts/guard.sh`, `/opt/x.sh`, `~/x.sh`), as
 * written, quotes removed. Undefined for a bare name found on PATH or an interpreter run.
 */
export function directProgramOf(command: string): string | undefined {
  const words = simpleCommands(command).find((simple) => {
    const first = simple.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
    return first !== undefined && first !== 'export' && first !== 'cd';
  });
  if (words === undefined) return undefined;
  const index = programIndex(words);
  const program = words[index];
  return program?.includes('/') === true ? program : undefined;
}
