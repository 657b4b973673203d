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
import {
  ConfigError,
  HOOKS_FILE,
  jsonSyntaxIssue,
  loadConfig,
  MAX_CONFIG_FILE_BYTES,
} from '@soong-agent/config';
import {
  type ConvertOptions,
  type ConvertResult,
  convertClaudeCodeConfig,
  DialectError,
  getDialect,
} from '@soong-agent/dialects';
import { parse as parseToml } from 'smol-toml';
import { resolveLocations } from '../agent/locations.js';
import type { CommonOptions } from '../common-options.js';
import { CliError, EXIT_CODES } from '../errors.js';
import { readTextFileSync } from '../tools/regular-file.js';
import {
  cachedPluginNote,
  enabledPluginNotes,
  type ImportCommandLine,
  originKey,
} from './claude-plugins.js';

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
 * `soong-agent hooks import --from claude|codex|gemini|cursor|copilot [FILE] [--write]` (spec §7,
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
  const commandLine: ImportCommandLine = { home: options.home, write: options.write === true };
  for (const one of files) {
    const { text, label, plugin } = readSource(one, options, source.agent);
    const convertOptions: ConvertOptions = { file: label, home: os.homedir() };
    if (plugin !== undefined) convertOptions.plugin = { root: plugin };
    if (file === undefined) convertOptions.scope = 'user';
    // Written hooks record their source, so importing the file again updates them in place.
    if (options.write === true) convertOptions.origin = homeShown(one);
    const result = convert(source.dialect, text, convertOptions, one);
    if (source.dialect === 'claude-code') addPluginNotes(result, text, one, commandLine);
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
  const contextNote = deliverContextNote(converted.hooks.hooks);
  if (contextNote !== undefined) process.stderr.write(contextNote);
  const refused =
    converted.refused.length === 0 ? '' : `; ${converted.refused.length} refused (listed above)`;
  if (hookCount === 0) {
    process.stderr.write(`nothing to import from ${shown}${refused}\n`);
    if (options.write === true) reportLeftovers(files, options);
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

/**
 * spec §13.1: one note per import naming every converted hook whose agent would give its model the
 * context it adds (its dialect's `contextEvents`), and the config.toml lines that deliver it here;
 * undefined when no hook can add context.
 */
export function deliverContextNote(events: Record<string, unknown[]>): string | undefined {
  const named: string[] = [];
  for (const [event, rules] of Object.entries(events)) {
    for (const rule of rules as {
      hooks?: { name?: unknown; protocol?: unknown; command?: unknown }[];
    }[]) {
      for (const hook of rule.hooks ?? []) {
        const protocol = typeof hook.protocol === 'string' ? hook.protocol : 'soong';
        let contextEvents: readonly string[] = [];
        try {
          contextEvents = getDialect(protocol).contextEvents ?? [];
        } catch {
          // A protocol no dialect knows: validation says so; it adds no context.
        }
        if (!contextEvents.includes(event)) continue;
        named.push(`${hookLabel(hook)} (${event})`);
      }
    }
  }
  if (named.length === 0) return undefined;
  return (
    `note ${plural(named.length, 'converted hook')} can add context for the model: ${named.join(', ')}. ` +
    'Here that context is dropped (with a warning in the event log) unless config.toml in the agent home has:\n' +
    '  [hooks]\n  deliver_context = true\n'
  );
}

// A converted hook by its name, else by its command (shortened): an unnamed hook's id depends on
// where --write merges it.
function hookLabel(hook: { name?: unknown; command?: unknown }): string {
  if (typeof hook.name === 'string') return hook.name;
  const command = typeof hook.command === 'string' ? hook.command : '';
  return JSON.stringify(command.length > 60 ? `${command.slice(0, 57)}...` : command);
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

/** Claude Code's plugins: the enabled ones (each with its import command) and a pinned cache path. */
function addPluginNotes(
  result: ConvertResult,
  text: string,
  file: string,
  commandLine: ImportCommandLine,
): void {
  const cached = cachedPluginNote(file, commandLine);
  if (cached !== undefined) result.notes.push(`(plugin cache): ${cached}`);
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch {
    return;
  }
  result.notes.push(...enabledPluginNotes(settings, commandLine));
}

/** `file` as the user would type it: `~/…` under their home. */
function homeShown(file: string): string {
  const home = os.homedir();
  return file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}

function convert(
  dialect: string,
  text: string,
  options: ConvertOptions,
  file: string,
): ConvertResult {
  try {
    if (dialect === 'claude-code') return convertClaudeCodeConfig(text, options);
    const converter = getDialect(dialect).convertConfig;
    if (converter === undefined)
      throw new CliError({ code: 'USAGE', message: `the ${dialect} dialect has no converter` });
    return converter(text, options);
  } catch (error) {
    if (!DialectError.isInstance(error)) throw error;
    // A syntax error is told as hooks.json's are: file:line:column, what is wrong, the fix.
    const issue =
      error.code === 'CONFIG_PARSE_FAILED' && error.cause !== undefined
        ? jsonSyntaxIssue(text, file, os.homedir())
        : undefined;
    const message = issue === undefined ? error.message : `${issue.message}; nothing was imported`;
    throw new CliError({ code: 'USAGE', message, cause: error });
  }
}

/**
 * Notes on the scripts the converted hooks run directly that have no exec bit (spec §13.2): Copilot
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
    let notify: unknown;
    try {
      const parsed = parseToml(read.text);
      table = parsed.hooks;
      notify = parsed.notify;
    } catch (error) {
      const where = error as { line?: number; column?: number; message: string };
      throw new CliError({
        code: 'USAGE',
        message: `${file}:${where.line ?? 1}:${where.column ?? 1}: not valid TOML: ${where.message.split('\n')[0]}`,
        cause: error,
      });
    }
    return {
      // `notify` too: the converter says what it is and what to write instead.
      text: JSON.stringify({ hooks: table ?? {}, ...(notify === undefined ? {} : { notify }) }),
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
    const issue = jsonSyntaxIssue(text, file, os.homedir());
    throw new CliError({
      code: 'USAGE',
      message:
        issue === undefined
          ? `${file} is not valid JSON: ${(error as Error).message}`
          : `${issue.message}; nothing was imported`,
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
    for (const note of result.notes) {
      // A note on the whole import (`(environment): …`) is said once, not once per file.
      if (note.startsWith('(')) {
        if (!notes.includes(note)) notes.push(note);
      } else notes.push(`${path.basename(file)}: ${note}`);
    }
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
  for (const [event, rules] of Object.entries(events)) {
    if (!Array.isArray(rules)) {
      throw new CliError({
        code: 'CONFIG',
        message: `${hooksFile}: hooks.${event} is not an array; fix it first (soong-agent hooks validate), nothing was written`,
      });
    }
  }
  const merge = mergeRules(events, converted.hooks.hooks as Record<string, ImportedRule[]>);
  const changed = merge.added + merge.updated + merge.adopted + merge.removed.length;
  if (changed === 0) {
    process.stdout.write(`${hooksFile} already has every converted rule; nothing written\n`);
    return EXIT_CODES.ok;
  }
  const text = `${JSON.stringify(data, null, 2)}\n`;
  validate(text, data, home, projectDir, hooksFile);
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
  for (const removed of merge.removed) {
    process.stdout.write(
      `removed ${removed.label}: it came from ${removed.origin}, which no longer has that hook\n`,
    );
  }
  const kept = before === undefined ? '' : ` (the previous file is kept as ${backup})`;
  const updated =
    merge.updated === 0
      ? ''
      : `; updated ${plural(merge.updated, 'rule')} in place (imported from the same source hooks before)`;
  const removedText =
    merge.removed.length === 0 ? '' : `; removed ${plural(merge.removed.length, 'rule')}`;
  const duplicates =
    merge.unchanged === 0 ? '' : `; ${plural(merge.unchanged, 'rule')} already there`;
  const lead =
    merge.added > 0
      ? `wrote ${plural(merge.added, 'new rule')} to ${hooksFile}`
      : `updated ${hooksFile}`;
  process.stdout.write(
    `${lead}${kept}${updated}${removedText}${duplicates}; check them with: soong-agent hooks list\n`,
  );
  if (fromProject) {
    process.stdout.write(
      `note: these hooks came from a project's settings; in the agent home they run for every project you open with soong-agent (relative script paths resolve against each project)\n`,
    );
  }
  return EXIT_CODES.ok;
}

/**
 * Nothing converts any more: rules an earlier import made from these files are named, for the
 * user to delete (nothing is written when nothing converts).
 */
function reportLeftovers(files: readonly string[], options: ImportOptions): void {
  const { home } = resolveLocations(options, { createsHome: true });
  const hooksFile = path.join(home, HOOKS_FILE);
  let before: ReturnType<typeof readExisting>;
  try {
    before = readExisting(hooksFile);
  } catch {
    return;
  }
  const events = before?.data.hooks;
  if (typeof events !== 'object' || events === null) return;
  const sources = new Set(files.map((file) => originKey(homeShown(file))));
  for (const [event, rules] of Object.entries(events as Record<string, unknown>)) {
    if (!Array.isArray(rules)) continue;
    for (const [index, rule] of rules.entries()) {
      if (ruleKey(rule, sources) === undefined) continue;
      const name = (rule as ImportedRule).hooks[0]?.name;
      process.stderr.write(
        `hooks.${event}[${index}]${name === undefined ? '' : ` (${name})`} in ${hooksFile} was imported from this file, which no longer has its hook: delete it if you no longer want it\n`,
      );
    }
  }
}

/** A rule as the converters write it (hooks with `imported_from` when the import records origins). */
interface ImportedRule {
  matcher?: unknown;
  hooks: { name?: string; imported_from?: { file?: unknown; path?: unknown } }[];
}

/** What {@link mergeRules} did. */
interface MergeOutcome {
  added: number;
  updated: number;
  unchanged: number;
  /** Rules an older import wrote without origins, now with them (counted as unchanged too). */
  adopted: number;
  removed: { event: string; index: number; label: string; origin: string }[];
}

/**
 * Merges converted rules into the home's rules, in place. A rule whose hooks came from the same
 * source hooks (`imported_from`: the file, its version folder aside for Claude Code's plugin cache,
 * and the JSON paths) is the same rule: it is replaced where it stands, its hooks keeping their
 * names. A rule imported earlier from one of these files whose source hook is gone is removed. A
 * rule without `imported_from` (written by hand, or by an older import) is never touched, unless
 * it is exactly a converted rule, which then takes its place. New rules are appended.
 */
function mergeRules(
  events: Record<string, unknown[]>,
  incoming: Record<string, ImportedRule[]>,
): MergeOutcome {
  const outcome: MergeOutcome = { added: 0, updated: 0, unchanged: 0, adopted: 0, removed: [] };
  const names = existingNames(events);
  const sources = new Set<string>();
  for (const rules of Object.values(incoming)) {
    for (const rule of rules) {
      for (const hook of rule.hooks) {
        const file = hook.imported_from?.file;
        if (typeof file === 'string') sources.add(originKey(file));
      }
    }
  }
  // Where each earlier imported rule of these files stands: `<event> <key> #<occurrence>`.
  const placed = new Map<string, { event: string; index: number }>();
  const seen = new Map<string, number>();
  for (const [event, rules] of Object.entries(events)) {
    for (const [index, rule] of rules.entries()) {
      const key = ruleKey(rule, sources);
      if (key === undefined) continue;
      const occurrence = seen.get(`${event} ${key}`) ?? 0;
      seen.set(`${event} ${key}`, occurrence + 1);
      placed.set(`${event} ${key} #${occurrence}`, { event, index });
    }
  }
  const replaced = new Set<string>();
  const arriving = new Map<string, number>();
  for (const [event, rules] of Object.entries(incoming)) {
    events[event] ??= [];
    const existing = events[event];
    for (const rule of rules) {
      // A copy: a converter (a registered one too) may give two rules one hook object, and each
      // rule's hook needs a name of its own.
      const own = structuredClone(rule);
      const key = ruleKey(own, sources);
      const occurrence = key === undefined ? 0 : (arriving.get(`${event} ${key}`) ?? 0);
      if (key !== undefined) arriving.set(`${event} ${key}`, occurrence + 1);
      const earlier = key === undefined ? undefined : placed.get(`${event} ${key} #${occurrence}`);
      if (earlier !== undefined) {
        const old = existing[earlier.index] as ImportedRule;
        keepNames(own, old, names);
        replaced.add(`${event} ${earlier.index}`);
        if (safeJson(old) === safeJson(own)) outcome.unchanged += 1;
        else {
          existing[earlier.index] = own;
          outcome.updated += 1;
        }
        continue;
      }
      // An identical rule written by hand or by an older import (without origins) is this one.
      const plain = safeJson(withoutOrigins(own));
      const twin = existing.findIndex(
        (candidate, index) =>
          !replaced.has(`${event} ${index}`) &&
          ruleKey(candidate, undefined) === undefined &&
          safeJson(candidate) === plain,
      );
      if (twin >= 0) {
        replaced.add(`${event} ${twin}`);
        existing[twin] = own;
        outcome.unchanged += 1;
        if (safeJson(own) !== plain) outcome.adopted += 1;
        continue;
      }
      renameTaken([own], names);
      existing.push(own);
      outcome.added += 1;
    }
  }
  // Earlier imports of these files whose source hook is gone (deleted, or moved to another event).
  for (const { event, index } of placed.values()) {
    if (replaced.has(`${event} ${index}`)) continue;
    const rule = (events[event] as unknown[])[index] as ImportedRule;
    const first = rule.hooks[0];
    outcome.removed.push({
      event,
      index,
      label: `hooks.${event}[${index}]${first?.name === undefined ? '' : ` (${first.name})`}`,
      origin: `${String(first?.imported_from?.file)} ${String(first?.imported_from?.path)}`,
    });
  }
  const removed = new Set(outcome.removed.map((entry) => `${entry.event} ${entry.index}`));
  for (const [event, rules] of Object.entries(events)) {
    const kept = rules.filter((_, index) => !removed.has(`${event} ${index}`));
    if (kept.length === rules.length) continue;
    if (kept.length === 0) delete events[event];
    else events[event] = kept;
  }
  return outcome;
}

/**
 * A rule's identity as an import of one of `sources` (all its hooks imported from one such file):
 * the file and its hooks' JSON paths. Undefined for any other rule. With `sources` undefined:
 * whether the rule records any origin at all.
 */
function ruleKey(rule: unknown, sources: ReadonlySet<string> | undefined): string | undefined {
  const hooks = (rule as { hooks?: unknown } | null)?.hooks;
  if (!Array.isArray(hooks) || hooks.length === 0) return undefined;
  const files = new Set<string>();
  const paths: string[] = [];
  for (const hook of hooks) {
    const origin = (hook as { imported_from?: { file?: unknown; path?: unknown } } | null)
      ?.imported_from;
    if (typeof origin?.file !== 'string' || typeof origin.path !== 'string') return undefined;
    files.add(originKey(origin.file));
    paths.push(origin.path);
  }
  const [file] = files;
  if (files.size !== 1 || file === undefined) return undefined;
  if (sources !== undefined && !sources.has(file)) return undefined;
  return `${file}#${paths.join(',')}`;
}

/** The rule's hooks keep the names the earlier import gave them (by their source path). */
function keepNames(rule: ImportedRule, old: ImportedRule, taken: TakenNames): void {
  const oldNames = new Map<unknown, string | undefined>();
  for (const hook of old.hooks) oldNames.set(hook.imported_from?.path, hook.name);
  for (const hook of rule.hooks) {
    const earlier = oldNames.get(hook.imported_from?.path);
    if (earlier !== undefined) hook.name = earlier;
    else if (hook.name !== undefined) renameTaken([{ hooks: [hook] }], taken);
  }
}

function withoutOrigins(rule: ImportedRule): ImportedRule {
  return {
    ...rule,
    hooks: rule.hooks.map(({ imported_from: _origin, ...hook }) => hook),
  };
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
// is written (nothing is written to validate it). Its line:column would point into text that is on
// no disk, so each problem is told by its JSON path and, for a converted hook, by the source hook
// it came from, in the file the user has.
function validate(
  text: string,
  data: Record<string, unknown>,
  home: string,
  projectDir: string,
  hooksFile: string,
): void {
  try {
    loadConfig({ home, projectDir, hooksText: text });
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    const problems = error.issues.map((issue) => `  ${describeIssue(issue, data, hooksFile)}`);
    throw new CliError({
      code: 'CONFIG',
      message: `the merged ${hooksFile} would be invalid; nothing was written:\n${problems.join('\n')}`,
      cause: error,
    });
  }
}

const HOOK_PATH =
  /^hooks\.(?<event>[A-Za-z]+)\[(?<rule>\d+)\](?:\.hooks\[(?<hook>\d+)\](?<rest>.*))?/;

/** One validation problem of the merged hooks.json, placed where the user can fix it. */
function describeIssue(
  issue: ConfigError['issues'][number],
  data: Record<string, unknown>,
  hooksFile: string,
): string {
  const what = `${issue.problem}${issue.fix === undefined ? '' : `; ${issue.fix}`}`;
  const where = HOOK_PATH.exec(issue.path ?? '')?.groups;
  const rule =
    where === undefined
      ? undefined
      : ((data.hooks as Record<string, unknown[]> | undefined)?.[where.event as string]?.[
          Number(where.rule)
        ] as ImportedRule | undefined);
  const hook = rule?.hooks?.[where?.hook === undefined ? 0 : Number(where.hook)];
  const origin = hook?.imported_from;
  if (typeof origin?.file === 'string' && typeof origin.path === 'string') {
    const key =
      where?.rest === undefined || where.rest === ''
        ? ''
        : ` (converted as ${where.rest.replace(/^\./, '')})`;
    return `${origin.file} ${origin.path}${key}: ${what}`;
  }
  // Not from this import: the file on disk has it, where `hooks validate` gives its line:column.
  return `${hooksFile} ${issue.path ?? ''}${issue.path === undefined ? '' : ': '}${what} (already in the file: soong-agent hooks validate shows where)`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
