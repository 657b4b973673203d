import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, HOOKS_FILE, loadConfig, MAX_CONFIG_FILE_BYTES } from '@soong-agent/config';
import {
  type ConvertOptions,
  type ConvertResult,
  convertClaudeCodeConfig,
  DialectError,
  getDialect,
} from '@soong-agent/dialects';
import { parse as parseToml } from 'smol-toml';
import { resolveLocations } from '../agent/session.js';
import { CliError, EXIT_CODES } from '../errors.js';
import type { CommonOptions } from '../program.js';
import { readTextFileSync } from '../tools/regular-file.js';

/** Options of `soong-agent hooks import`. */
export interface ImportOptions extends CommonOptions {
  /** `--from SOURCE`: the agent the hooks come from. */
  from: string;
  /** `--write`: merge into the home's hooks.json instead of printing. @default false */
  write?: boolean;
  /** `--plugin-root DIR`: the file is a plugin's hooks file; DIR is the plugin. */
  pluginRoot?: string;
}

/** The agents `--from` takes, their dialect, their name and their user-level files. */
const SOURCES: Readonly<
  Record<string, { dialect: string; agent: string; defaults: () => string[] }>
> = {
  claude: {
    dialect: 'claude-code',
    agent: 'Claude Code',
    defaults: () => [path.join(os.homedir(), '.claude', 'settings.json')],
  },
  codex: {
    dialect: 'codex',
    agent: 'Codex',
    defaults: () => [
      path.join(os.homedir(), '.codex', 'hooks.json'),
      path.join(os.homedir(), '.codex', 'config.toml'),
    ],
  },
  gemini: {
    dialect: 'gemini',
    agent: 'Gemini CLI',
    defaults: () => [path.join(os.homedir(), '.gemini', 'settings.json')],
  },
  cursor: {
    dialect: 'cursor',
    agent: 'Cursor',
    defaults: () => [path.join(os.homedir(), '.cursor', 'hooks.json')],
  },
  copilot: {
    dialect: 'copilot',
    agent: 'Copilot CLI',
    defaults: () => {
      const folder = path.join(os.homedir(), '.copilot', 'hooks');
      try {
        return readdirSync(folder)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => path.join(folder, name));
      } catch {
        return [path.join(folder, '*.json')];
      }
    },
  },
};

/** The settings file read when FILE is not given: Claude Code's user-level settings. */
export function defaultClaudeSettingsFile(): string {
  return path.join(os.homedir(), '.claude', 'settings.json');
}

/** Folders an agent keeps its project-level files in. */
const PROJECT_FOLDERS = new Set(['.claude', '.codex', '.gemini', '.cursor', '.github', '.copilot']);
/** Files that mark a plugin's (or extension's) root. */
const PLUGIN_MANIFESTS = [
  path.join('.claude-plugin', 'plugin.json'),
  path.join('.codex-plugin', 'plugin.json'),
  'gemini-extension.json',
];

/**
 * `soong-agent hooks import --from claude|codex|gemini|cursor|copilot [FILE] [--write]` (SPEC §7,
 * §12): converts another agent's hook configuration with the dialect's pure converter; prints every
 * refusal and note on stderr. Without `--write` the resulting hooks.json goes to stdout; with it the
 * rules are merged into the home's hooks.json (the old file kept as hooks.json.bak) after the merged
 * text is validated. Exit 0 when something was converted, 2 when nothing was.
 */
export async function importAction(
  file: string | undefined,
  options: ImportOptions,
): Promise<number> {
  const source = SOURCES[options.from];
  if (source === undefined) {
    throw new CliError({
      code: 'USAGE',
      message: `--from ${JSON.stringify(options.from)} is not a source; sources: ${Object.keys(SOURCES).join(', ')}`,
    });
  }
  const files = file === undefined ? existingDefaults(source) : [path.resolve(file)];
  const results: { file: string; result: ConvertResult }[] = [];
  for (const one of files) {
    const { text, label, plugin } = readSource(one, options, source.agent);
    const convertOptions: ConvertOptions = { file: label };
    if (plugin !== undefined) convertOptions.plugin = { root: plugin };
    if (file === undefined) convertOptions.scope = 'user';
    const result = convert(source.dialect, text, convertOptions);
    result.notes.push(...execBitNotes(one, result, options.project));
    results.push({ file: one, result });
  }
  const converted = mergeResults(results);
  const shown = files.join(', ');
  const ruleCount = Object.values(converted.hooks.hooks).reduce(
    (sum, rules) => sum + rules.length,
    0,
  );
  let hookCount = 0;
  for (const rules of Object.values(converted.hooks.hooks)) {
    for (const rule of rules as { hooks?: unknown[] }[]) hookCount += rule.hooks?.length ?? 0;
  }
  for (const refusal of converted.refused)
    process.stderr.write(`refused ${refusal.path}: ${refusal.reason}\n`);
  for (const note of converted.notes) process.stderr.write(`note ${note}\n`);
  const refused =
    converted.refused.length === 0 ? '' : `; ${converted.refused.length} refused (listed above)`;
  if (hookCount === 0) {
    process.stderr.write(`nothing to import from ${shown}${refused}\n`);
    return EXIT_CODES.usage;
  }
  process.stderr.write(
    `converted ${plural(hookCount, 'hook')} in ${plural(ruleCount, 'rule')} from ${shown}${refused}\n`,
  );
  if (options.write !== true) {
    process.stdout.write(`${JSON.stringify(converted.hooks, null, 2)}\n`);
    return EXIT_CODES.ok;
  }
  const fromProject = file !== undefined && isProjectFile(path.resolve(file));
  return writeImport(converted, options, fromProject);
}

function existingDefaults(source: (typeof SOURCES)[string]): string[] {
  const defaults = source.defaults();
  const present = defaults.filter((candidate) => {
    try {
      return lstatSync(candidate).isFile();
    } catch {
      return false;
    }
  });
  if (present.length === 0) {
    throw new CliError({
      code: 'USAGE',
      message: `no ${source.agent} hooks file at ${defaults.join(' or ')}; name the file: hooks import --from ${Object.keys(SOURCES).find((key) => SOURCES[key] === source)} FILE`,
    });
  }
  return present;
}

function convert(dialect: string, text: string, options: ConvertOptions): ConvertResult {
  try {
    if (dialect === 'claude-code') return convertClaudeCodeConfig(text, options);
    const converter = getDialect(dialect).convertConfig;
    if (converter === undefined)
      throw new CliError({ code: 'USAGE', message: `the ${dialect} dialect has no converter` });
    return converter(text, options);
  } catch (error) {
    if (!DialectError.isInstance(error)) throw error;
    throw new CliError({ code: 'USAGE', message: error.message, cause: error });
  }
}

/**
 * Notes on the scripts the converted hooks run directly that have no exec bit (SPEC §13.2): Copilot
 * CLI runs such a script anyway; here the hook runs the command through /bin/sh, which cannot
 * execute it (exit 126, a failed hook). Each names the hook and the fix. A relative script is
 * looked for where the source agent would run it: the hook's `cwd`, else the project the file
 * belongs to (or, for a user-level file, the project dir given, else the current dir).
 */
function execBitNotes(file: string, result: ConvertResult, project: string | undefined): string[] {
  const notes: string[] = [];
  const projectRoot = isProjectFile(file)
    ? projectOfFile(file)
    : path.resolve(project ?? process.cwd());
  for (const script of result.scripts ?? []) {
    const resolved = scriptOnDisk(script.program, script.workingDir, projectRoot);
    if (resolved === undefined) continue;
    notes.push(
      `${script.path} (${script.hook ?? 'unnamed'}): ${resolved} has no exec bit; Copilot CLI runs it anyway, but here /bin/sh cannot execute it (the hook fails with exit 126): fix it with chmod +x ${shellWord(resolved)}`,
    );
  }
  return notes;
}

// The script as a regular file without any exec bit, or undefined (absent, executable, a variable).
function scriptOnDisk(
  program: string,
  workingDir: string | undefined,
  projectRoot: string,
): string | undefined {
  if (program.startsWith('$') || program.startsWith('`')) return undefined;
  let file: string;
  if (program === '~' || program.startsWith('~/')) file = path.join(os.homedir(), program.slice(1));
  else if (path.isAbsolute(program)) file = program;
  else file = path.resolve(projectRoot, workingDir ?? '.', program);
  try {
    const stat = statSync(file);
    return stat.isFile() && (stat.mode & 0o111) === 0 ? file : undefined;
  } catch {
    return undefined;
  }
}

// The project a project-level file belongs to: the folder above its agent folder.
function projectOfFile(file: string): string {
  const folder = path.dirname(path.resolve(file));
  return PROJECT_FOLDERS.has(path.basename(folder))
    ? path.dirname(folder)
    : path.dirname(path.dirname(folder));
}

function shellWord(text: string): string {
  return /^[A-Za-z0-9_./+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The text to convert, the label messages name it by, and the plugin root when it is a plugin's file. */
function readSource(
  file: string,
  options: ImportOptions,
  agent: string,
): { text: string; label: string; plugin?: string } {
  const read = readTextFileSync(file, MAX_CONFIG_FILE_BYTES);
  if (!('text' in read)) {
    throw new CliError({
      code: 'USAGE',
      message: `cannot read ${agent} hooks file ${file}: ${read.code ?? read.problem} (name the file: hooks import --from ${options.from} FILE)`,
    });
  }
  const plugin =
    options.pluginRoot !== undefined ? path.resolve(options.pluginRoot) : pluginRootOf(file);
  if (file.endsWith('.toml')) {
    // Codex: the [hooks] table of config.toml, in the hooks.json shape.
    let table: unknown;
    try {
      table = parseToml(read.text).hooks;
    } catch (error) {
      const where = error as { line?: number; column?: number; message: string };
      throw new CliError({
        code: 'USAGE',
        message: `${file}:${where.line ?? 1}:${where.column ?? 1}: not valid TOML: ${where.message.split('\n')[0]}`,
        cause: error,
      });
    }
    return {
      text: JSON.stringify({ hooks: table ?? {} }),
      label: `${file} [hooks]`,
      ...(plugin === undefined ? {} : { plugin }),
    };
  }
  if (
    path.basename(file) === 'plugin.json' &&
    path.basename(path.dirname(file)).endsWith('-plugin')
  ) {
    return pluginManifestHooks(file, read.text, agent, options);
  }
  return { text: read.text, label: file, ...(plugin === undefined ? {} : { plugin }) };
}

/** A plugin manifest named as FILE: its `hooks` (a path, or the hooks object itself). */
function pluginManifestHooks(
  file: string,
  text: string,
  agent: string,
  options: ImportOptions,
): { text: string; label: string; plugin: string } {
  const root = path.dirname(path.dirname(file));
  let manifest: { hooks?: unknown };
  try {
    manifest = JSON.parse(text) as { hooks?: unknown };
  } catch (error) {
    throw new CliError({
      code: 'USAGE',
      message: `${file} is not valid JSON: ${(error as Error).message}`,
      cause: error,
    });
  }
  const hooks = manifest.hooks ?? './hooks/hooks.json';
  if (typeof hooks === 'string') {
    const hooksFile = path.resolve(root, hooks.replace(/^\$\{CLAUDE_PLUGIN_ROOT\}\/?/, ''));
    const read = readTextFileSync(hooksFile, MAX_CONFIG_FILE_BYTES);
    if (!('text' in read)) {
      throw new CliError({
        code: 'USAGE',
        message: `${file} names the hooks file ${hooksFile}, which cannot be read (${read.code ?? read.problem}): this plugin has no hooks to import`,
      });
    }
    return { text: read.text, label: hooksFile, plugin: options.pluginRoot ?? root };
  }
  return {
    text: JSON.stringify({ hooks }),
    label: `${file} "hooks" (${agent})`,
    plugin: options.pluginRoot ?? root,
  };
}

/** The plugin a hooks file belongs to: the nearest folder above it with a plugin manifest. */
function pluginRootOf(file: string): string | undefined {
  let folder = path.dirname(file);
  for (let depth = 0; depth < 4; depth += 1) {
    for (const manifest of PLUGIN_MANIFESTS) {
      try {
        if (lstatSync(path.join(folder, manifest)).isFile()) return folder;
      } catch {
        // not here
      }
    }
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return undefined;
}

/** A project's file: in an agent's folder (`.claude/`, `.cursor/`, …) that is not in the OS home. */
function isProjectFile(file: string): boolean {
  const folder = path.dirname(file);
  const top = PROJECT_FOLDERS.has(path.basename(folder))
    ? path.dirname(folder)
    : PROJECT_FOLDERS.has(path.basename(path.dirname(folder)))
      ? path.dirname(path.dirname(folder))
      : undefined;
  return top !== undefined && path.resolve(top) !== path.resolve(os.homedir());
}

function mergeResults(results: { file: string; result: ConvertResult }[]): ConvertResult {
  if (results.length === 1) return (results[0] as { result: ConvertResult }).result;
  const hooks: Record<string, unknown[]> = {};
  const refused: ConvertResult['refused'] = [];
  const notes: string[] = [];
  const names = takenNames();
  for (const { file, result } of results) {
    // Each file's hooks are named on their own: a name taken by an earlier file gets a suffix.
    for (const rules of Object.values(result.hooks.hooks)) renameTaken(rules, names);
    for (const [event, rules] of Object.entries(result.hooks.hooks))
      hooks[event] = [...(hooks[event] ?? []), ...rules];
    for (const refusal of result.refused)
      refused.push({ path: `${path.basename(file)}: ${refusal.path}`, reason: refusal.reason });
    for (const note of result.notes) notes.push(`${path.basename(file)}: ${note}`);
  }
  return { hooks: { version: 1, hooks }, refused, notes };
}

function writeImport(
  converted: ConvertResult,
  options: ImportOptions,
  fromProject: boolean,
): number {
  const { home, projectDir } = resolveLocations(options, { createsHome: true });
  const hooksFile = path.join(home, HOOKS_FILE);
  const before = readExisting(hooksFile);
  const data = before?.data ?? { version: 1, hooks: {} };
  data.hooks ??= {};
  const events = data.hooks as Record<string, unknown[]>;
  const names = existingNames(events);
  let added = 0;
  let skipped = 0;
  for (const [event, rules] of Object.entries(converted.hooks.hooks)) {
    events[event] ??= [];
    const existing = events[event];
    if (!Array.isArray(existing)) {
      throw new CliError({
        code: 'CONFIG',
        message: `${hooksFile}: hooks.${event} is not an array; fix it first (soong-agent hooks validate), nothing was written`,
      });
    }
    const seen = new Set(existing.map((rule) => safeJson(rule)));
    for (const rule of rules as { hooks: { name?: string }[] }[]) {
      if (seen.has(safeJson(rule))) {
        skipped += 1;
        continue;
      }
      // A copy: a converter (a registered one too) may give two rules one hook object, and each
      // rule's hook needs a name of its own.
      const own = structuredClone(rule);
      renameTaken([own], names);
      existing.push(own);
      added += 1;
    }
  }
  if (added === 0) {
    process.stdout.write(`${hooksFile} already has every converted rule; nothing written\n`);
    return EXIT_CODES.ok;
  }
  const text = `${JSON.stringify(data, null, 2)}\n`;
  validate(text, home, projectDir, hooksFile);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const backup = `${hooksFile}.bak`;
  if (before !== undefined) {
    // A temporary file renamed over the name: a hooks.json.bak planted as a symlink is replaced,
    // never followed.
    const temporary = `${hooksFile}.bak-${process.pid}`;
    rmSync(temporary, { force: true });
    writeFileSync(temporary, before.text, { mode: 0o600, flag: 'wx' });
    chmodSync(temporary, 0o600);
    renameSync(temporary, backup);
  }
  const temporary = `${hooksFile}.import-${process.pid}`;
  rmSync(temporary, { force: true });
  writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, hooksFile);
  const kept = before === undefined ? '' : ` (the previous file is kept as ${backup})`;
  const duplicates = skipped === 0 ? '' : `; ${plural(skipped, 'rule')} already there`;
  process.stdout.write(
    `wrote ${plural(added, 'rule')} to ${hooksFile}${kept}${duplicates}; check them with: soong-agent hooks list\n`,
  );
  if (fromProject) {
    process.stdout.write(
      `note: these hooks came from a project's settings; in the agent home they run for every project you open with soong-agent (relative script paths resolve against each project)\n`,
    );
  }
  return EXIT_CODES.ok;
}

/** Hook names already used, and per name the suffix to try next (so renaming stays linear). */
interface TakenNames {
  names: Set<string>;
  nextSuffix: Map<string, number>;
}

function takenNames(names = new Set<string>()): TakenNames {
  return { names, nextSuffix: new Map() };
}

/** Gives each named hook of `rules` a name not in `taken` (`guard` → `guard-2`), and takes it. */
function renameTaken(rules: readonly unknown[], taken: TakenNames): void {
  for (const rule of rules as { hooks?: { name?: string }[] }[]) {
    for (const hook of rule.hooks ?? []) {
      if (hook.name === undefined) continue;
      let name = hook.name;
      if (taken.names.has(name)) {
        let count = taken.nextSuffix.get(hook.name) ?? 2;
        while (taken.names.has(`${hook.name}-${count}`)) count += 1;
        taken.nextSuffix.set(hook.name, count + 1);
        name = `${hook.name}-${count}`;
      }
      hook.name = name;
      taken.names.add(name);
    }
  }
}

function existingNames(events: Record<string, unknown[]>): TakenNames {
  const names = new Set<string>();
  for (const rules of Object.values(events)) {
    if (!Array.isArray(rules)) continue;
    for (const rule of rules) {
      const hooks = (rule as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(hooks)) continue;
      for (const hook of hooks) {
        const name = (hook as { name?: unknown } | null)?.name;
        if (typeof name === 'string') names.add(name);
      }
    }
  }
  return takenNames(names);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(Math.random());
  }
}

function readExisting(
  hooksFile: string,
): { data: Record<string, unknown>; text: string } | undefined {
  const read = readTextFileSync(hooksFile, MAX_CONFIG_FILE_BYTES);
  if (!('text' in read)) {
    if (read.code === 'ENOENT') return undefined;
    throw new CliError({
      code: 'RUNTIME',
      message: `cannot read ${hooksFile}: ${read.problem}; nothing was written`,
    });
  }
  const text = read.text;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CliError({
      code: 'CONFIG',
      message: `${hooksFile} is not valid JSON (${(error as Error).message}); fix it first (soong-agent hooks validate), nothing was written`,
      cause: error,
    });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new CliError({
      code: 'CONFIG',
      message: `${hooksFile} is not a JSON object; fix it first (soong-agent hooks validate), nothing was written`,
    });
  }
  return { data: data as Record<string, unknown>, text };
}

// The merged text is validated as the home's hooks.json by the config package, before anything
// is written (nothing is written to validate it).
function validate(text: string, home: string, projectDir: string, hooksFile: string): void {
  try {
    loadConfig({ home, projectDir, hooksText: text });
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    throw new CliError({
      code: 'CONFIG',
      message: `the merged ${hooksFile} would be invalid; nothing was written:\n${error.message}`,
      cause: error,
    });
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
