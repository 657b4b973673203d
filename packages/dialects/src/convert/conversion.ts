import path from 'node:path';
import { HOOK_EVENTS } from '@soong-agent/protocol';
import { jsonTextDepth } from '@soong-agent/protocol/internal';
import type { ConvertOptions, ConvertResult } from '../dialect.js';
import { DialectError } from '../dialect-error.js';
import { isRecord } from '../shared.js';
import { projectScriptOf } from './project-script.js';

/** A converted hook, as written in hooks.json. */
export interface ConvertedHook {
  type: 'command';
  command: string;
  protocol: string;
  name?: string;
  timeout?: number;
  on_failure?: 'deny';
  working_dir?: string;
  /** The source agent's own event name, when several of its events map onto one of ours. */
  dialect_event?: string;
  /** Where the hook came from (`ConvertOptions.origin`): a re-import updates the rule it made. */
  imported_from?: { file: string; path: string };
}

/** A converted rule's matcher. */
export type ConvertedMatcher = { tool: string[] } | { mcp_server: string[] };

/** A converted rule, as written in hooks.json. */
export interface ConvertedRule {
  matcher?: ConvertedMatcher;
  hooks: ConvertedHook[];
}

/** The most seconds a hook may run here (spec §1.1). */
export const MAX_TIMEOUT_SECONDS = 600;
/** The fewest (the runner's bound). */
export const MIN_TIMEOUT_SECONDS = 0.1;
/** Deeper nesting than this in a config file is refused before it is parsed. */
export const MAX_CONFIG_DEPTH = 256;

/** True for our events (spec §2, §2.3): a converted rule may go under them. */
export function hasEvent(event: string): boolean {
  return (HOOK_EVENTS as readonly string[]).includes(event);
}

/**
 * Parses a config file's JSON text. Throws `DialectError` `CONFIG_PARSE_FAILED` with
 * `file:line:col` for invalid JSON, and for nesting deeper than {@link MAX_CONFIG_DEPTH} (checked
 * without recursion, before parsing).
 */
export function parseConfigJson(text: string, file: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (jsonTextDepth(source, MAX_CONFIG_DEPTH) > MAX_CONFIG_DEPTH) {
    throw new DialectError({
      code: 'CONFIG_PARSE_FAILED',
      message: `${file}: nested deeper than ${MAX_CONFIG_DEPTH} levels; not a hooks configuration`,
    });
  }
  try {
    return JSON.parse(source);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const offset = at === null ? jsonErrorOffset(source) : Number(at[1]);
    const before = source.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const reason = message
      .replace(/\s*\(line \d+ column \d+\)$/, '')
      .replace(/ in JSON at position \d+/, '')
      .replace(/, ".*" is not valid JSON$/s, '');
    throw new DialectError({
      code: 'CONFIG_PARSE_FAILED',
      message: `${file}:${line}:${column}: not valid JSON: ${reason}`,
      cause: error,
    });
  }
}

/** The refusals, notes and rules of one conversion, in file order. */
export class Conversion {
  constructor(private readonly options: Pick<ConvertOptions, 'home' | 'origin'> = {}) {}

  readonly refused: { path: string; reason: string }[] = [];
  readonly notes: string[] = [];
  private readonly rules = new Map<string, ConvertedRule[]>();
  private readonly names = new Set<string>();
  // The suffix to try next per base, so claiming stays linear however many hooks share a script.
  private readonly nextSuffix = new Map<string, number>();
  private readonly baseOf = new Map<string, string>();

  /** Records `hookPath` as the hook's source when the conversion keeps origins (`ConvertOptions.origin`). */
  recordOrigin(hook: ConvertedHook, hookPath: string): void {
    if (this.options.origin !== undefined)
      hook.imported_from = { file: this.options.origin, path: hookPath };
  }

  /** `absolute` as a shell word: `~/…` (the rest quoted) when it lies in `ConvertOptions.home`. */
  homeShellWord(absolute: string): string {
    const rest = homeRest(absolute, this.options.home);
    if (rest === undefined) return shellQuote(absolute);
    return rest === '' ? '~' : `~/${shellQuote(rest)}`;
  }

  /** `absolute` for a message: `~/…` when it lies in `ConvertOptions.home`. */
  homeDisplay(absolute: string): string {
    const rest = homeRest(absolute, this.options.home);
    if (rest === undefined) return absolute;
    return rest === '' ? '~' : `~/${rest}`;
  }

  refuse(path: string, reason: string): void {
    this.refused.push({ path, reason });
  }

  note(path: string, message: string): void {
    this.notes.push(`${path}: ${message}`);
  }

  /**
   * The `hooks` object of a file shaped `{"hooks": {"<event>": [hook, …]}}` (Cursor, Copilot CLI),
   * or undefined with the file refused: `rootReason` when it is no JSON object.
   */
  hooksObjectOf(value: unknown, rootReason: string): Record<string, unknown> | undefined {
    if (!isRecord(value)) {
      this.refuse('(root)', rootReason);
      return undefined;
    }
    const hooks = value.hooks;
    if (!isRecord(hooks)) {
      this.refuse(
        'hooks',
        hooks === undefined ? 'absent: the file configures no hooks' : 'not an object of events',
      );
      return undefined;
    }
    return hooks;
  }

  /**
   * Calls `convert` for each hook object of one event's array, in order; refuses an array that is
   * none and an entry that is no object.
   */
  eachHookEntry(
    entries: unknown,
    eventPath: string,
    convert: (entry: Record<string, unknown>, entryPath: string) => void,
  ): void {
    if (!Array.isArray(entries)) {
      this.refuse(eventPath, 'not an array of hooks');
      return;
    }
    for (const [index, entry] of entries.entries()) {
      const entryPath = `${eventPath}[${index}]`;
      if (isRecord(entry)) convert(entry, entryPath);
      else this.refuse(entryPath, 'not a hook object');
    }
  }

  /**
   * Refuses a hook whose `type` is not "command" (absent counts as "command" when `optional`);
   * `why` is added to the reason. True when the hook may go on.
   */
  commandType(type: unknown, typePath: string, optional: boolean, why = ''): boolean {
    if (type === 'command' || (optional && type === undefined)) return true;
    this.refuse(
      typePath,
      `${JSON.stringify(type)} hooks are not supported: soong-agent runs command hooks${why}`,
    );
    return false;
  }

  /** The hook's command, or undefined (refused) when it is missing or blank. */
  command(value: unknown, commandPath: string): string | undefined {
    if (typeof value === 'string' && value.trim() !== '') return value;
    this.refuse(commandPath, 'missing or blank');
    return undefined;
  }

  /**
   * `command` with the variables of `env` exported first (noted), or undefined (refused) when `env`
   * is not an object of variable names and string values.
   */
  exportEnv(env: unknown, command: string, envPath: string): string | undefined {
    const prefix = envPrefix(env);
    if (prefix === undefined) {
      this.refuse(envPath, 'not an object of variable names and string values');
      return undefined;
    }
    this.note(envPath, 'exported at the start of the command (the values are now in hooks.json)');
    return `${prefix}${command}`;
  }

  /**
   * A hook's timeout in seconds: `fallback` when absent (undefined without one), false (refused)
   * when it is not a number > 0, else bounded to what a hook may run here (noted when changed).
   * `milliseconds`: the agent's number counts milliseconds.
   */
  timeout(
    value: unknown,
    timeoutPath: string,
    options: { fallback?: number; unit?: 'seconds' | 'milliseconds' } = {},
  ): number | undefined | false {
    if (value === undefined) return options.fallback;
    const unit = options.unit ?? 'seconds';
    if (typeof value !== 'number' || !(value > 0)) {
      this.refuse(timeoutPath, `${JSON.stringify(value)} is not a number of ${unit} > 0`);
      return false;
    }
    return boundedTimeout(unit === 'milliseconds' ? value / 1000 : value, (message) =>
      this.note(timeoutPath, message),
    );
  }

  /**
   * Notes a converted hook that runs a script from the project (see `projectScriptOf`): in the agent
   * home it runs for every project, so whichever project is open supplies that script's code.
   */
  noteProjectScript(hookPath: string, hook: ConvertedHook): void {
    const script = projectScriptOf(
      hook.command,
      hook.working_dir === undefined ? {} : { workingDir: hook.working_dir },
    );
    if (script === undefined) return;
    const where =
      script.how === 'relative'
        ? ', relative to the project dir (where hooks run unless working_dir says otherwise)'
        : '';
    this.note(
      hookPath,
      `hook ${hook.name ?? '(unnamed)'} runs ${script.text}${where}: a script inside whichever project the agent runs in, so any project you open (a cloned repo) can supply its code; copy it into your agent home (e.g. ~/.soong-agent/hooks/) and point the command there`,
    );
  }

  /** Notes each key of `entry` that is not in `known` as dropped. */
  dropUnknownKeys(
    entry: Record<string, unknown>,
    known: ReadonlySet<string>,
    entryPath: string,
  ): void {
    for (const key of Object.keys(entry)) {
      if (!known.has(key))
        this.note(`${entryPath}.${key}`, `unknown key ${JSON.stringify(key)} dropped`);
    }
  }

  /**
   * Adds one rule per matcher (`undefined`: no matcher), all with the same hooks: each rule after
   * the first gets its own copies, a named one under a name of its own (`guard` → `guard-2`).
   */
  addRules(
    event: string,
    matchers: readonly (ConvertedMatcher | undefined)[],
    hooks: ConvertedHook[],
  ): void {
    const rules = this.rules.get(event) ?? [];
    for (const [index, matcher] of matchers.entries()) {
      const own = index === 0 ? [...hooks] : hooks.map((hook) => this.copyOf(hook));
      rules.push(matcher === undefined ? { hooks: own } : { matcher, hooks: own });
    }
    this.rules.set(event, rules);
  }

  private copyOf(hook: ConvertedHook): ConvertedHook {
    const copy = { ...hook };
    if (hook.name === undefined) return copy;
    const name = this.claimName(this.baseOf.get(hook.name) ?? hook.name);
    if (name === undefined) delete copy.name;
    else copy.name = name;
    return copy;
  }

  /**
   * A unique hook name after the script the command runs (`guard.sh` → `guard`), or undefined when
   * the command names no script.
   */
  nameFor(command: string): string | undefined {
    const base = scriptName(command);
    return base === undefined ? undefined : this.claimName(base);
  }

  /**
   * `base`, or `base-2`, `base-3`… when taken (never a name claimed before in this conversion);
   * undefined when it looks like a default hook id.
   */
  claimName(base: string): string | undefined {
    if (/^[A-Za-z]+\[\d+\]\[\d+\]$/.test(base)) return undefined;
    let name = base;
    if (this.names.has(name)) {
      let count = this.nextSuffix.get(base) ?? 2;
      while (this.names.has(`${base}-${count}`)) count += 1;
      name = `${base}-${count}`;
      this.nextSuffix.set(base, count + 1);
    }
    this.names.add(name);
    this.baseOf.set(name, base);
    return name;
  }

  get hookCount(): number {
    let count = 0;
    for (const rules of this.rules.values()) for (const rule of rules) count += rule.hooks.length;
    return count;
  }

  result(): ConvertResult {
    const hooks: Record<string, ConvertedRule[]> = {};
    for (const [event, rules] of this.rules) if (rules.length > 0) hooks[event] = rules;
    return { hooks: { version: 1, hooks }, refused: this.refused, notes: this.notes };
  }
}

const INTERPRETERS = new Set([
  'bash',
  'sh',
  'zsh',
  'dash',
  'node',
  'nodejs',
  'bun',
  'deno',
  'python',
  'python3',
  'python2',
  'uv',
  'uvx',
  'npx',
  'pnpm',
  'ruby',
  'perl',
  'php',
  'tsx',
  'ts-node',
  'env',
  'exec',
  'run',
]);
const SCRIPT = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|rb|pl|php|ps1)$/;

/** The script a hook command runs, as a name: `python3 "$X/.claude/hooks/guard.py"` → `guard`. */
export function scriptName(command: string): string | undefined {
  const words = command
    .split(/[\s;|&]+/)
    .map((word) => word.replace(/^['"]+|['"]+$/g, ''))
    .filter((word) => word !== '' && !/^[A-Z_][A-Z0-9_]*=/.test(word));
  for (const word of words.slice(0, 6)) {
    const last = word.split('/').at(-1) ?? '';
    if (last === '' || last.startsWith('-')) continue;
    if (SCRIPT.test(last)) return clean(last.replace(SCRIPT, ''));
    if (INTERPRETERS.has(last)) continue;
    if (word.includes('/')) return clean(last);
    break;
  }
  return undefined;
}

function clean(name: string): string | undefined {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^-+|-+$/g, '');
  if (cleaned === '' || /^[A-Za-z]+\[\d+\]\[\d+\]$/.test(cleaned)) return undefined;
  return cleaned;
}

/**
 * A timeout in seconds, bounded as hooks.json requires; `note` is told when it was capped or
 * raised. `value` undefined → `fallback`.
 */
export function boundedTimeout(seconds: number, note: (message: string) => void): number {
  if (seconds > MAX_TIMEOUT_SECONDS) {
    note(`${seconds} s capped at ${MAX_TIMEOUT_SECONDS} s (the most a hook may run here)`);
    return MAX_TIMEOUT_SECONDS;
  }
  if (seconds < MIN_TIMEOUT_SECONDS) {
    note(`${seconds} s raised to ${MIN_TIMEOUT_SECONDS} s (the least a hook may run here)`);
    return MIN_TIMEOUT_SECONDS;
  }
  return seconds;
}

/** The part of `absolute` under `home` ('' for home itself), or undefined when it is not under it. */
function homeRest(absolute: string, home: string | undefined): string | undefined {
  if (home === undefined || !path.isAbsolute(home)) return undefined;
  const root = path.resolve(home);
  if (root === path.sep) return undefined;
  const target = path.resolve(absolute);
  if (target === root) return '';
  return target.startsWith(root + path.sep) ? target.slice(root.length + 1) : undefined;
}

/** Single-quotes one word for `/bin/sh -c` unless it is safe bare. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_/.,:=@%+-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `{ "K": "v" }` as `export K='v'; ` for a command prefix, or undefined when not a string map. */
export function envPrefix(env: unknown): string | undefined {
  if (!isRecord(env)) return undefined;
  let prefix = '';
  for (const [key, value] of Object.entries(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || typeof value !== 'string') return undefined;
    prefix += `export ${key}=${shellQuote(value)}; `;
  }
  return prefix;
}

/** What each of our events would lose against the source agent, for the per-hook note (spec §12). */
export function observeOnlyNote(agent: string, event: string): string | undefined {
  switch (event) {
    case 'UserPromptSubmit':
      return `${agent} lets this hook block the prompt; here it only observes it, and the context it adds reaches the model only when context delivery is on (the deliver_context note says how)`;
    case 'PostToolUse':
      return `${agent} feeds this hook's feedback (a block reason, added context) to the model; here that reaches the model only when context delivery is on (the deliver_context note says how), as context after the result (the tool has run)`;
    case 'SessionStart':
      return `${agent} adds this hook's output to the context; here only when context delivery is on (the deliver_context note says how)`;
    case 'PostToolUseFailure':
      return `${agent} feeds this hook's added context to the model; here only when context delivery is on (the deliver_context note says how)`;
    case 'PreCompact':
      return `here this hook only observes: whatever it answers, the compaction goes on (${agent} may let it block), and only hosts that compact fire it (the reference agent does not)`;
    case 'SubagentStart':
      return `${agent} adds this hook's added context to the subagent's; here it is recorded only, and only hosts that run subagents fire it (the reference agent does not)`;
    case 'SubagentStop':
      return `here this hook only observes: a block does not keep the subagent going (${agent} may let it), and only hosts that run subagents fire it (the reference agent does not)`;
    default:
      return undefined;
  }
}

export function listOf(names: readonly string[]): string {
  return names.join(', ');
}

/**
 * The offset of the first JSON syntax error in `text` (for engines whose message has no
 * position), found by one pass of a small non-recursive scanner.
 */
export function jsonErrorOffset(text: string): number {
  let index = 0;
  const stack: string[] = [];
  // expect: 'value' | 'key' | 'colon' | 'comma-or-end' | 'done'
  let expect = 'value';
  const space = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index] as string)) index += 1;
  };
  const afterValue = () => {
    expect = stack.length === 0 ? 'done' : 'comma-or-end';
  };
  while (true) {
    space();
    if (index >= text.length) return expect === 'done' ? text.length : index;
    const char = text[index] as string;
    if (expect === 'done') return index;
    if (expect === 'colon') {
      if (char !== ':') return index;
      index += 1;
      expect = 'value';
      continue;
    }
    if (expect === 'comma-or-end') {
      const top = stack.at(-1);
      if (char === ',') {
        index += 1;
        expect = top === '{' ? 'key' : 'value';
        continue;
      }
      if ((char === '}' && top === '{') || (char === ']' && top === '[')) {
        index += 1;
        stack.pop();
        afterValue();
        continue;
      }
      return index;
    }
    if (expect === 'key') {
      if (char === '}' && text[index - 1] !== ',' && stack.at(-1) === '{') {
        index += 1;
        stack.pop();
        afterValue();
        continue;
      }
      if (char !== '"') return index;
      const end = stringEnd(text, index);
      if (end < 0) return index;
      index = end;
      expect = 'colon';
      continue;
    }
    // a value
    if (char === '{' || char === '[') {
      stack.push(char);
      index += 1;
      space();
      if (text[index] === (char === '{' ? '}' : ']')) {
        index += 1;
        stack.pop();
        afterValue();
        continue;
      }
      expect = char === '{' ? 'key' : 'value';
      continue;
    }
    if (char === '"') {
      const end = stringEnd(text, index);
      if (end < 0) return index;
      index = end;
      afterValue();
      continue;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(index, index + 400),
    );
    if (literal === null) return index;
    index += literal[0].length;
    afterValue();
  }
}

function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '"') return index + 1;
    else if (char === '\n') return -1;
  }
  return -1;
}
