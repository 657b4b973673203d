import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BuiltInToolSpec } from './define-tool.js';
import { ToolInputError } from './input.js';
import { findGuard, listGuardedDirectory, type ReadGuard, readGuardsFor } from './read-guard.js';
import { type ReadRegularFileOptions, readRegularFile } from './regular-file.js';

/** Bounds of `grep`: matches returned, files visited, file size searched, characters per line. */
export const GREP_LIMITS = {
  maxMatches: 200,
  maxFiles: 10_000,
  maxFileBytes: 1024 * 1024,
  maxLineChars: 300,
} as const;

/** Directories `grep` does not descend into. */
export const GREP_SKIPPED_DIRS: readonly string[] = ['.git', 'node_modules'];

/**
 * Compiles a grep pattern: `/source/flags` is a JavaScript regular expression, anything else a plain
 * substring. Throws {@link ToolInputError} for an invalid expression.
 */
export function compileGrepPattern(pattern: string): (line: string) => boolean {
  const literal = /^\/(.+)\/([dimsuv]*)$/s.exec(pattern);
  if (literal === null) return (line) => line.includes(pattern);
  let expression: RegExp;
  try {
    expression = new RegExp(literal[1] as string, (literal[2] as string).replace('g', ''));
  } catch (error) {
    throw new ToolInputError(
      `invalid input: "pattern" is not a valid regular expression (${(error as Error).message})`,
    );
  }
  return (line) => expression.test(line);
}

interface GrepState {
  matches: string[];
  files: number;
  truncated: boolean;
  skipped: GrepSkip[];
  guards: readonly ReadGuard[];
}

/** An entry `grep` did not search, and why (for people). */
export interface GrepSkip {
  /** The entry, relative to the project dir; directories end with `/`. */
  shown: string;
  /** Why it was skipped. */
  why: string;
}

/** Skipped entries named in a `grep` result; the rest are counted. */
export const GREP_SKIPS_SHOWN = 20;

async function searchFile(
  file: string,
  shown: string,
  test: (line: string) => boolean,
  state: GrepState,
  read: ReadRegularFileOptions,
): Promise<void> {
  state.files += 1;
  const found = await readRegularFile(file, GREP_LIMITS.maxFileBytes, {
    ...read,
    guards: state.guards,
  }).catch(() => undefined);
  if (found !== undefined && 'refused' in found) {
    state.skipped.push({ shown, why: found.refused });
    return;
  }
  if (found === undefined || 'problem' in found || found.buffer.includes(0)) return;
  const buffer = found.buffer;
  const lines = buffer.toString('utf8').split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    if (!test(line)) continue;
    if (state.matches.length >= GREP_LIMITS.maxMatches) {
      state.truncated = true;
      return;
    }
    const text =
      line.length > GREP_LIMITS.maxLineChars ? `${line.slice(0, GREP_LIMITS.maxLineChars)}…` : line;
    state.matches.push(`${shown}:${index + 1}: ${text}`);
  }
}

// What a guard means for the model: the entry exists, and how to get the rule's hooks to decide.
function guardedSkip(shown: string, guard: ReadGuard): GrepSkip {
  return {
    shown,
    why: `guarded by ${guard.guardedBy}; call read_file or grep on it by its own path so that the rule's hooks decide`,
  };
}

// `real` is where `dir` really is: the walk follows no symlink, so an entry's real path is its
// parent's plus its name, and each entry is checked against the guards by both paths before it is
// opened or entered (and, when opened, by its descriptor).
async function walk(
  dir: string,
  real: string,
  base: string,
  test: (line: string) => boolean,
  state: GrepState,
  followLink = false,
): Promise<void> {
  const listing = await listGuardedDirectory(dir, state.guards, {
    expected: real,
    followLink,
  }).catch(() => undefined);
  if (listing === undefined) return;
  const shownDir = `${path.relative(base, dir) || '.'}/`;
  if ('refusal' in listing) {
    state.skipped.push(
      listing.guard === undefined
        ? { shown: shownDir, why: listing.refusal }
        : guardedSkip(shownDir, listing.guard),
    );
    return;
  }
  const entries = listing.entries;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (state.truncated) return;
    if (state.files >= GREP_LIMITS.maxFiles) {
      state.truncated = true;
      return;
    }
    const full = path.join(dir, entry.name);
    const fullReal = path.join(real, entry.name);
    // Symlinks are not followed: no loops, no escaping the searched tree.
    const isDirectory = entry.isDirectory();
    if (!isDirectory && !entry.isFile()) continue;
    if (isDirectory && GREP_SKIPPED_DIRS.includes(entry.name)) continue;
    const shown = path.relative(base, full) + (isDirectory ? '/' : '');
    const guard = findGuard([full, fullReal], state.guards);
    if (guard !== undefined) {
      state.skipped.push(guardedSkip(shown, guard));
    } else if (isDirectory) {
      await walk(full, fullReal, base, test, state);
    } else {
      await searchFile(full, shown, test, state, { expectedRealPath: fullReal, noFollow: true });
    }
  }
}

/** What a search found. */
export interface GrepResult {
  matches: string[];
  files: number;
  truncated: boolean;
  /** Entries not searched because a PreToolUse rule guards them (or they changed mid-walk). */
  skipped: GrepSkip[];
}

/**
 * Searches `target` (a file or a directory tree) for `pattern`, bounded by {@link GREP_LIMITS}.
 * Nothing at or under a guarded prefix is opened or entered (see `readGuardsFor`); what was skipped
 * is in the result.
 */
export async function searchTree(
  target: string,
  projectDir: string,
  pattern: string,
  guards: readonly ReadGuard[] = [],
): Promise<GrepResult> {
  const test = compileGrepPattern(pattern);
  const state: GrepState = { matches: [], files: 0, truncated: false, skipped: [], guards };
  const result = () => ({
    matches: state.matches,
    files: state.files,
    truncated: state.truncated,
    skipped: state.skipped,
  });
  const info = await stat(target);
  const real = await realpath(target);
  const shown = path.relative(projectDir, target) || '.';
  const guard = findGuard([target, real], guards);
  if (guard !== undefined) {
    state.skipped.push(guardedSkip(shown + (info.isDirectory() ? '/' : ''), guard));
  } else if (info.isDirectory()) {
    await walk(target, real, projectDir, test, state, true);
  } else {
    await searchFile(target, shown, test, state, { expectedRealPath: real });
  }
  return result();
}

/** The lines of a result that say what was skipped, bounded by {@link GREP_SKIPS_SHOWN}. */
function skippedLines(skipped: readonly GrepSkip[]): string {
  if (skipped.length === 0) return '';
  const lines = skipped
    .slice(0, GREP_SKIPS_SHOWN)
    .map((skip) => `\nskipped ${skip.shown} (${skip.why})`);
  const more = skipped.length - GREP_SKIPS_SHOWN;
  return lines.join('') + (more > 0 ? `\n[${more} more skipped]` : '');
}

/** Time a `/regex/` search may take before it is stopped (catastrophic backtracking). */
export const GREP_REGEX_TIMEOUT_MS = 10_000;

const isRegex = (pattern: string) => /^\/(.+)\/([dimsuv]*)$/s.test(pattern);

// A regular expression can backtrack for hours on one line (`/(a+)+$/`), and a synchronous match
// cannot be interrupted: not by a timeout, not by Ctrl+C. So a regex search runs in a worker
// thread, which can be terminated; a substring search is linear and stays here. worker_threads is
// loaded here, not with the tool: every command that builds the tool registry (`hooks validate`)
// would pay for it at start.
async function searchInWorker(
  target: string,
  projectDir: string,
  pattern: string,
  guards: readonly ReadGuard[],
  signal: AbortSignal | undefined,
): Promise<GrepResult | { stopped: 'timeout' | 'aborted' }> {
  const { Worker } = await import('node:worker_threads');
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./grep-worker.js', import.meta.url), {
      workerData: { target, projectDir, pattern, guards },
    });
    const stop = (why: 'timeout' | 'aborted') => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve({ stopped: why });
    };
    const onAbort = () => stop('aborted');
    const timer = setTimeout(() => stop('timeout'), GREP_REGEX_TIMEOUT_MS);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: { result?: GrepResult; error?: string; code?: string }) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (message.result !== undefined) resolve(message.result);
      else reject(Object.assign(new Error(message.error), { code: message.code }));
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
  });
}

/** `grep` (readonly): lines matching a substring or `/regex/flags`, recursively, bounded; in JS. */
export const grepTool: BuiltInToolSpec = {
  name: 'grep',
  risk: 'readonly',
  description:
    'Search files for a plain substring, or a JavaScript regex written /source/flags. Skips .git and node_modules.',
  fields: {
    pattern: { type: 'string', required: true, description: 'substring, or /regex/flags' },
    path: {
      type: 'string',
      required: false,
      description: 'file or directory to search (default ".")',
    },
  },
  pathField: 'path',
  defaultPath: '.',
  async run(values, context, call) {
    const pattern = values.pattern as string;
    if (pattern === '') throw new ToolInputError('invalid input: "pattern" must not be empty');
    compileGrepPattern(pattern); // an invalid regex is an input error before any worker starts
    const target = call.path as string;
    const guards = readGuardsFor(context, { tool: 'grep', risk: 'readonly', path: target });
    const found = isRegex(pattern)
      ? await searchInWorker(target, context.projectDir, pattern, guards, call.signal)
      : await searchTree(target, context.projectDir, pattern, guards);
    if ('stopped' in found) {
      return {
        content:
          found.stopped === 'timeout'
            ? `stopped: the regular expression ran past ${GREP_REGEX_TIMEOUT_MS / 1000}s (it likely backtracks catastrophically); use a plain substring or a simpler expression`
            : 'cancelled',
        isError: true,
      };
    }
    const footer = found.truncated
      ? `\n[stopped after ${found.matches.length} matches / ${found.files} files]`
      : '';
    return {
      content:
        (found.matches.length === 0
          ? `no matches (${found.files} files searched)`
          : found.matches.join('\n') + footer) + skippedLines(found.skipped),
      isError: false,
    };
  },
};
