import { lstatSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_CONFIG_FILE_BYTES } from '@soong-agent/config';
import { readTextFileSync } from '../tools/regular-file.js';

/** A plugin folder in Claude Code's versioned cache: `…/.claude/plugins/cache/<marketplace>/<plugin>/<version>/`. */
const CACHE_FOLDER =
  /^(?<prefix>.*[\\/]\.claude[\\/]plugins[\\/]cache[\\/](?<marketplace>[^\\/]+)[\\/](?<plugin>[^\\/]+)[\\/])(?<version>[^\\/]+)(?<rest>(?:[\\/].*)?)$/;

/** Where a file lies in Claude Code's plugin cache, or undefined when it does not. */
export function claudePluginCacheOf(
  file: string,
): { marketplace: string; plugin: string; version: string; root: string } | undefined {
  const match = CACHE_FOLDER.exec(file);
  const groups = match?.groups;
  if (groups === undefined) return undefined;
  return {
    marketplace: groups.marketplace as string,
    plugin: groups.plugin as string,
    version: groups.version as string,
    root: `${groups.prefix}${groups.version}`,
  };
}

/**
 * The file as a re-import recognises it: a plugin cache path with its version folder as `*`, so the
 * hooks imported from version 1.2.0 are updated by an import from 1.3.0 rather than doubled.
 */
export function originKey(file: string): string {
  const expanded = file === '~' || file.startsWith('~/') ? os.homedir() + file.slice(1) : file;
  const resolved = path.resolve(expanded);
  const cache = CACHE_FOLDER.exec(resolved)?.groups;
  return cache === undefined ? resolved : `${cache.prefix}*${cache.rest}`;
}

/** What the notes' commands repeat of the user's own command line. */
export interface ImportCommandLine {
  /** `--home DIR` as given. */
  home?: string | undefined;
  write: boolean;
}

/**
 * One note per plugin enabled in a Claude Code settings file (`enabledPlugins`): its hooks are in
 * the plugin's own hooks file, never in settings.json, so each note gives the command that imports
 * them, from the marketplace's unversioned copy when there is one.
 */
export function enabledPluginNotes(settings: unknown, commandLine: ImportCommandLine): string[] {
  if (typeof settings !== 'object' || settings === null) return [];
  const enabled = (settings as { enabledPlugins?: unknown }).enabledPlugins;
  if (typeof enabled !== 'object' || enabled === null || Array.isArray(enabled)) return [];
  const notes: string[] = [];
  const installed = installedPlugins();
  for (const [id, on] of Object.entries(enabled)) {
    if (on !== true) continue;
    notes.push(`enabledPlugins[${JSON.stringify(id)}]: ${pluginNote(id, installed, commandLine)}`);
  }
  return notes;
}

/**
 * The note for importing a file from Claude Code's plugin cache: the version folder in the path
 * goes away on the next plugin update, taking the scripts the imported hooks run with it.
 */
export function cachedPluginNote(file: string, commandLine: ImportCommandLine): string | undefined {
  const cache = claudePluginCacheOf(file);
  if (cache === undefined) return undefined;
  const pinned = `the imported hooks run the scripts of ${tilde(cache.root)} (version ${cache.version} of ${cache.plugin}@${cache.marketplace}): a plugin update installs a new version folder and removes this one, and then these hooks fail`;
  const unversioned = marketplaceCopy(cache.marketplace, cache.plugin);
  if (unversioned !== undefined) {
    return `${pinned}. Import the marketplace's unversioned copy instead (it follows updates of the marketplace): ${importCommand(unversioned, commandLine)}`;
  }
  return `${pinned}. This plugin has no unversioned copy in ~/.claude/plugins/marketplaces/; after each update of the plugin, run this import again on the new version's hooks file: it updates these rules in place`;
}

function pluginNote(
  id: string,
  installed: ReadonlyMap<string, string[]>,
  commandLine: ImportCommandLine,
): string {
  const at = id.lastIndexOf('@');
  const plugin = at > 0 ? id.slice(0, at) : id;
  const marketplace = at > 0 ? id.slice(at + 1) : '';
  const unversioned = marketplace === '' ? undefined : marketplaceCopy(marketplace, plugin);
  const enabledText = `Claude Code runs this plugin's hooks from its own hooks file (settings.json does not list them)`;
  if (unversioned !== undefined) {
    return `${enabledText}; import them from the marketplace's unversioned copy with: ${importCommand(unversioned, commandLine)}`;
  }
  const cached = (installed.get(id) ?? cachedVersions(marketplace, plugin)).filter(
    (root) => hooksFileOf(root) !== undefined || isDirectory(root),
  );
  const root = cached.at(-1);
  if (root === undefined) {
    return `${enabledText}, but it is not installed under ~/.claude/plugins (no cache folder, not in installed_plugins.json): install it in Claude Code, then import its hooks/hooks.json with --plugin-root <the plugin folder>`;
  }
  const hooks = hooksFileOf(root);
  if (hooks === undefined) {
    return `${tilde(root)} has no hooks file (hooks/hooks.json): nothing to import`;
  }
  const version = claudePluginCacheOf(hooks)?.version;
  const pinned =
    version === undefined
      ? ''
      : `; that path names version ${version}, which a plugin update replaces, and the imported hooks then fail: run the import again after each update of the plugin (it updates the rules in place)`;
  return `${enabledText}; import them with: ${importCommand({ hooks, root }, commandLine)}${pinned}`;
}

/** `soong-agent hooks import --from claude FILE --plugin-root ROOT …`, as the user would paste it. */
function importCommand(
  target: { hooks: string; root: string },
  commandLine: ImportCommandLine,
): string {
  const words = [
    'soong-agent hooks import --from claude',
    shellPath(target.hooks),
    '--plugin-root',
    shellPath(target.root),
  ];
  if (commandLine.home !== undefined) words.push('--home', shellPath(commandLine.home));
  if (commandLine.write) words.push('--write');
  return words.join(' ');
}

/** The marketplace's own (unversioned) copy of a plugin, when the marketplace is a local folder. */
function marketplaceCopy(
  marketplace: string,
  plugin: string,
): { hooks: string; root: string } | undefined {
  const folder = path.join(os.homedir(), '.claude', 'plugins', 'marketplaces', marketplace);
  const manifest = readJson(path.join(folder, '.claude-plugin', 'marketplace.json')) as {
    plugins?: unknown;
    metadata?: { pluginRoot?: unknown };
  } | null;
  const entries = Array.isArray(manifest?.plugins) ? manifest.plugins : [];
  const entry = entries.find(
    (candidate) =>
      typeof candidate === 'object' &&
      candidate !== null &&
      (candidate as { name?: unknown }).name === plugin,
  ) as { source?: unknown } | undefined;
  const candidates: string[] = [];
  if (typeof entry?.source === 'string') {
    const base =
      typeof manifest?.metadata?.pluginRoot === 'string' && !entry.source.startsWith('.')
        ? path.join(folder, manifest.metadata.pluginRoot)
        : folder;
    candidates.push(path.resolve(base, entry.source));
  }
  candidates.push(path.join(folder, 'plugins', plugin));
  for (const root of candidates) {
    // Only a folder inside the marketplace's clone (a `source` cannot point elsewhere).
    if (root !== folder && !root.startsWith(folder + path.sep)) continue;
    const hooks = hooksFileOf(root);
    if (hooks !== undefined) return { hooks, root };
  }
  return undefined;
}

/** The plugin's hooks file: the manifest's `hooks` path, else `hooks/hooks.json`, when it exists. */
function hooksFileOf(root: string): string | undefined {
  const manifest = readJson(path.join(root, '.claude-plugin', 'plugin.json')) as {
    hooks?: unknown;
  } | null;
  const named =
    typeof manifest?.hooks === 'string'
      ? path.resolve(root, manifest.hooks.replace(/^\$\{CLAUDE_PLUGIN_ROOT\}\/?/, ''))
      : path.join(root, 'hooks', 'hooks.json');
  return isFile(named) ? named : undefined;
}

/** `~/.claude/plugins/installed_plugins.json`: plugin id → its install folders (oldest first). */
function installedPlugins(): Map<string, string[]> {
  const data = readJson(
    path.join(os.homedir(), '.claude', 'plugins', 'installed_plugins.json'),
  ) as {
    plugins?: unknown;
  } | null;
  const map = new Map<string, string[]>();
  if (typeof data?.plugins !== 'object' || data.plugins === null) return map;
  for (const [id, value] of Object.entries(data.plugins)) {
    // Version 2 lists installs per scope; version 1 one object.
    const installs = Array.isArray(value) ? value : [value];
    const roots = installs
      .map((install) => (install as { installPath?: unknown } | null)?.installPath)
      .filter((root): root is string => typeof root === 'string');
    map.set(id, roots);
  }
  return map;
}

/** The version folders of a plugin in the cache, oldest first (by name, then modification time). */
function cachedVersions(marketplace: string, plugin: string): string[] {
  if (marketplace === '') return [];
  const folder = path.join(os.homedir(), '.claude', 'plugins', 'cache', marketplace, plugin);
  try {
    return readdirSync(folder)
      .map((name) => path.join(folder, name))
      .filter(isDirectory)
      .sort((a, b) => lstatSync(a).mtimeMs - lstatSync(b).mtimeMs);
  } catch {
    return [];
  }
}

function readJson(file: string): unknown {
  const read = readTextFileSync(file, MAX_CONFIG_FILE_BYTES);
  if (!('text' in read)) return null;
  try {
    return JSON.parse(read.text);
  } catch {
    return null;
  }
}

function isFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

function isDirectory(folder: string): boolean {
  try {
    return lstatSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/** A path as the user would type it: `~/…` under the home, the rest single-quoted when needed. */
function shellPath(file: string): string {
  const shown = tilde(file);
  const quote = (word: string) =>
    /^[A-Za-z0-9_/.,:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
  return shown.startsWith('~/') ? `~/${quote(shown.slice(2))}` : quote(shown);
}

function tilde(file: string): string {
  const home = os.homedir();
  return file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}
