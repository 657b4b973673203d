import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BuiltInToolSpec } from './define-tool.js';
import { ToolInputError } from './input.js';
import { readRegularFile } from './regular-file.js';

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
}

async function searchFile(
  file: string,
  shown: string,
  test: (line: string) => boolean,
  state: GrepState,
): Promise<void> {
  state.files += 1;
  const read = await readRegularFile(file, GREP_LIMITS.maxFileBytes).catch(() => undefined);
  if (read === undefined || 'problem' in read || read.buffer.includes(0)) return;
  const buffer = read.buffer;
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

async function walk(
  dir: string,
  base: string,
  test: (line: string) => boolean,
  state: GrepState,
): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (state.truncated) return;
    if (state.files >= GREP_LIMITS.maxFiles) {
      state.truncated = true;
      return;
    }
    const full = path.join(dir, entry.name);
    // Symlinked directories are not followed: no loops, no escaping the searched tree.
    if (entry.isDirectory()) {
      if (!GREP_SKIPPED_DIRS.includes(entry.name)) await walk(full, base, test, state);
    } else if (entry.isFile()) {
      await searchFile(full, path.relative(base, full), test, state);
    }
  }
}

/** What a search found. */
export interface GrepResult {
  matches: string[];
  files: number;
  truncated: boolean;
}

/** Searches `target` (a file or a directory tree) for `pattern`, bounded by {@link GREP_LIMITS}. */
export async function searchTree(
  target: string,
  projectDir: string,
  pattern: string,
): Promise<GrepResult> {
  const test = compileGrepPattern(pattern);
  const state: GrepState = { matches: [], files: 0, truncated: false };
  if ((await stat(target)).isDirectory()) {
    await walk(target, projectDir, test, state);
  } else {
    await searchFile(target, path.relative(projectDir, target), test, state);
  }
  return state;
}

/** Time a `/regex/` search may take before it is stopped (catastrophic backtracking). */
export const GREP_REGEX_TIMEOUT_MS = 10_000;

const isRegex = (pattern: string) => /^\/(.+)\/([dimsuv]*)$/s.test(pattern);

// A regular expression can backtrack for hours on one line (`/(a+)+$/`), and a synchronous match
// cannot be interrupted: not by a timeout, not by Ctrl+C. So a regex search runs in a worker
// thread, which can be terminated; a substring search is linear and stays here.
function searchInWorker(
  target: string,
  projectDir: string,
  pattern: string,
  signal: AbortSignal | undefined,
): Promise<GrepResult | { stopped: 'timeout' | 'aborted' }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./grep-worker.js', import.meta.url), {
      workerData: { target, projectDir, pattern },
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
    const found = isRegex(pattern)
      ? await searchInWorker(target, context.projectDir, pattern, call.signal)
      : await searchTree(target, context.projectDir, pattern);
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
        found.matches.length === 0
          ? `no matches (${found.files} files searched)`
          : found.matches.join('\n') + footer,
      isError: false,
    };
  },
};
