import path from 'node:path';
import { formatMcpToolName, isBlockingEvent, parseMcpToolName } from '@soong-agent/protocol';
import { CLAUDE_CODE_OUR_TOOL_NAMES } from '../claude-code-names.js';
import type { ConvertOptions, ConvertResult } from '../dialect.js';
import { isRecord } from '../shared.js';
import { type Conversion, type ConvertedHook, shellQuote } from './conversion.js';
import { convertGrouped, type GroupedFormat, type HookContext } from './grouped.js';
import { splitNameList, type ToolCatalog } from './tool-matcher.js';

/** Claude Code's default hook timeout in seconds, written out on imported hooks. */
export const CLAUDE_CODE_DEFAULT_TIMEOUT_SECONDS = 600;
/** Claude Code's default for UserPromptSubmit hooks. */
export const CLAUDE_CODE_PROMPT_TIMEOUT_SECONDS = 30;

/** Claude Code tool names a hook sees (and old ones) → ours; null: no soong-agent equivalent. */
export const CLAUDE_CODE_CATALOG_NAMES: Readonly<Record<string, string | null>> = Object.freeze({
  ...CLAUDE_CODE_OUR_TOOL_NAMES,
  Glob: null,
  PowerShell: null,
  NotebookEdit: null,
  NotebookRead: null,
  WebFetch: null,
  WebSearch: null,
  Agent: null,
  Task: null,
  TodoWrite: null,
  AskUserQuestion: null,
  ExitPlanMode: null,
  BashOutput: null,
  KillShell: null,
  KillBash: null,
  SlashCommand: null,
  Skill: null,
});

const EXACT = /^[A-Za-z0-9_\-|, ]*$/;
// Claude Code's MCP tool names use these characters only; the server/tool split is ours.
const MCP_NAME_CHARACTERS = /^[A-Za-z0-9_-]+$/;
const MCP_SERVER_PREFIX = /^mcp__([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)__$/;

/** Claude Code's matcher rule and tool names (also Copilot's PascalCase entries). */
export const CLAUDE_CODE_CATALOG: ToolCatalog = {
  agent: 'Claude Code',
  names: CLAUDE_CODE_CATALOG_NAMES,
  isExact: (matcher) => EXACT.test(matcher),
  splitExact: splitNameList,
  mcpName: (name) =>
    MCP_NAME_CHARACTERS.test(name) && parseMcpToolName(name) !== undefined ? name : undefined,
  mcpServerOfPrefix: (prefix) => MCP_SERVER_PREFIX.exec(prefix)?.[1],
  mcpProbe: formatMcpToolName('zz9probe', 'zz9tool'),
  invalidRegex: 'reject',
};

const CLAUDE_EVENTS: Readonly<Record<string, string>> = {
  SessionStart: 'SessionStart',
  UserPromptSubmit: 'UserPromptSubmit',
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  Stop: 'Stop',
  SessionEnd: 'SessionEnd',
  Notification: 'Notification',
  PostToolUseFailure: 'PostToolUseFailure',
  PreCompact: 'PreCompact',
  SubagentStart: 'SubagentStart',
  SubagentStop: 'SubagentStop',
};

const CLAUDE_UNSUPPORTED: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'Setup',
    'InstructionsLoaded',
    'UserPromptExpansion',
    'MessageDisplay',
    'PermissionRequest',
    'PermissionDenied',
    'PostToolBatch',
    'TaskCreated',
    'TaskCompleted',
    'StopFailure',
    'TeammateIdle',
    'ConfigChange',
    'CwdChanged',
    'DirectoryAdded',
    'FileChanged',
    'WorktreeCreate',
    'WorktreeRemove',
    'PostCompact',
    'Elicitation',
    'ElicitationResult',
  ].map((event) => [
    event,
    `soong-agent has no ${event} event (it has ${Object.keys(CLAUDE_EVENTS).join(', ')})`,
  ]),
);

const PLUGIN_ROOT = /CLAUDE_PLUGIN_ROOT/;
const PLUGIN_ROOT_PLACEHOLDER = /\$\{CLAUDE_PLUGIN_ROOT\}|\$CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_])/g;
const PROJECT_DIR_VARIABLE = /\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR(?![A-Za-z0-9_])/;
const HANDLED = new Set([
  'type',
  'command',
  'args',
  'timeout',
  'async',
  'asyncRewake',
  'if',
  'shell',
]);
const DROPPED: Readonly<Record<string, string>> = {
  statusMessage: 'statusMessage dropped (soong-agent shows no hook status line)',
  once: 'once dropped (it applies to skills only)',
};

/** The root of the plugin a file belongs to, from `options.plugin` and `options.file`. */
export function pluginRootOf(options: ConvertOptions): string | undefined {
  if (options.plugin === undefined || options.plugin === false) return undefined;
  if (options.plugin === true) {
    if (options.file === undefined) return undefined;
    const folder = path.dirname(options.file);
    return path.basename(folder) === 'hooks' ? path.dirname(folder) : folder;
  }
  return options.plugin.root;
}

/** A Claude Code command hook (also Copilot's PascalCase entries) as ours. */
export function convertClaudeHook(
  hook: Record<string, unknown>,
  context: HookContext,
  agent = 'Claude Code',
): ConvertedHook | undefined {
  const { path: hookPath, conversion, event } = context;
  if (!conversion.commandType(hook.type, `${hookPath}.type`, false)) return undefined;
  for (const key of ['async', 'asyncRewake'] as const) {
    if (hook[key] === undefined || hook[key] === false) continue;
    if (isBlockingEvent(event)) {
      conversion.refuse(
        `${hookPath}.${key}`,
        `an ${key} ${event} hook cannot block in ${agent}, but every ${event} hook can here: remove "${key}" if it should block, or keep it in ${agent} only`,
      );
      return undefined;
    }
  }
  if (hook.if !== undefined) {
    conversion.refuse(
      `${hookPath}.if`,
      `permission-rule filters (${JSON.stringify(hook.if)}) are not supported: use a matcher, or test the input in the script`,
    );
    return undefined;
  }
  if (hook.shell !== undefined && hook.shell !== 'bash') {
    conversion.refuse(
      `${hookPath}.shell`,
      `${JSON.stringify(hook.shell)} is not supported: hooks run by /bin/sh (or bash)`,
    );
    return undefined;
  }
  if (typeof hook.command !== 'string' || hook.command.trim() === '') {
    conversion.refuse(`${hookPath}.command`, 'missing or blank');
    return undefined;
  }
  const pluginRoot = pluginRootOf(context.options);
  let command = hook.command;
  if (hook.args !== undefined) {
    if (!Array.isArray(hook.args) || !hook.args.every((arg) => typeof arg === 'string')) {
      conversion.refuse(`${hookPath}.args`, 'not an array of strings');
      return undefined;
    }
    // Claude Code substitutes ${CLAUDE_PLUGIN_ROOT} in args itself (no shell): so do we, quoted.
    command = [hook.command, ...hook.args].map((word) => quoteArgument(word, pluginRoot)).join(' ');
  } else if (hook.shell === 'bash') {
    // The body is bash's to parse: its variables (CLAUDE_PROJECT_DIR is in the env) expand there,
    // never in /bin/sh first, where a project folder's name would become part of bash's code.
    command = `bash -c ${shellQuote(command)}`;
  }
  const usesPluginRoot =
    PLUGIN_ROOT.test(hook.command) ||
    (Array.isArray(hook.args) &&
      hook.args.some((arg) => typeof arg === 'string' && PLUGIN_ROOT.test(arg)));
  if (pluginRoot !== undefined) {
    // A plugin's hooks always get CLAUDE_PLUGIN_ROOT, in every spelling the script may read it.
    command = `CLAUDE_PLUGIN_ROOT=${shellQuote(pluginRoot)}; export CLAUDE_PLUGIN_ROOT; ${command}`;
  } else if (usesPluginRoot) {
    conversion.refuse(
      `${hookPath}.command`,
      "uses CLAUDE_PLUGIN_ROOT, which Claude Code sets only for the hooks of a plugin: import the plugin's hooks file with --plugin-root <the plugin folder> (the one holding .claude-plugin/plugin.json)",
    );
    return undefined;
  }
  const converted: ConvertedHook = { type: 'command', command, protocol: 'claude-code' };
  const name = conversion.nameFor(hook.command);
  if (name !== undefined) converted.name = name;
  const defaultTimeout =
    event === 'UserPromptSubmit'
      ? CLAUDE_CODE_PROMPT_TIMEOUT_SECONDS
      : CLAUDE_CODE_DEFAULT_TIMEOUT_SECONDS;
  const timeout = conversion.timeout(hook.timeout, `${hookPath}.timeout`, {
    fallback: defaultTimeout,
  });
  if (timeout === false) return undefined;
  if (timeout !== undefined) converted.timeout = timeout;
  for (const key of ['async', 'asyncRewake'] as const) {
    if (hook[key] !== undefined && hook[key] !== false) {
      conversion.note(
        `${hookPath}.${key}`,
        `${agent} runs this hook in the background; here it runs in order with the others and the session waits for it (up to its timeout)`,
      );
    }
  }
  for (const key of Object.keys(hook)) {
    if (HANDLED.has(key)) continue;
    conversion.note(
      `${hookPath}.${key}`,
      DROPPED[key] ?? `unknown key ${JSON.stringify(key)} dropped`,
    );
  }
  return converted;
}

/**
 * One argv word for `/bin/sh -c`: bare when safe, else single-quoted; `$CLAUDE_PROJECT_DIR`
 * (Claude Code substitutes it in `args`) stays expandable, as `"$CLAUDE_PROJECT_DIR"`, and
 * `${CLAUDE_PLUGIN_ROOT}` becomes `pluginRoot`, quoted as text (given one).
 */
export function quoteArgument(word: string, pluginRoot?: string): string {
  const parts = pluginRoot === undefined ? [word] : word.split(PLUGIN_ROOT_PLACEHOLDER);
  if (pluginRoot !== undefined && parts.length > 1) {
    // A folder named like the variable must stay text: quoted apart from the rest of the word.
    if (!PROJECT_DIR_VARIABLE.test(pluginRoot)) return quoteArgument(parts.join(pluginRoot));
    return parts
      .map((part) => (part === '' ? '' : quoteArgument(part)))
      .join(shellQuote(pluginRoot));
  }
  if (/^[A-Za-z0-9_/.,:=@%+-]+$/.test(word)) return word;
  if (word === '') return "''";
  return word
    .split(PROJECT_DIR_VARIABLE)
    .map((part) => (part === '' ? '' : `'${part.replaceAll("'", `'\\''`)}'`))
    .join('"$CLAUDE_PROJECT_DIR"');
}

function settingsNotes(settings: Record<string, unknown>, conversion: Conversion): void {
  if (settings.disableAllHooks === true) {
    conversion.note(
      'disableAllHooks',
      'is true: Claude Code runs none of these hooks; converted anyway (hooks.enabled = false in config.toml turns all hooks off here)',
    );
  }
  if (isRecord(settings.env) && Object.keys(settings.env).length > 0) {
    conversion.note(
      'env',
      `sets ${Object.keys(settings.env).join(', ')} for Claude Code sessions; soong-agent hooks see only allowlisted variables: set them in your environment and add their names to [runner] env_allowlist in config.toml`,
    );
  }
}

/** A hint naming the agent whose file this probably is. */
export function otherAgentHint(events: readonly string[]): string | undefined {
  const has = (names: string[]) => events.some((event) => names.includes(event));
  if (
    has([
      'beforeShellExecution',
      'beforeMCPExecution',
      'beforeReadFile',
      'afterFileEdit',
      'beforeSubmitPrompt',
      'stop',
    ])
  ) {
    return "it looks like Cursor's hooks.json: use --from cursor";
  }
  if (has(['userPromptSubmitted', 'agentStop', 'errorOccurred'])) {
    return "it looks like Copilot CLI's hooks: use --from copilot";
  }
  if (has(['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'BeforeModel'])) {
    return "it looks like Gemini CLI's settings: use --from gemini";
  }
  if (has(['preToolUse', 'postToolUse', 'sessionStart'])) {
    return "it looks like Cursor's or Copilot CLI's hooks: use --from cursor or --from copilot";
  }
  return undefined;
}

/** Claude Code's settings format (settings.json, a plugin's hooks/hooks.json). */
export const CLAUDE_CODE_FORMAT: GroupedFormat = {
  agent: 'Claude Code',
  events: CLAUDE_EVENTS,
  unsupported: CLAUDE_UNSUPPORTED,
  toolEvents: new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']),
  sourceEvents: new Set(['SessionStart']),
  catalog: CLAUDE_CODE_CATALOG,
  convertHook: (hook, context) => convertClaudeHook(hook, context),
  settingsNotes,
  otherFormatHint: otherAgentHint,
};

/**
 * Converts a Claude Code settings file (or a plugin's hooks file) into our hooks.json with
 * `"protocol": "claude-code"` hooks (spec §7, §12). Pure: nothing is read or written.
 */
export function convertClaudeCodeConfig(text: string, options: ConvertOptions = {}): ConvertResult {
  const result = convertGrouped(CLAUDE_CODE_FORMAT, text, options);
  addEnvironmentNote(result, 'Claude Code', 'CLAUDE_PROJECT_DIR');
  return result;
}

/** The label of the note {@link addEnvironmentNote} adds (one per import, however many files). */
export const ENVIRONMENT_NOTE_LABEL = '(environment)';

/**
 * The one note on what hooks see of the environment, when something was converted. `variables`:
 * the agent's own variables its dialect sets too (`CLAUDE_PROJECT_DIR`), if any.
 */
export function addEnvironmentNote(result: ConvertResult, agent: string, variables?: string): void {
  if (Object.keys(result.hooks.hooks).length === 0) return;
  const own =
    variables === undefined
      ? 'the SOONG_AGENT_* variables'
      : `the SOONG_AGENT_* variables, ${variables}`;
  result.notes.push(
    `${ENVIRONMENT_NOTE_LABEL}: ${agent} gives hooks its whole environment; here a hook sees only PATH, HOME, USER, LOGNAME, SHELL, TERM, LANG, LC_ALL, TZ, TMPDIR, ${own} and the names in [runner] env_allowlist of config.toml: add any variable your hooks read there`,
  );
}
