import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, HOOKS_FILE, loadConfig, MAX_CONFIG_FILE_BYTES } from '@soong-agent/config';
import { resolveLocations } from '../agent/session.js';
import {
  type ClaudeSettingsImport,
  convertClaudeSettings,
  type ImportedRule,
} from '../claude-import/convert-settings.js';
import { CliError, EXIT_CODES } from '../errors.js';
import type { CommonOptions } from '../program.js';
import { readTextFileSync } from '../tools/regular-file.js';

/** Options of `soong-agent hooks import`. */
export interface ImportOptions extends CommonOptions {
  /** `--from SOURCE`: where the hooks come from; only `claude`. */
  from: string;
  /** `--write`: merge into the home's hooks.json instead of printing. @default false */
  write?: boolean;
}

/** The settings file read when FILE is not given: Claude Code's user-level settings. */
export function defaultClaudeSettingsFile(): string {
  return path.join(os.homedir(), '.claude', 'settings.json');
}

/**
 * `soong-agent hooks import --from claude [FILE] [--write]` (SPEC §7): converts the hooks of a
 * Claude Code settings file; prints every refusal and note with its JSON path on stderr. Without
 * `--write` the resulting hooks.json goes to stdout; with it the rules are merged into the home's
 * hooks.json (the old file kept as hooks.json.bak) after the result is validated. Exit 0 when
 * something was converted, 2 when nothing was.
 */
export async function importAction(
  file: string | undefined,
  options: ImportOptions,
): Promise<number> {
  if (options.from !== 'claude') {
    throw new CliError({
      code: 'USAGE',
      message: `--from ${JSON.stringify(options.from)} is not supported; the only source is "claude" (Claude Code settings)`,
    });
  }
  const settingsFile = path.resolve(file ?? defaultClaudeSettingsFile());
  // A plugin's hooks live in <plugin>/hooks/hooks.json; Claude Code sets CLAUDE_PLUGIN_ROOT for them.
  const pluginRoot =
    path.basename(settingsFile) === 'hooks.json' &&
    path.basename(path.dirname(settingsFile)) === 'hooks'
      ? path.dirname(path.dirname(settingsFile))
      : undefined;
  const converted = convertClaudeSettings(readSettings(settingsFile), { pluginRoot });
  for (const refusal of converted.refusals)
    process.stderr.write(`refused ${refusal.path}: ${refusal.reason}\n`);
  for (const note of converted.notes) process.stderr.write(`note ${note.path}: ${note.message}\n`);
  const refused =
    converted.refusals.length === 0 ? '' : `; ${converted.refusals.length} refused (listed above)`;
  if (converted.hookCount === 0) {
    process.stderr.write(`nothing to import from ${settingsFile}${refused}\n`);
    return EXIT_CODES.usage;
  }
  process.stderr.write(
    `converted ${plural(converted.hookCount, 'hook')} in ${plural(converted.ruleCount, 'rule')} from ${settingsFile}${refused}\n`,
  );
  if (options.write !== true) {
    process.stdout.write(`${JSON.stringify({ version: 1, hooks: converted.hooks }, null, 2)}\n`);
    return EXIT_CODES.ok;
  }
  return writeImport(converted, options);
}

function readSettings(file: string): unknown {
  const read = readTextFileSync(file, MAX_CONFIG_FILE_BYTES);
  if (!('text' in read)) {
    throw new CliError({
      code: 'USAGE',
      message: `cannot read Claude Code settings ${file}: ${read.code ?? read.problem} (name the file: hooks import --from claude FILE)`,
    });
  }
  const text = read.text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError({
      code: 'USAGE',
      message: `${file} is not valid JSON: ${(error as Error).message}`,
      cause: error,
    });
  }
}

function writeImport(converted: ClaudeSettingsImport, options: ImportOptions): number {
  const { home, projectDir } = resolveLocations(options, { createsHome: true });
  const hooksFile = path.join(home, HOOKS_FILE);
  const before = readExisting(hooksFile);
  const data = before?.data ?? { version: 1, hooks: {} };
  data.hooks ??= {};
  const events = data.hooks as Record<string, unknown[]>;
  let added = 0;
  let skipped = 0;
  for (const [event, rules] of Object.entries(converted.hooks)) {
    events[event] ??= [];
    const existing = events[event];
    if (!Array.isArray(existing)) {
      throw new CliError({
        code: 'CONFIG',
        message: `${hooksFile}: hooks.${event} is not an array; fix it first (soong-agent hooks validate), nothing was written`,
      });
    }
    const seen = new Set(existing.map((rule) => JSON.stringify(rule)));
    for (const rule of rules as ImportedRule[]) {
      if (seen.has(JSON.stringify(rule))) {
        skipped += 1;
        continue;
      }
      existing.push(rule);
      added += 1;
    }
  }
  if (added === 0) {
    process.stdout.write(`${hooksFile} already has every converted rule; nothing written\n`);
    return EXIT_CODES.ok;
  }
  const text = `${JSON.stringify(data, null, 2)}\n`;
  validate(text, hooksFile, projectDir);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const backup = `${hooksFile}.bak`;
  if (before !== undefined) {
    copyFileSync(hooksFile, backup);
    chmodSync(backup, 0o600);
  }
  const temporary = `${hooksFile}.import-${process.pid}`;
  writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, hooksFile);
  const kept = before === undefined ? '' : ` (the previous file is kept as ${backup})`;
  const duplicates = skipped === 0 ? '' : `; ${plural(skipped, 'rule')} already there`;
  process.stdout.write(
    `wrote ${plural(added, 'rule')} to ${hooksFile}${kept}${duplicates}; check them with: soong-agent hooks list\n`,
  );
  return EXIT_CODES.ok;
}

function readExisting(hooksFile: string): { data: Record<string, unknown> } | undefined {
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
  return { data: data as Record<string, unknown> };
}

// The merged file is loaded by the config package (in a scratch home, so nothing is written
// before it passes); its errors are shown with the real path.
function validate(text: string, hooksFile: string, projectDir: string): void {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'soong-agent-import-'));
  try {
    writeFileSync(path.join(scratch, HOOKS_FILE), text, { mode: 0o600 });
    loadConfig({ home: scratch, projectDir });
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    throw new CliError({
      code: 'CONFIG',
      message: `the merged hooks.json would be invalid; nothing was written:\n${error.message.replaceAll(path.join(scratch, HOOKS_FILE), hooksFile)}`,
      cause: error,
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
