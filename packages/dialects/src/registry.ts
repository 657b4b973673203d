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

/** The dialects this package ships, for {@link createDialectRegistry}: `[...builtInDialects, mine]`. */
export const builtInDialects: readonly Dialect[] = BUILT_IN;

/**
 * Dialects by name: where `loadConfig` and `createHookEngine` resolve a hook's `"protocol"` (once
 * per hook, when the configuration is loaded and when the engine is created).
 */
export interface DialectRegistry {
  /** The dialect named `name`; `DialectError` `UNKNOWN_DIALECT` when there is none. */
  get(name: string): Dialect;
  /** True when a dialect is named `name`. */
  has(name: string): boolean;
  /** Every name, in registration order. */
  readonly names: readonly string[];
}

const NAME = /^[a-z][a-z0-9-]*$/;
const FUNCTIONS = ['encodeInput', 'env', 'decide'] as const;
const OPTIONAL_FUNCTIONS = ['decideAnswer', 'convertConfig'] as const;

// A registry whose `add` checks each dialect as `registerDialect` always has.
function createRegistry(): DialectRegistry & { add(dialect: Dialect): void } {
  const byName = new Map<string, Dialect>();
  const names: string[] = [];
  return {
    names,
    get(name) {
      const dialect = byName.get(name);
      if (dialect === undefined) {
        throw new DialectError({
          code: 'UNKNOWN_DIALECT',
          message: `unknown hook protocol ${JSON.stringify(name)}; known: ${names.map((known) => `"${known}"`).join(', ')}`,
        });
      }
      return dialect;
    },
    has: (name) => byName.has(name),
    add(dialect) {
      const name = checkDialect(dialect);
      if (byName.has(name)) {
        throw new DialectError({
          code: 'DUPLICATE_DIALECT',
          message: `a dialect named "${name}" is already registered; pick another name`,
        });
      }
      byName.set(name, dialect);
      names.push(name);
    },
  };
}

/**
 * A registry built from a list, as `createMatcherRegistry` is:
 * `createDialectRegistry([...builtInDialects, myDialect])`. Throws `DialectError`
 * `INVALID_DIALECT` for something that is not a dialect and `DUPLICATE_DIALECT` for a name given
 * twice.
 */
export function createDialectRegistry(dialects: readonly Dialect[]): DialectRegistry {
  const registry = createRegistry();
  for (const dialect of dialects) registry.add(dialect);
  return { get: registry.get, has: registry.has, names: registry.names };
}

const defaults = createRegistry();

/**
 * The registry `loadConfig` and `createHookEngine` use when given none: the built-in dialects, then
 * those added with {@link registerDialect}. Live.
 */
export const defaultDialectRegistry: DialectRegistry = {
  get: defaults.get,
  has: defaults.has,
  names: defaults.names,
};

/**
 * Every registered dialect name, built-in ones first, then third parties' in registration order.
 * Live: `registerDialect` appends to it.
 */
export const DIALECT_NAMES: readonly string[] = defaults.names;

/**
 * Adds a dialect to the default registry, so that hooks may declare `"protocol": "<its name>"`
 * (sugar over {@link defaultDialectRegistry}; pass a registry of your own to `loadConfig` and
 * `createHookEngine` to keep it local). Throws `DialectError` `DUPLICATE_DIALECT` for a name that
 * is taken and `INVALID_DIALECT` for something that is not a dialect.
 */
export function registerDialect(dialect: Dialect): void {
  defaults.add(dialect);
}

// The dialect's name, once it is checked to be a dialect.
function checkDialect(dialect: Dialect): string {
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
  return name;
}

/** The dialect registered under `name`; `DialectError` `UNKNOWN_DIALECT` when there is none. */
export function getDialect(name: string): Dialect {
  return defaults.get(name);
}

/** True when a dialect is registered under `name`. */
export function hasDialect(name: string): boolean {
  return defaults.has(name);
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
