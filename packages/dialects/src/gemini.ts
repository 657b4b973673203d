import { formatMcpToolName, type HookEvent, parseMcpToolName } from '@soong-agent/protocol';
import { CLAUDE_CODE_TOOL_INPUT_BYTES } from './claude-code.js';
import { addEnvironmentNote, otherAgentHint, pluginRootOf } from './convert/claude.js';
import { type Conversion, type ConvertedHook, hasEvent, shellQuote } from './convert/conversion.js';
import { convertGrouped, type GroupedFormat, type HookContext } from './convert/grouped.js';
import { isBareWord, reparsesText, replaceInShell } from './convert/shell-text.js';
import type { ToolCatalog } from './convert/tool-matcher.js';
import type {
  ConvertOptions,
  ConvertResult,
  Dialect,
  DialectContext,
  DialectLog,
  DialectRun,
  DialectVerdict,
} from './dialect.js';
import {
  absolutePath,
  answerKeepingDeny,
  contextOf,
  depthChecked,
  failedExit,
  ignoredKeysWarning,
  isRecord,
  keepDeny,
  optionalReason,
  parseBoundedJson,
  resultText,
  type StdoutAnswer,
  specificText,
  stopHookActive,
  stringField,
  textOf,
  timestampOf,
  toolOf,
  unknownKeysOf,
  viewOf,
  word,
} from './shared.js';

/**
 * Gemini CLI (`packages/core/src/hooks`): renamed events (`BeforeTool`, `AfterTool`, `BeforeAgent`,
 * `AfterAgent`), its own tool names (`run_shell_command`, `replace`, …), an unanchored regex
 * matcher, timeouts in milliseconds, and an answer read from stdout — or from stderr when stdout
 * is empty — as JSON, else as plain text (exit 0 allow, 1 warning, 2 and more deny).
 */

const TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  bash: 'run_shell_command',
  read_file: 'read_file',
  write_file: 'write_file',
  edit_file: 'replace',
  grep: 'grep_search',
  list_dir: 'list_directory',
});

const EVENTS: Readonly<Record<string, HookEvent>> = Object.freeze({
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  BeforeAgent: 'UserPromptSubmit',
  AfterAgent: 'Stop',
  SessionStart: 'SessionStart',
  ...(hasEvent('SessionEnd') ? { SessionEnd: 'SessionEnd' as HookEvent } : {}),
  ...(hasEvent('Notification') ? { Notification: 'Notification' as HookEvent } : {}),
  PreCompress: 'PreCompact',
});

const THEIR_EVENT: Readonly<Record<string, string>> = {
  PreToolUse: 'BeforeTool',
  PostToolUse: 'AfterTool',
  UserPromptSubmit: 'BeforeAgent',
  Stop: 'AfterAgent',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  Notification: 'Notification',
  PreCompact: 'PreCompress',
};

/** Our MCP name `mcp__server__tool` as Gemini names MCP tools: `mcp_server_tool`. */
export function geminiMcpName(name: string): string | undefined {
  const mcp = parseMcpToolName(name);
  return mcp === undefined ? undefined : `mcp_${mcp.server}_${mcp.tool}`;
}

function toolInput(projectDir: string) {
  return (ours: string, input: unknown): unknown => {
    if (!isRecord(input)) return input;
    const { path: filePath, ...rest } = input;
    switch (ours) {
      case 'bash':
        return { command: input.command };
      case 'read_file':
      case 'write_file':
      case 'edit_file':
        return { file_path: absolutePath(filePath, projectDir), ...rest };
      case 'grep':
        return { pattern: input.pattern, dir_path: absolutePath(filePath ?? '.', projectDir) };
      case 'list_dir':
        return { dir_path: absolutePath(filePath, projectDir) };
      default:
        return input;
    }
  };
}

const SESSION_END_REASONS: Readonly<Record<string, string>> = {
  completed: 'exit',
  aborted: 'exit',
  error: 'other',
  max_turns: 'other',
};

function encodeInput(
  event: HookEvent,
  input: Readonly<Record<string, unknown>>,
  context: DialectContext,
): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    session_id: context.sessionId,
    transcript_path: context.transcriptPath,
    cwd: context.projectDir,
    hook_event_name: THEIR_EVENT[event] ?? event,
    timestamp: timestampOf(input),
  };
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse': {
      const tool = toolOf(input);
      const names = {
        ...TOOL_NAMES,
        ...(geminiMcpName(tool.name) === undefined
          ? {}
          : { [tool.name]: geminiMcpName(tool.name) as string }),
      };
      const view = viewOf(tool, context, names, toolInput(context.projectDir));
      payload.tool_name = view.name;
      payload.tool_input = view.input;
      if (event === 'PostToolUse') {
        const { text, isError } = resultText(input);
        payload.tool_response = isError
          ? { llmContent: text, returnDisplay: text, error: text }
          : { llmContent: text, returnDisplay: text };
      }
      break;
    }
    case 'UserPromptSubmit':
      payload.prompt = stringField(input, 'prompt');
      break;
    case 'PreCompact':
      payload.trigger = stringField(input, 'trigger');
      break;
    case 'Stop':
      // The turn's user prompt (spec §13.2), which the session gives Stop hooks as `prompt`.
      payload.prompt = stringField(input, 'prompt');
      payload.prompt_response = stringField(input, 'last_assistant_message');
      payload.stop_hook_active = stopHookActive(input);
      break;
    case 'SessionStart':
      payload.source = stringField(input, 'source') || 'startup';
      break;
    default:
      if (event === ('SessionEnd' as HookEvent)) {
        payload.reason = SESSION_END_REASONS[stringField(input, 'reason')] ?? 'other';
      } else if (event === ('Notification' as HookEvent)) {
        payload.notification_type = 'ToolPermission';
        payload.message = stringField(input, 'message');
        payload.details = {};
      }
  }
  return payload;
}

function env(context: DialectContext): Record<string, string> {
  return {
    GEMINI_PROJECT_DIR: context.projectDir,
    GEMINI_CWD: context.projectDir,
    GEMINI_SESSION_ID: context.sessionId,
    CLAUDE_PROJECT_DIR: context.projectDir,
  };
}

const KNOWN = new Set(['continue', 'stopReason', 'decision', 'reason', 'hookSpecificOutput']);
const KNOWN_SPECIFIC = new Set(['hookEventName']);
const KNOWN_SPECIFIC_WITH_CONTEXT = new Set(['hookEventName', 'additionalContext']);

/** Gemini's output rules (hookRunner.ts, types.ts), onto our decisions. */
function decide(event: HookEvent, run: DialectRun): DialectVerdict {
  const logs: DialectLog[] = [];
  const stdout = run.stdout.trim();
  const text = stdout !== '' ? stdout : run.stderrTail.trim();
  const answer = geminiAnswer(event, text, stdout !== '', logs);
  const verdict = depthChecked(verdictOfRun(event, run, text, answer.json, logs), answer);
  return { ...verdict, ...geminiContext(event, answer.json, verdict) };
}

/** Events on which Gemini CLI gives its model `hookSpecificOutput.additionalContext`. */
const CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
]);

/**
 * What Gemini CLI gives its model from one run (spec §13.1): an AfterTool deny's reason (the tool
 * ran; its result is kept), then `additionalContext` on SessionStart, BeforeAgent and AfterTool.
 */
function geminiContext(
  event: HookEvent,
  json: Record<string, unknown> | undefined,
  verdict: DialectVerdict,
): { context?: string } {
  if (verdict.failure !== undefined && verdict.decision !== 'deny') return {};
  return contextOf(
    event === 'PostToolUse' && verdict.decision === 'deny' ? verdict.reason : undefined,
    CONTEXT_EVENTS.has(event) ? specificText(json) : undefined,
  );
}

/**
 * The JSON answer Gemini reads from `text` (also double-encoded); else the deny that ends it
 * after other text (spec §13.2: Gemini reads that as plain text, here the deny stands).
 */
function geminiAnswer(
  event: HookEvent,
  text: string,
  fromStdout: boolean,
  logs: DialectLog[],
): StdoutAnswer {
  const denies = (json: Record<string, unknown>) => verdictOf(event, json, []).decision === 'deny';
  const whole = parseGeminiJson(text);
  if (whole !== undefined && !whole.tooDeep) return whole;
  const options = {
    why: ' (Gemini CLI reads stdout as one JSON value, else as plain text)',
    plainIsLog: fromStdout,
  };
  if (whole !== undefined) {
    return keepDeny(
      text,
      { ...whole, whole: true, before: '', multiLine: false },
      logs,
      denies,
      options,
    );
  }
  return answerKeepingDeny(text, logs, denies, options);
}

function verdictOfRun(
  event: HookEvent,
  run: DialectRun,
  text: string,
  json: Record<string, unknown> | undefined,
  logs: DialectLog[],
): DialectVerdict {
  if (json === undefined) {
    // Plain text (logged already): exit 0 allow (shown as a message), 1 a warning, 2 and more a
    // deny with the text.
    if (run.exitCode === 0) return { decision: 'none', exitCode: 0, logs };
    if (run.exitCode === null || run.exitCode === 1) return failedExit(run, logs, undefined);
    if (text === '' && run.exitCode !== 2) return failedExit(run, logs, undefined);
    return { decision: 'deny', ...optionalReason(textOf(text)), exitCode: run.exitCode, logs };
  }
  logs.push(
    ...ignoredKeysWarning(
      'Gemini CLI',
      unknownKeysOf(json, KNOWN, {
        hookSpecificOutput: CONTEXT_EVENTS.has(event)
          ? KNOWN_SPECIFIC_WITH_CONTEXT
          : KNOWN_SPECIFIC,
      }),
    ),
  );
  const verdict = verdictOf(event, json, logs);
  const reason = textOf(json.reason);
  if (run.exitCode === 2 && verdict.decision !== 'deny') {
    return {
      decision: 'deny',
      ...optionalReason(textOf(run.stderrTail) ?? reason),
      exitCode: 2,
      logs,
    };
  }
  if (run.exitCode !== 0 && run.exitCode !== 2 && verdict.decision !== 'deny') {
    return failedExit(run, logs, undefined);
  }
  return { ...verdict, exitCode: run.exitCode ?? 0, logs };
}

/** What one Gemini JSON answer says on `event`; warnings go to `logs`. */
function verdictOf(
  event: HookEvent,
  json: Record<string, unknown>,
  logs: DialectLog[],
): Pick<DialectVerdict, 'decision' | 'reason'> {
  const decision = word(json.decision);
  const reason = textOf(json.reason);
  if (decision === 'deny' || decision === 'block') {
    if (json.decision !== decision)
      logs.push({
        source: 'warning',
        message: `decision ${JSON.stringify(json.decision)} read as ${JSON.stringify(decision)}`,
      });
    return { decision: 'deny', ...optionalReason(reason) };
  }
  if (json.continue === false) {
    const stopReason = textOf(json.stopReason) ?? reason;
    if (event === 'PreToolUse') return { decision: 'deny', ...optionalReason(stopReason) };
    logs.push({
      source: 'warning',
      message: `continue: false${stopReason === undefined ? '' : `: ${stopReason}`} (Gemini CLI would end the agent loop); ${event === 'Stop' ? 'the stop goes through' : 'recorded, the session goes on'}`,
    });
    return { decision: 'none' };
  }
  if (decision === 'ask') {
    return event === 'PreToolUse'
      ? { decision: 'ask', ...optionalReason(reason) }
      : { decision: 'none' };
  }
  if (decision === 'allow' || decision === 'approve') {
    return { decision: 'allow', ...optionalReason(reason) };
  }
  if (json.decision !== undefined) {
    logs.push({
      source: 'warning',
      message: `decision ${JSON.stringify(json.decision)} is not one Gemini CLI knows (allow, deny, block, ask, approve); no decision`,
    });
  }
  return { decision: 'none' };
}

/**
 * Gemini parses the text as JSON, and once more when that gives a string (double-encoded); both
 * within the nesting bound.
 */
function parseGeminiJson(text: string): StdoutAnswer | undefined {
  if (text === '') return undefined;
  let parsed = parseBoundedJson(text);
  if (parsed.ok && typeof parsed.value === 'string') parsed = parseBoundedJson(parsed.value);
  if (parsed.ok) return isRecord(parsed.value) ? { json: parsed.value, tooDeep: false } : undefined;
  if (!parsed.tooDeep) return undefined;
  return { json: isRecord(parsed.shallow) ? parsed.shallow : undefined, tooDeep: true };
}

/** Gemini's tool names → ours. */
export const GEMINI_CATALOG: ToolCatalog = {
  agent: 'Gemini CLI',
  names: {
    run_shell_command: 'bash',
    read_file: 'read_file',
    write_file: 'write_file',
    replace: 'edit_file',
    grep_search: 'grep',
    search_file_content: 'grep',
    list_directory: 'list_dir',
    read_many_files: null,
    glob: null,
    web_fetch: null,
    google_web_search: null,
    write_todos: null,
    save_memory: null,
    ask_user: null,
    activate_skill: null,
    invoke_agent: null,
    enter_plan_mode: null,
    exit_plan_mode: null,
    get_internal_docs: null,
  },
  isExact: () => false,
  splitExact: (matcher) => [matcher],
  mcpName: (name) => {
    const match = /^mcp_([A-Za-z0-9-]+)_([A-Za-z0-9_-]+)$/.exec(name);
    return match === null ? undefined : formatMcpToolName(match[1] as string, match[2] as string);
  },
  mcpServerOfPrefix: (prefix) => /^mcp_([A-Za-z0-9-]+)_$/.exec(prefix)?.[1],
  mcpProbe: 'mcp_zz9probe_zz9tool',
  invalidRegex: 'exact',
};

const HANDLED = new Set(['type', 'command', 'name', 'timeout', 'env', 'description']);
// Gemini CLI's extension variables, written literally in its files.
const EXTENSION_PATH = ['$', '{extensionPath}'].join('');
const WORKSPACE_PATH = ['$', '{workspacePath}'].join('');
const SEPARATOR = ['$', '{/}'].join('');

function convertGeminiHook(
  hook: Record<string, unknown>,
  context: HookContext,
): ConvertedHook | undefined {
  const { path: hookPath, conversion, event } = context;
  if (!conversion.commandType(hook.type, `${hookPath}.type`, false)) return undefined;
  const source = conversion.command(hook.command, `${hookPath}.command`);
  if (source === undefined) return undefined;
  // Gemini CLI substitutes these in the text of the command; the extension folder last, so no
  // text of its name is taken for a variable.
  let command = substituteWorkspacePath(source).replaceAll(SEPARATOR, '/');
  // An extension's hooks.
  if (command.includes(EXTENSION_PATH)) {
    const root = pluginRootOf(context.options);
    if (root === undefined) {
      conversion.refuse(
        `${hookPath}.command`,
        `uses ${EXTENSION_PATH}, which Gemini CLI fills in only for an extension's hooks: import the extension's hooks file with --plugin-root <the extension folder> (the one holding gemini-extension.json)`,
      );
      return undefined;
    }
    const substituted = substituteExtensionPath(command, root);
    if (substituted === undefined) {
      conversion.refuse(
        `${hookPath}.command`,
        `the extension folder ${JSON.stringify(root)} has characters the shell treats specially, and ${EXTENSION_PATH} stands where they cannot be quoted (inside '…', a here-document, or text that eval, sh -c or an interpreter's -c/-e parses again): Gemini CLI would run part of the folder's name as code; rename the folder (letters, digits and _ . , : = @ % + - only) or write the command by hand`,
      );
      return undefined;
    }
    command = substituted;
  }
  if (hook.env !== undefined) {
    const exported = conversion.exportEnv(hook.env, command, `${hookPath}.env`);
    if (exported === undefined) return undefined;
    command = exported;
  }
  const converted: ConvertedHook = { type: 'command', command, protocol: 'gemini' };
  const name =
    typeof hook.name === 'string' && hook.name.trim() !== ''
      ? conversion.claimName(hook.name.trim())
      : conversion.nameFor(source);
  if (name !== undefined) converted.name = name;
  const timeout = conversion.timeout(hook.timeout, `${hookPath}.timeout`, {
    fallback: 60,
    unit: 'milliseconds',
  });
  if (timeout === false) return undefined;
  if (timeout !== undefined) converted.timeout = timeout;
  if (hook.timeout !== undefined) {
    conversion.note(
      `${hookPath}.timeout`,
      `${hook.timeout} ms (Gemini CLI counts milliseconds) written as ${timeout} s`,
    );
  }
  conversion.dropUnknownKeys(hook, HANDLED, hookPath);
  if (event === 'PreToolUse' && /hookSpecificOutput|tool_input"\s*:/.test(source)) {
    conversion.note(
      `${hookPath} (${converted.name ?? 'unnamed'})`,
      "Gemini CLI merges this hook's hookSpecificOutput.tool_input into the call; here the call runs as the model wrote it",
    );
  }
  return converted;
}

/**
 * `command` with the extension folder in place of `${extensionPath}`, as one shell word wherever it
 * stands (single-quoted, closing and reopening a `"…"` around it); bare when it needs no quoting.
 * Undefined when the folder needs quoting where that cannot be done safely.
 */
function substituteExtensionPath(command: string, root: string): string | undefined {
  if (isBareWord(root)) return command.replaceAll(EXTENSION_PATH, root);
  if (reparsesText(command)) return undefined;
  return replaceInShell(command, EXTENSION_PATH, ({ context, uncertain }) => {
    if (uncertain) return undefined;
    switch (context) {
      case 'plain':
        return shellQuote(root);
      case 'double':
        return `"${shellQuote(root)}"`;
      case 'comment':
        return EXTENSION_PATH;
      default:
        return undefined;
    }
  });
}

/**
 * `command` with `$GEMINI_PROJECT_DIR` (set for every gemini hook) in place of `${workspacePath}`,
 * expanded as one word: `"$GEMINI_PROJECT_DIR"` unquoted; inside `"…"` bare, or escaped for the
 * shell that parses the text again (`sh -c "…"`); inside `'…'` as text for whatever reads it.
 */
function substituteWorkspacePath(command: string): string {
  if (!command.includes(WORKSPACE_PATH)) return command;
  const reparsed = reparsesText(command);
  return (
    replaceInShell(command, WORKSPACE_PATH, ({ context }) => {
      if (context === 'double')
        return reparsed ? '\\"\\$GEMINI_PROJECT_DIR\\"' : '$GEMINI_PROJECT_DIR';
      return '"$GEMINI_PROJECT_DIR"';
    }) ?? command
  );
}

function settingsNotes(settings: Record<string, unknown>, conversion: Conversion): void {
  const config = isRecord(settings.hooksConfig) ? settings.hooksConfig : {};
  if (config.enabled === false) {
    conversion.note(
      'hooksConfig.enabled',
      'is false: Gemini CLI runs none of these hooks; converted anyway (hooks.enabled = false in config.toml turns all hooks off here)',
    );
  }
  if (Array.isArray(config.disabled) && config.disabled.length > 0) {
    conversion.note(
      'hooksConfig.disabled',
      `names hooks Gemini CLI skips (${config.disabled.map(String).join(', ')}); converted anyway: delete them from the result if they should stay off`,
    );
  }
}

const GEMINI_FORMAT: GroupedFormat = {
  agent: 'Gemini CLI',
  events: EVENTS,
  unsupported: Object.fromEntries(
    ['BeforeModel', 'AfterModel', 'BeforeToolSelection'].map((event) => [
      event,
      `soong-agent has no ${event} event (hooks here never see or change model requests)`,
    ]),
  ),
  toolEvents: new Set(['BeforeTool', 'AfterTool']),
  sourceEvents: new Set(['SessionStart']),
  sourceMatcher: 'exact',
  catalog: GEMINI_CATALOG,
  groupKeys: { sequential: null },
  convertHook: convertGeminiHook,
  settingsNotes,
  otherFormatHint: otherAgentHint,
};

/** Gemini CLI's settings.json (or an extension's hooks/hooks.json). Pure. */
export function convertGeminiConfig(text: string, options: ConvertOptions = {}): ConvertResult {
  const result = convertGrouped(GEMINI_FORMAT, text, options);
  addEnvironmentNote(
    result,
    'Gemini CLI',
    'GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_SESSION_ID, CLAUDE_PROJECT_DIR',
  );
  if (Object.keys(result.hooks.hooks).length > 0) {
    result.notes.push(
      '(order): Gemini CLI runs the hooks of an event in parallel unless a group says "sequential": true; here they run one after another, in file order',
    );
  }
  return result;
}

/** The `gemini` dialect (spec §12). */
export const geminiDialect: Dialect = Object.freeze({
  name: 'gemini',
  // The agent passes the tool input whole, so a content scanner sees it all, as in the agent.
  toolInputBytes: CLAUDE_CODE_TOOL_INPUT_BYTES,
  toolNames: TOOL_NAMES,
  events: EVENTS,
  encodeInput,
  env,
  contextEvents: Object.freeze([...CONTEXT_EVENTS]),
  decide,
  convertConfig: convertGeminiConfig,
});
