import { MAX_HOOK_TIMEOUT_SECONDS } from '@soong-agent/config';
import { CLAUDE_TOOL_ALIASES } from '@soong-agent/matcher';
import { HOOK_EVENTS, TOOL_EVENTS } from '@soong-agent/protocol';

/** Something of the settings file that was left out, with where it is and why. */
export interface ImportRefusal {
  /** JSON path in the settings file, e.g. `hooks.PreToolUse[1].matcher`. */
  path: string;
  /** Why it was not converted. */
  reason: string;
}

/** Something converted with a change the user should know about (a dropped name, a capped timeout). */
export interface ImportNote {
  /** JSON path in the settings file. */
  path: string;
  /** What changed. */
  message: string;
}

/** A converted hook, as written in hooks.json. */
export interface ImportedHook {
  type: 'command';
  command: string;
  protocol: 'claude-code';
  timeout?: number;
}

/** A converted rule, as written in hooks.json. */
export interface ImportedRule {
  matcher?: { tool: string[] };
  hooks: ImportedHook[];
}

/** Options of {@link convertClaudeSettings}. */
export interface ConvertClaudeSettingsOptions {
  /**
   * The plugin's root folder when the file is a Claude Code plugin's `hooks/hooks.json`: commands
   * that use `${CLAUDE_PLUGIN_ROOT}` get it exported, as Claude Code does. Without it such hooks are
   * refused (the variable would be empty and the script not found).
   * @default undefined
   */
  pluginRoot?: string | undefined;
}

/** Claude Code's default hook timeout, kept for imported hooks that give none (SPEC §7 parity). */
export const CLAUDE_CODE_DEFAULT_TIMEOUT_SECONDS = 600;

/** What {@link convertClaudeSettings} made of a settings file. */
export interface ClaudeSettingsImport {
  /** The converted rules by event (only events that got at least one rule). */
  hooks: Record<string, ImportedRule[]>;
  /** Hooks converted. */
  hookCount: number;
  /** Rules converted. */
  ruleCount: number;
  /** Everything left out, in file order. */
  refusals: ImportRefusal[];
  /** Changes made while converting, in file order. */
  notes: ImportNote[];
}

// Claude Code's current matcher rule: only these characters make an exact name or a list.
const EXACT_MATCHER = /^[A-Za-z0-9_\-|, ]*$/;
const SHELL_SAFE = /^[A-Za-z0-9_/.,:=@%+-]+$/;
const PROJECT_DIR_VARIABLE = /\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR(?![A-Za-z0-9_])/;
const PLUGIN_ROOT_VARIABLE = /\$\{CLAUDE_PLUGIN_ROOT\}|\$CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_])/;
const HANDLED_HOOK_KEYS = new Set(['type', 'command', 'args', 'timeout', 'async', 'asyncRewake']);
const HANDLED_HOOK_KEYS_REFUSED = new Set(['if', 'shell']);
const DROPPED_HOOK_KEYS: Readonly<Record<string, string>> = {
  statusMessage: 'statusMessage dropped (soong-agent shows no hook status line)',
  once: 'once dropped (it applies to skills only)',
};
const TOOL_EVENT_NAMES: ReadonlySet<string> = new Set(TOOL_EVENTS);

/**
 * Converts the `hooks` of a Claude Code settings file into soong-agent hooks.json rules with
 * `"protocol": "claude-code"` (SPEC §7 "Import"). Pure: nothing is read or written. Everything that
 * cannot be converted is listed in `refusals` with its JSON path and reason and left out.
 */
export function convertClaudeSettings(
  settings: unknown,
  options: ConvertClaudeSettingsOptions = {},
): ClaudeSettingsImport {
  const result: ClaudeSettingsImport = {
    hooks: {},
    hookCount: 0,
    ruleCount: 0,
    refusals: [],
    notes: [],
  };
  const refuse = (path: string, reason: string) => result.refusals.push({ path, reason });
  const note = (path: string, message: string) => result.notes.push({ path, message });
  if (!isRecord(settings)) {
    refuse('(root)', 'not a JSON object (a Claude Code settings file is one)');
    return result;
  }
  if (settings.disableAllHooks === true) {
    note(
      'disableAllHooks',
      'is true: Claude Code runs none of these hooks; converted anyway (hooks.enabled = false in config.toml turns all hooks off here)',
    );
  }
  if (isRecord(settings.env) && Object.keys(settings.env).length > 0) {
    note(
      'env',
      `sets ${Object.keys(settings.env).join(', ')} for Claude Code sessions; soong-agent hooks see only allowlisted variables: set them in your environment and add their names to [runner] env_allowlist in config.toml`,
    );
  }
  const hooks = settings.hooks;
  if (hooks === undefined) {
    refuse('hooks', 'absent: the file configures no hooks');
    return result;
  }
  if (!isRecord(hooks)) {
    refuse('hooks', 'not an object of events');
    return result;
  }
  for (const [event, groups] of Object.entries(hooks)) {
    const eventPath = `hooks.${event}`;
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      refuse(eventPath, `soong-agent has no ${event} event (it has ${HOOK_EVENTS.join(', ')})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      refuse(eventPath, 'not an array of matcher groups');
      continue;
    }
    for (const [groupIndex, group] of groups.entries()) {
      const rule = convertGroup(event, group, `${eventPath}[${groupIndex}]`, refuse, note, options);
      if (rule === undefined) continue;
      const rules = result.hooks[event] ?? [];
      rules.push(rule);
      result.hooks[event] = rules;
      result.ruleCount += 1;
      result.hookCount += rule.hooks.length;
    }
  }
  if (result.hookCount > 0) {
    note(
      '(timeout)',
      `a hook without "timeout" gets Claude Code's default of ${CLAUDE_CODE_DEFAULT_TIMEOUT_SECONDS} s, written out (here hooks.default_timeout would give it 30 s)`,
    );
    note(
      '(environment)',
      'Claude Code gives hooks its whole environment; here a hook sees only PATH, HOME, USER, LOGNAME, SHELL, TERM, LANG, LC_ALL, TZ, TMPDIR, the SOONG_AGENT_* and CLAUDE_PROJECT_DIR variables and [runner] env_allowlist: add any variable your hooks read (e.g. a setting exported in your shell)',
    );
  }
  return result;
}

type Report = (path: string, text: string) => void;

function convertGroup(
  event: string,
  group: unknown,
  groupPath: string,
  refuse: Report,
  note: Report,
  options: ConvertClaudeSettingsOptions,
): ImportedRule | undefined {
  if (!isRecord(group)) {
    refuse(groupPath, 'not a matcher group (expected {"matcher": …, "hooks": [...]})');
    return undefined;
  }
  if (!Array.isArray(group.hooks) || group.hooks.length === 0) {
    refuse(`${groupPath}.hooks`, 'not a non-empty array of hooks');
    return undefined;
  }
  const matcher = convertMatcher(event, group.matcher, `${groupPath}.matcher`, refuse, note);
  if (matcher === false) return undefined;
  const converted: ImportedHook[] = [];
  for (const [hookIndex, hook] of group.hooks.entries()) {
    const done = convertHook(hook, `${groupPath}.hooks[${hookIndex}]`, refuse, note, options);
    if (done !== undefined) converted.push(done);
  }
  if (converted.length === 0) return undefined;
  return matcher === undefined ? { hooks: converted } : { matcher, hooks: converted };
}

// undefined: no matcher (every occurrence); false: the group is refused.
function convertMatcher(
  event: string,
  matcher: unknown,
  matcherPath: string,
  refuse: Report,
  note: Report,
): { tool: string[] } | undefined | false {
  if (matcher === undefined || matcher === '' || matcher === '*') return undefined;
  if (typeof matcher !== 'string') {
    refuse(matcherPath, `${JSON.stringify(matcher)} is not a string`);
    return false;
  }
  const shown = JSON.stringify(matcher);
  if (event === 'SessionStart') {
    // An exact source or a list of them; here every session starts fresh (source "startup").
    const sources = matcher.split(/[|,]/).map((source) => source.trim());
    if (EXACT_MATCHER.test(matcher) && sources.includes('startup')) {
      const others = sources.filter((source) => source !== 'startup' && source !== '');
      if (others.length > 0) {
        note(
          matcherPath,
          `${others.join(', ')} dropped from ${shown}: soong-agent sessions always start fresh (source "startup")`,
        );
      }
      return undefined;
    }
    refuse(
      matcherPath,
      `${shown} never matches here: soong-agent sessions always start fresh (source "startup")`,
    );
    return false;
  }
  if (!TOOL_EVENT_NAMES.has(event)) {
    note(matcherPath, `${shown} ignored (Claude Code ignores matchers on ${event})`);
    return undefined;
  }
  if (!EXACT_MATCHER.test(matcher)) {
    refuse(matcherPath, regexReason(matcher));
    return false;
  }
  const names = matcher
    .split(/[|,]/)
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return undefined;
  const tools: string[] = [];
  const dropped: string[] = [];
  for (const name of names) {
    const tool = ourToolName(name);
    if (tool === undefined) dropped.push(name);
    else if (!tools.includes(tool)) tools.push(tool);
  }
  if (tools.length === 0) {
    refuse(matcherPath, `${shown} names no tool soong-agent has (${dropped.join(', ')})`);
    return false;
  }
  if (dropped.length > 0) {
    note(
      matcherPath,
      `${dropped.join(', ')} dropped from ${shown}: no soong-agent equivalent; kept ${tools.join(', ')}`,
    );
  }
  return { tool: tools };
}

// Claude Code names through the alias table; MCP tool names are kept (mcp-proxy names tools alike).
function ourToolName(name: string): string | undefined {
  if (Object.hasOwn(CLAUDE_TOOL_ALIASES, name)) return CLAUDE_TOOL_ALIASES[name];
  if (/^mcp__[A-Za-z0-9_-]+__[A-Za-z0-9_-]+$/.test(name)) return name;
  return undefined;
}

function regexReason(matcher: string): string {
  const base = `${JSON.stringify(matcher)} is a regular expression; soong-agent matchers are exact`;
  let pattern: RegExp;
  try {
    pattern = new RegExp(matcher);
  } catch {
    return `${base} (and this one is not a valid regular expression)`;
  }
  const claudeNames = Object.keys(CLAUDE_TOOL_ALIASES);
  const matched = claudeNames.filter((name) => pattern.test(name));
  const tools = [...new Set(matched.map((name) => CLAUDE_TOOL_ALIASES[name] as string))];
  if (matched.length === claudeNames.length) {
    return `${base}; it matches every tool: write the rule without a matcher`;
  }
  if (tools.length === 0) return `${base}; it matches none of our tools: list the tools by name`;
  return `${base}; among our tools it matches ${matched.join(', ')}: write {"tool": ${JSON.stringify(tools)}}`;
}

function convertHook(
  hook: unknown,
  hookPath: string,
  refuse: Report,
  note: Report,
  options: ConvertClaudeSettingsOptions,
): ImportedHook | undefined {
  if (!isRecord(hook)) {
    refuse(hookPath, 'not a hook object');
    return undefined;
  }
  if (hook.type !== 'command') {
    const type = JSON.stringify(hook.type);
    refuse(`${hookPath}.type`, `${type} hooks are not supported: soong-agent runs command hooks`);
    return undefined;
  }
  for (const key of ['async', 'asyncRewake'] as const) {
    if (hook[key] !== undefined && hook[key] !== false) {
      refuse(
        `${hookPath}.${key}`,
        `${key} hooks are not supported: soong-agent waits for every hook, and an async hook cannot block`,
      );
      return undefined;
    }
  }
  if (hook.if !== undefined) {
    refuse(
      `${hookPath}.if`,
      `permission-rule filters (${JSON.stringify(hook.if)}) are not supported: use a matcher, or test the input in the script`,
    );
    return undefined;
  }
  if (hook.shell !== undefined && hook.shell !== 'bash') {
    refuse(
      `${hookPath}.shell`,
      `${JSON.stringify(hook.shell)} is not supported: hooks run by /bin/sh (or bash)`,
    );
    return undefined;
  }
  if (typeof hook.command !== 'string' || hook.command.trim() === '') {
    refuse(`${hookPath}.command`, 'missing or blank');
    return undefined;
  }
  let command = hook.command;
  if (hook.args !== undefined) {
    if (!Array.isArray(hook.args) || !hook.args.every((arg) => typeof arg === 'string')) {
      refuse(`${hookPath}.args`, 'not an array of strings');
      return undefined;
    }
    command = [hook.command, ...hook.args].map(quoteArgument).join(' ');
  } else if (hook.shell === 'bash') {
    command = `bash -c ${quoteArgument(command)}`;
  }
  if (PLUGIN_ROOT_VARIABLE.test(command)) {
    if (options.pluginRoot === undefined) {
      refuse(
        `${hookPath}.command`,
        "uses CLAUDE_PLUGIN_ROOT, which Claude Code sets for a plugin's hooks only: import the plugin's hooks/hooks.json file",
      );
      return undefined;
    }
    // As Claude Code does: the variable is set for the hook, the command keeps using it.
    command = `CLAUDE_PLUGIN_ROOT=${quoteArgument(options.pluginRoot)}; export CLAUDE_PLUGIN_ROOT; ${command}`;
  }
  const converted: ImportedHook = {
    type: 'command',
    command,
    protocol: 'claude-code',
    timeout: CLAUDE_CODE_DEFAULT_TIMEOUT_SECONDS,
  };
  if (hook.timeout !== undefined) {
    if (typeof hook.timeout !== 'number' || !(hook.timeout > 0)) {
      refuse(
        `${hookPath}.timeout`,
        `${JSON.stringify(hook.timeout)} is not a number of seconds > 0`,
      );
      return undefined;
    }
    converted.timeout = Math.min(hook.timeout, MAX_HOOK_TIMEOUT_SECONDS);
    if (hook.timeout > MAX_HOOK_TIMEOUT_SECONDS) {
      note(
        `${hookPath}.timeout`,
        `${hook.timeout} s capped at ${MAX_HOOK_TIMEOUT_SECONDS} s (the most a hook may run here)`,
      );
    }
  }
  for (const key of Object.keys(hook)) {
    if (HANDLED_HOOK_KEYS.has(key) || HANDLED_HOOK_KEYS_REFUSED.has(key)) continue;
    note(
      `${hookPath}.${key}`,
      DROPPED_HOOK_KEYS[key] ?? `unknown key ${JSON.stringify(key)} dropped`,
    );
  }
  return converted;
}

/**
 * One argv word for `/bin/sh -c`: bare when safe, else single-quoted. `$CLAUDE_PROJECT_DIR` (Claude
 * Code substitutes it in `args`) stays expandable, as `"$CLAUDE_PROJECT_DIR"`.
 */
export function quoteArgument(word: string): string {
  if (SHELL_SAFE.test(word)) return word;
  if (word === '') return "''";
  const parts = word.split(PROJECT_DIR_VARIABLE);
  return parts
    .map((part) => (part === '' ? '' : `'${part.replaceAll("'", `'\\''`)}'`))
    .join('"$CLAUDE_PROJECT_DIR"');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
