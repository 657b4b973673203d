import fs from 'node:fs';
import path from 'node:path';
import { resolveUserPath } from '@soong-agent/paths';

/** One literal word of a shell command, as the shell would pass it (quotes removed). */
export interface CommandWord {
  text: string;
  /** The first word of a simple command: the program, looked up in PATH unless it has a `/`. */
  program: boolean;
}

const OPERATOR = /[;&|()<>\n]/;
const BLANK = /[ \t]/;

/**
 * The literal words of a `/bin/sh -c` command string, quotes removed, skipping what cannot be known
 * without running the shell: words with an expansion (`$`, backquote, a glob, a backslash, `~user`),
 * redirection targets (`> out.log` is written, not run), operators and comments. Never throws.
 */
export function commandWords(command: string): CommandWord[] {
  const words: CommandWord[] = [];
  let index = 0;
  let program = true;
  let redirectTarget = false;
  while (index < command.length) {
    const character = command[index] as string;
    if (BLANK.test(character)) {
      index++;
      continue;
    }
    if (OPERATOR.test(character)) {
      if (character === '<' || character === '>') redirectTarget = true;
      else program = true;
      index++;
      continue;
    }
    if (character === '#') {
      const end = command.indexOf('\n', index);
      index = end === -1 ? command.length : end;
      continue;
    }
    // One word: bare parts and quoted parts up to a blank or an operator.
    let text = '';
    let literal = true;
    while (index < command.length) {
      const current = command[index] as string;
      if (BLANK.test(current) || OPERATOR.test(current)) break;
      if (current === "'") {
        const end = command.indexOf("'", index + 1);
        if (end === -1) return words; // unterminated: the shell refuses it anyway
        text += command.slice(index + 1, end);
        index = end + 1;
      } else if (current === '"') {
        const end = command.indexOf('"', index + 1);
        if (end === -1) return words;
        const inner = command.slice(index + 1, end);
        if (/[$`\\]/.test(inner)) literal = false;
        text += inner;
        index = end + 1;
      } else if (current === '\\') {
        // An escaped character (even a blank) belongs to the word; not worth resolving.
        literal = false;
        text += command.slice(index + 1, index + 2);
        index += 2;
      } else {
        if (/[$`*?[{]/.test(current)) literal = false;
        text += current;
        index++;
      }
    }
    if (literal && text.startsWith('~') && text !== '~' && !text.startsWith('~/')) literal = false;
    // `FOO=bar cmd`: an assignment before the program is not a word of its own.
    const assignment = program && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text);
    if (literal && text !== '' && !redirectTarget && !assignment) words.push({ text, program });
    if (!assignment) program = false;
    redirectTarget = false;
  }
  return words;
}

/**
 * The files a hook's command names: every literal word (see {@link commandWords}) that names an
 * existing regular file, resolved against `cwd` (`~/…` against `homeDir`), absolute, without
 * duplicates. A program word without `/` is looked up in PATH by the shell, so it is not one.
 * These are what the engine fingerprints at session start.
 */
export function commandFiles(command: string, options: { cwd: string; homeDir: string }): string[] {
  const files = new Set<string>();
  for (const word of commandWords(command)) {
    if (word.program && !word.text.includes('/')) continue;
    const resolved = resolveUserPath(word.text, options.cwd, options.homeDir);
    try {
      if (fs.statSync(resolved).isFile()) files.add(path.resolve(resolved));
    } catch {
      // Not a file now: nothing to fingerprint.
    }
  }
  return [...files];
}

/**
 * `command` with `$CLAUDE_PROJECT_DIR` (`"$CLAUDE_PROJECT_DIR"`, `${CLAUDE_PROJECT_DIR}`, bare)
 * replaced by the project dir, single-quoted: what a `"protocol": "claude-code"` hook runs (SPEC §7
 * sets the variable to the project dir), so its script words can be checked and fingerprinted.
 */
export function expandClaudeProjectDir(command: string, projectDir: string): string {
  const quoted = `'${projectDir.replaceAll("'", `'\\''`)}'`;
  return (
    command
      .replaceAll('"$CLAUDE_PROJECT_DIR"', quoted)
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
      .replaceAll('"${CLAUDE_PROJECT_DIR}"', quoted)
      .replace(/\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR(?![A-Za-z0-9_])/g, quoted)
  );
}
