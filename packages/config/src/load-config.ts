import type * as Crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { DialectRegistry } from '@soong-agent/dialects';
import type { MatcherRegistry, RuleSpec } from '@soong-agent/matcher';
import { DEFAULT_ENV_ALLOWLIST } from '@soong-agent/runner/defaults';
import { type CompiledHooks, createCompiledHooks, emptyCompiledHooks } from './compiled-hooks.js';
import type { Settings } from './config-file-schema.js';
import {
  type ConfigWarning,
  homeInProjectWarning,
  homeMissingWarning,
  hookWarnings,
  writableWarning,
} from './config-warnings.js';
import type { JsonPath } from './issues.js';
import { parseHooks } from './parse-hooks.js';
import { defaultSettings, parseSettings } from './parse-settings.js';
import { readConfigFile } from './read-config-file.js';
import { osHomeDir } from './resolve-agent-home.js';

/** The hooks file name in the agent home. */
export const HOOKS_FILE = 'hooks.json';
/** The settings file name in the agent home. */
export const CONFIG_FILE = 'config.toml';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** The agent home (see `resolveAgentHome`); made absolute. */
  home: string;
  /** The project dir: relative path prefixes are anchored here. Nothing is read from it. */
  projectDir: string;
  /**
   * Run without hooks (`--no-hooks`): hooks.json is not read at all.
   * @default false
   */
  noHooks?: boolean;
  /**
   * The user's OS home, for `~/…` paths and for showing paths as `~/…`. The default is never
   * relative: an empty or relative `HOME` falls back to the password database.
   * @default os.homedir()
   */
  homeDir?: string;
  /**
   * hooks.json text to validate and load instead of the home's file (e.g. a merged file before it
   * is written): messages still name the home's hooks.json, nothing is read for it or written.
   * @default undefined (the file is read)
   */
  hooksText?: string;
  /**
   * The matcher types hooks.json may use.
   * @default the built-in matcher types (the `tool` type's suggestions understand Claude Code's tool names), built for this call
   */
  registry?: MatcherRegistry;
  /**
   * The dialects hooks may speak (`"protocol"`), e.g. `createDialectRegistry([...builtInDialects,
   * mine])`; kept in the result for the engine.
   * @default defaultDialectRegistry (the built-in dialects and those added with `registerDialect`)
   */
  dialects?: DialectRegistry;
}

/** Configuration of one session: a snapshot taken when it starts. */
export interface LoadedConfig {
  /** The agent home, absolute. */
  home: string;
  /** The project dir, absolute. */
  projectDir: string;
  /** config.toml, every default filled in, snake_case keys as in the file. */
  settings: Settings;
  /** DEFAULT_ENV_ALLOWLIST + runner.env_allowlist − runner.env_exclude. */
  envAllowlist: readonly string[];
  /** False when `hooks.enabled = false` or `noHooks`. */
  hooksEnabled: boolean;
  /** hooks.json compiled; empty when disabled or absent. */
  hooks: CompiledHooks;
  /** Lowercase hex sha256 of the hooks.json bytes read; null when absent or disabled. */
  hooksFingerprint: string | null;
  /** Absolute path of hooks.json (whether or not it exists). */
  hooksFile: string;
  /** Absolute path of config.toml (whether or not it exists). */
  configFile: string;
  /** Problems worth showing that do not stop the agent. */
  warnings: ConfigWarning[];
  /**
   * Where the rules of hooks.json are written, for warnings found after loading (`checkToolNames`)
   * to carry a line and column; null when no hooks.json was read.
   */
  hooksSource: HooksSource | null;
  /** The dialects the hooks were checked against, when `loadConfig` was given a registry. @default absent (the default registry) */
  dialects?: DialectRegistry;
}

/** The rules of hooks.json as written, and how to find a value's line and column in the file. */
export interface HooksSource {
  /** Every rule's event and matcher as written, in `hooks.rules` order. */
  specs: readonly RuleSpec[];
  /** The JSON path of rule number `position` (an index into `hooks.rules`), e.g. `['hooks', 'PreToolUse', 0]`. */
  rulePath(position: number): readonly (string | number)[];
  /** The 1-based line and column of the value at `jsonPath`, when it is in the file. */
  locate(jsonPath: readonly (string | number)[]): { line: number; column: number } | undefined;
  /** The OS home, shown as `~` in messages. */
  homeDir: string;
}

/**
 * Reads config.toml and hooks.json from the agent home, once: the session's snapshot. Missing files
 * mean defaults. Never reads anything from the project dir. Throws `ConfigError` for a file that
 * cannot be read, parsed or validated, with every problem found and its line and column.
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const home = path.resolve(options.home);
  const projectDir = path.resolve(options.projectDir);
  const homeDir = path.resolve(options.homeDir ?? osHomeDir());
  const configFile = path.join(home, CONFIG_FILE);
  const hooksFile = path.join(home, HOOKS_FILE);
  const warnings: ConfigWarning[] = [...homeInProjectWarning(home, projectDir, homeDir)];
  const homeMode = statMode(home);
  if (homeMode !== undefined)
    warnings.push(...writableWarning(home, homeMode, homeDir, 'the agent home'));
  warnings.push(...homeMissingWarning(home, homeDir));

  const configContent = readConfigFile(configFile, homeDir);
  let settings: Settings;
  if (configContent === undefined) {
    settings = defaultSettings();
  } else {
    settings = parseSettings({ text: configContent.text, file: configFile, home, homeDir });
    warnings.push(...writableWarning(configFile, configContent.mode, homeDir, 'config.toml'));
  }
  const hooksEnabled = settings.hooks.enabled && options.noHooks !== true;
  let hooks = emptyCompiledHooks();
  let hooksBytes: Uint8Array | undefined;
  let fingerprint: string | null | undefined;
  let hooksSource: HooksSource | null = null;
  if (hooksEnabled) {
    const hooksContent =
      options.hooksText === undefined
        ? readConfigFile(hooksFile, homeDir)
        : { text: options.hooksText, bytes: Buffer.from(options.hooksText), mode: undefined };
    if (hooksContent !== undefined) {
      hooksBytes = hooksContent.bytes;
      const parsed = parseHooks({
        text: hooksContent.text,
        file: hooksFile,
        homeDir,
        projectDir,
        home,
        settings,
        registry: options.registry,
        dialects: options.dialects,
      });
      hooks = createCompiledHooks(parsed.rules, parsed.index);
      const locate = (jsonPath: JsonPath) => parsed.document.locate(jsonPath);
      hooksSource = { specs: parsed.specs, rulePath: parsed.rulePath, locate, homeDir };
      if (hooksContent.mode !== undefined) {
        warnings.push(...writableWarning(hooksFile, hooksContent.mode, homeDir, 'hooks.json'));
      }
      warnings.push(
        ...hookWarnings({
          rules: parsed.rules,
          data: parsed.data,
          file: hooksFile,
          homeDir,
          projectDir,
          home,
          locate,
        }),
      );
    }
  }
  return {
    home,
    projectDir,
    settings,
    envAllowlist: buildEnvAllowlist(settings.runner.env_allowlist, settings.runner.env_exclude),
    hooksEnabled,
    hooks,
    // Hashed when first read: `hooks validate` never reads it, and node:crypto is a start of its
    // own (6 ms on a small VM). The bytes are the ones read here: still a snapshot. Otherwise a
    // plain field: enumerable, writable, readable from a frozen config.
    get hooksFingerprint() {
      fingerprint ??= hooksBytes === undefined ? null : sha256Hex(hooksBytes);
      Reflect.defineProperty(this, 'hooksFingerprint', dataProperty(fingerprint));
      return fingerprint;
    },
    set hooksFingerprint(value) {
      Reflect.defineProperty(this, 'hooksFingerprint', dataProperty(value));
    },
    hooksFile,
    configFile,
    warnings,
    hooksSource,
    ...(options.dialects === undefined ? {} : { dialects: options.dialects }),
  };
}

const requireBuiltin = createRequire(import.meta.url);

function dataProperty(value: string | null): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true };
}

function sha256Hex(bytes: Uint8Array): string {
  const { createHash } = requireBuiltin('node:crypto') as typeof Crypto;
  return createHash('sha256').update(bytes).digest('hex');
}

function statMode(target: string): number | undefined {
  try {
    return fs.statSync(target).mode;
  } catch {
    return undefined;
  }
}

/** The runner's default list plus `adds` (in order, once each) minus `excludes`. */
function buildEnvAllowlist(
  adds: readonly string[],
  excludes: readonly string[],
): readonly string[] {
  const excluded = new Set(excludes);
  return Object.freeze(
    [...new Set([...DEFAULT_ENV_ALLOWLIST, ...adds])].filter((name) => !excluded.has(name)),
  );
}
