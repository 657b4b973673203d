import { claudeCodeDialect } from './claude-code.js';
import { codexDialect } from './codex.js';
import { copilotDialect } from './copilot.js';
import { cursorDialect } from './cursor.js';
import type { Dialect } from './dialect.js';
import { DialectError } from './dialect-error.js';
import { geminiDialect } from './gemini.js';
import { soongDialect } from './soong.js';
import { theirToolName } from './tool-names.js';

// The dialects this package ships: one line per dialect file.
const BUILT_IN: readonly Dialect[] = [
  soongDialect,
  claudeCodeDialect,
  codexDialect,
  geminiDialect,
  cursorDialect,
  copilotDialect,
];

const dialects = new Map<string, Dialect>();
const names: string[] = [];

/**
 * Every registered dialect name, built-in ones first, then third parties' in registration order.
 * Live: `registerDialect` appends to it.
 */
export const DIALECT_NAMES: readonly string[] = names;

const NAME = /^[a-z][a-z0-9-]*$/;
const FUNCTIONS = ['encodeInput', 'env', 'decide'] as const;
const OPTIONAL_FUNCTIONS = ['decideAnswer', 'convertConfig'] as const;

/**
 * Adds a dialect, so that hooks may declare `"protocol": "<its name>"` (as matcher types are added
 * to a matcher registry). Throws `DialectError` `DUPLICATE_DIALECT` for a name that is taken and
 * `INVALID_DIALECT` for something that is not a dialect.
 */
export function registerDialect(dialect: Dialect): void {
  const candidate = dialect as unknown as Partial<Record<string, unknown>> | null;
  if (typeof candidate !== 'object' || candidate === null) {
    throw invalid(
      `a dialect must be an object, got ${candidate === null ? 'null' : typeof candidate}`,
    );
  }
  const { name } = candidate;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw invalid(
      `a dialect's name must be lowercase letters, digits and "-", starting with a letter; got ${JSON.stringify(name)}`,
    );
  }
  for (const key of FUNCTIONS) {
    if (typeof candidate[key] !== 'function') {
      throw invalid(`dialect "${name}" has no ${key}() function`);
    }
  }
  for (const key of OPTIONAL_FUNCTIONS) {
    if (candidate[key] !== undefined && typeof candidate[key] !== 'function') {
      throw invalid(`dialect "${name}": ${key} must be a function when given`);
    }
  }
  for (const key of ['toolNames', 'events'] as const) {
    const table = candidate[key];
    if (typeof table !== 'object' || table === null || Array.isArray(table)) {
      throw invalid(`dialect "${name}" has no ${key} object`);
    }
  }
  if (dialects.has(name)) {
    throw new DialectError({
      code: 'DUPLICATE_DIALECT',
      message: `a dialect named "${name}" is already registered; pick another name`,
    });
  }
  dialects.set(name, dialect);
  names.push(name);
}

/** The dialect registered under `name`; `DialectError` `UNKNOWN_DIALECT` when there is none. */
export function getDialect(name: string): Dialect {
  const dialect = dialects.get(name);
  if (dialect === undefined) {
    throw new DialectError({
      code: 'UNKNOWN_DIALECT',
      message: `unknown hook protocol ${JSON.stringify(name)}; known: ${names.map((known) => `"${known}"`).join(', ')}`,
    });
  }
  return dialect;
}

/** True when a dialect is registered under `name`. */
export function hasDialect(name: string): boolean {
  return dialects.has(name);
}

/**
 * The name `dialect` gives one of our tools: the host's view when given, else the dialect's
 * `toolNames` entry, else our own name.
 */
export function dialectToolName(dialect: Dialect, ours: string, viewName?: string): string {
  return viewName ?? theirToolName(dialect.toolNames, ours);
}

function invalid(message: string): DialectError {
  return new DialectError({ code: 'INVALID_DIALECT', message });
}

for (const dialect of BUILT_IN) registerDialect(dialect);
