import path from 'node:path';
import { type HookEvent, parseMcpToolName } from '@soong-agent/protocol';
import { CLAUDE_CODE_TOOL_INPUT_BYTES } from './claude-code.js';
import { addEnvironmentNote, otherAgentHint } from './convert/claude.js';
import {
  Conversion,
  type ConvertedHook,
  type ConvertedMatcher,
  hasEvent,
  observeOnlyNote,
  parseConfigJson,
} from './convert/conversion.js';
import { isBareWord } from './convert/shell-text.js';
import { convertToolMatcher, splitNameList, type ToolCatalog } from './convert/tool-matcher.js';
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
  brokenJsonVerdict,
  contextOf,
  depthChecked,
  failedExit,
  ignoredKeysWarning,
  isRecord,
  optionalReason,
  resultText,
  type StdoutAnswer,
  stringField,
  textOf,
  toolOf,
  unknownKeysOf,
  viewOf,
  word,
} from './shared.js';

/**
 * Cursor (hooks.json v1, cursor.com/docs/hooks): camelCase events, several of which are one of ours
 * (`preToolUse`, `beforeShellExecution`, `beforeMCPExecution`, `beforeReadFile` are all
 * PreToolUse; the hook's `dialect_event` says which payload it expects), tool types (`Shell`,
 * `Read`, `Write`, `Grep`, `MCP:<tool>`), answers `{"permission": "allow"|"deny"|"ask"}`, and a stop
 * that continues only through `followup_message`.
 */

const TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  bash: 'Shell',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Write',
  grep: 'Grep',
});

const EVENTS: Readonly<Record<string, HookEvent>> = Object.freeze({
  preToolUse: 'PreToolUse',
  beforeShellExecution: 'PreToolUse',
  beforeMCPExecution: 'PreToolUse',
  beforeReadFile: 'PreToolUse',
  postToolUse: 'PostToolUse',
  afterShellExecution: 'PostToolUse',
  afterMCPExecution: 'PostToolUse',
  afterFileEdit: 'PostToolUse',
  beforeSubmitPrompt: 'UserPromptSubmit',
  stop: 'Stop',
  sessionStart: 'SessionStart',
  ...(hasEvent('SessionEnd') ? { sessionEnd: 'SessionEnd' as HookEvent } : {}),
});

/** The Cursor event a hook of ours sees by default. */
const MAIN_EVENT: Readonly<Record<string, string>> = {
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  UserPromptSubmit: 'beforeSubmitPrompt',
  Stop: 'stop',
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
};

function toolInput(projectDir: string) {
  return (ours: string, input: unknown): unknown => {
    if (!isRecord(input)) return input;
    const { path: filePath, ...rest } = input;
    switch (ours) {
      case 'bash':
        return { command: input.command, cwd: projectDir };
      case 'read_file':
      case 'write_file':
      case 'edit_file':
        return { file_path: absolutePath(filePath, projectDir), ...rest };
      case 'grep':
        return { pattern: input.pattern, path: absolutePath(filePath ?? '.', projectDir) };
      default:
        return input;
    }
  };
}

function encodeInput(
  event: HookEvent,
  input: Readonly<Record<string, unknown>>,
  context: DialectContext,
): Record<string, unknown> {
  const theirEvent =
    context.dialectEvent !== undefined && EVENTS[context.dialectEvent] === event
      ? context.dialectEvent
      : (MAIN_EVENT[event] ?? event);
  const payload: Record<string, unknown> = {
    conversation_id: context.sessionId,
    generation_id: context.turnId ?? `${context.sessionId}-generation`,
    model: context.model ?? 'unknown',
    hook_event_name: theirEvent,
    cursor_version: 'soong-agent',
    workspace_roots: [context.projectDir],
    user_email: null,
    transcript_path: context.transcriptPath,
  };
  if (event === 'PreToolUse' || event === 'PostToolUse') {
    const tool = toolOf(input);
    const mcp = parseMcpToolName(tool.name);
    const names =
      mcp === undefined ? TOOL_NAMES : { ...TOOL_NAMES, [tool.name]: `MCP:${mcp.tool}` };
    const view = viewOf(tool, context, names, toolInput(context.projectDir));
    const fields = isRecord(tool.input) ? tool.input : {};
    const result = event === 'PostToolUse' ? resultText(input) : undefined;
    switch (theirEvent) {
      case 'beforeShellExecution':
      case 'afterShellExecution':
        payload.command = typeof fields.command === 'string' ? fields.command : '';
        payload.cwd = context.projectDir;
        if (theirEvent === 'beforeShellExecution') payload.sandbox = false;
        else payload.output = result?.text ?? '';
        break;
      case 'beforeMCPExecution':
      case 'afterMCPExecution':
        payload.tool_name = mcp?.tool ?? tool.name;
        payload.tool_input = JSON.stringify(tool.input ?? {});
        if (mcp !== undefined) payload.server_name = mcp.server;
        if (theirEvent === 'afterMCPExecution')
          payload.result_json = JSON.stringify({
            content: [{ type: 'text', text: result?.text ?? '' }],
            isError: result?.isError === true,
          });
        break;
      case 'beforeReadFile':
        payload.file_path = absolutePath(fields.path, context.projectDir);
        payload.attachments = [];
        break;
      case 'afterFileEdit':
        payload.file_path = absolutePath(fields.path, context.projectDir);
        payload.edits =
          tool.name === 'write_file'
            ? [
                {
                  old_string: '',
                  new_string: typeof fields.content === 'string' ? fields.content : '',
                },
              ]
            : [{ old_string: fields.old_string ?? '', new_string: fields.new_string ?? '' }];
        break;
      default:
        payload.tool_name = view.name;
        payload.tool_input = view.input;
        payload.tool_use_id = tool.call_id;
        payload.cwd = context.projectDir;
        if (result !== undefined) {
          payload.tool_output = JSON.stringify({ output: result.text, is_error: result.isError });
          payload.duration = typeof input.duration_ms === 'number' ? input.duration_ms : 0;
        }
    }
    return payload;
  }
  switch (event) {
    case 'UserPromptSubmit':
      payload.prompt = stringField(input, 'prompt');
      payload.attachments = [];
      break;
    case 'Stop':
      payload.status = 'completed';
      payload.loop_count = Number(input.prevented_count ?? 0);
      break;
    case 'SessionStart':
      payload.session_id = context.sessionId;
      payload.is_background_agent = false;
      break;
    default:
      if (event === ('SessionEnd' as HookEvent)) {
        payload.session_id = context.sessionId;
        payload.reason = stringField(input, 'reason') || 'completed';
      }
  }
  return payload;
}

function env(context: DialectContext): Record<string, string> {
  return {
    CURSOR_PROJECT_DIR: context.projectDir,
    CURSOR_VERSION: 'soong-agent',
    CURSOR_TRANSCRIPT_PATH: context.transcriptPath,
    CLAUDE_PROJECT_DIR: context.projectDir,
  };
}

const KNOWN = new Set([
  'permission',
  'user_message',
  'agent_message',
  'continue',
  'followup_message',
]);
const KNOWN_WITH_CONTEXT = new Set([...KNOWN, 'additional_context']);

/** Cursor's answer rules onto our decisions. */
function decide(event: HookEvent, run: DialectRun): DialectVerdict {
  const logs: DialectLog[] = [];
  // The deny that ends stdout after a log line stands, Cursor's decision "block" included (which
  // Cursor itself does not document: spec §13.2, a rule here only ever blocks more).
  const answer = answerKeepingDeny(
    run.stdout,
    logs,
    (rescued) => verdictOf(event, rescued, []).decision === 'deny',
  );
  const verdict = depthChecked(verdictOfRun(event, run, answer, logs), answer);
  if (verdict.failure !== undefined && verdict.decision !== 'deny') return verdict;
  // spec §13.1: Cursor gives its model `additional_context` from postToolUse and sessionStart.
  return {
    ...verdict,
    ...contextOf(CONTEXT_EVENTS.has(event) ? textOf(answer.json?.additional_context) : undefined),
  };
}

/** Events whose `additional_context` Cursor gives its model. */
const CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>(['SessionStart', 'PostToolUse']);

function verdictOfRun(
  event: HookEvent,
  run: DialectRun,
  answer: StdoutAnswer,
  logs: DialectLog[],
): DialectVerdict {
  const { json } = answer;
  const stderr = textOf(run.stderrTail);
  if (json !== undefined) {
    const known = CONTEXT_EVENTS.has(event) ? KNOWN_WITH_CONTEXT : KNOWN;
    logs.push(...ignoredKeysWarning('Cursor', unknownKeysOf(json, known)));
  }
  const verdict = json === undefined ? { decision: 'none' as const } : verdictOf(event, json, logs);
  if (run.exitCode === 2) {
    // "matches Claude Code behavior": exit 2 denies; the message is the JSON's, else stderr.
    if (event === 'Stop' && verdict.decision !== 'deny') {
      logs.push({
        source: 'warning',
        message:
          'exit 2 from a stop hook: Cursor continues only through followup_message, so the stop goes through',
      });
      return { decision: 'none', exitCode: 2, logs };
    }
    return { decision: 'deny', ...optionalReason(verdict.reason ?? stderr), exitCode: 2, logs };
  }
  if (run.exitCode !== 0)
    return failedExit(run, logs, verdict.decision === 'deny' ? verdict : undefined);
  return brokenJsonVerdict(run.stdout, answer, logs) ?? { ...verdict, exitCode: 0, logs };
}

/** What one Cursor JSON answer says on `event`; warnings go to `logs`. */
function verdictOf(
  event: HookEvent,
  json: Record<string, unknown>,
  logs: DialectLog[],
): Pick<DialectVerdict, 'decision' | 'reason'> {
  const message = textOf(json.agent_message) ?? textOf(json.user_message);
  const permission = word(json.permission);
  if (typeof json.permission === 'string' && permission !== json.permission) {
    logs.push({
      source: 'warning',
      message: `permission ${JSON.stringify(json.permission)} read as ${JSON.stringify(permission)}`,
    });
  }
  if (event === 'Stop') {
    const followup = textOf(json.followup_message);
    if (followup !== undefined) return { decision: 'deny', reason: followup };
    if (permission === 'deny' || word(json.decision) === 'block') {
      logs.push({
        source: 'warning',
        message:
          'a stop hook answered deny/block: Cursor ignores that on stop (only a non-empty followup_message continues the agent), so the stop goes through here too',
      });
    }
    return { decision: 'none' };
  }
  if (permission === 'deny' || word(json.decision) === 'block' || word(json.decision) === 'deny') {
    return { decision: 'deny', ...optionalReason(message) };
  }
  if (json.continue === false && event === 'UserPromptSubmit') {
    return { decision: 'deny', ...optionalReason(message) };
  }
  if (permission === 'ask') {
    return event === 'PreToolUse'
      ? { decision: 'ask', ...optionalReason(message) }
      : { decision: 'none' };
  }
  if (permission === 'allow') return { decision: 'allow', ...optionalReason(message) };
  if (json.permission !== undefined) {
    logs.push({
      source: 'warning',
      message: `permission ${JSON.stringify(json.permission)} is not one Cursor knows (allow, deny, ask); no decision`,
    });
  }
  return { decision: 'none' };
}

/** Cursor's `preToolUse` tool types → ours. */
export const CURSOR_CATALOG: ToolCatalog = {
  agent: 'Cursor',
  names: {
    Shell: 'bash',
    Read: 'read_file',
    Write: ['write_file', 'edit_file'],
    Grep: 'grep',
    Delete: null,
    Task: null,
    Glob: null,
  },
  isExact: (matcher) => /^[A-Za-z0-9_\-|, ]*$/.test(matcher),
  splitExact: splitNameList,
  mcpName: () => undefined,
  mcpServerOfPrefix: () => undefined,
  mcpProbe: 'MCP:zz9probe',
  invalidRegex: 'reject',
};

/** What each Cursor event becomes here: our event, and a fixed matcher when the event is about one tool. */
const CONVERTED_EVENTS: Readonly<
  Record<
    string,
    { event: string; tools?: string[]; matcher: 'tool' | 'command' | 'none' | 'fixed' }
  >
> = {
  preToolUse: { event: 'PreToolUse', matcher: 'tool' },
  beforeShellExecution: { event: 'PreToolUse', tools: ['bash'], matcher: 'command' },
  beforeReadFile: { event: 'PreToolUse', tools: ['read_file'], matcher: 'none' },
  postToolUse: { event: 'PostToolUse', matcher: 'tool' },
  afterShellExecution: { event: 'PostToolUse', tools: ['bash'], matcher: 'command' },
  afterFileEdit: { event: 'PostToolUse', tools: ['write_file', 'edit_file'], matcher: 'none' },
  beforeSubmitPrompt: { event: 'UserPromptSubmit', matcher: 'fixed' },
  stop: { event: 'Stop', matcher: 'fixed' },
  sessionStart: { event: 'SessionStart', matcher: 'fixed' },
  sessionEnd: { event: 'SessionEnd', matcher: 'fixed' },
};

const UNSUPPORTED: Readonly<Record<string, string>> = {
  beforeMCPExecution:
    'soong-agent matchers cannot say "every MCP tool": write a PreToolUse rule with {"mcp_server": [<your servers>]} or {"tool": ["mcp__<server>__<tool>", …]} and "protocol": "cursor", "dialect_event": "beforeMCPExecution"',
  afterMCPExecution:
    'soong-agent matchers cannot say "every MCP tool": write a PostToolUse rule with {"mcp_server": [<your servers>]} and "protocol": "cursor", "dialect_event": "afterMCPExecution"',
  postToolUseFailure:
    'soong-agent\'s PostToolUseFailure hooks speak no Cursor payload yet: put the hook on PostToolUseFailure as a "soong" or "claude-code" hook',
  subagentStart:
    'soong-agent\'s SubagentStart hooks speak no Cursor payload yet: rewrite it as a "soong" or "claude-code" hook',
  subagentStop:
    'soong-agent\'s SubagentStop hooks speak no Cursor payload yet: rewrite it as a "soong" or "claude-code" hook',
  preCompact:
    'soong-agent\'s PreCompact hooks speak no Cursor payload yet: rewrite it as a "soong" or "claude-code" hook',
  afterAgentResponse: 'soong-agent has no event per assistant message (Stop sees the last one)',
  afterAgentThought: 'soong-agent has no event for thinking blocks',
  beforeTabFileRead: 'Tab completions are an editor feature soong-agent does not have',
  afterTabFileEdit: 'Tab completions are an editor feature soong-agent does not have',
};

const HOOK_KEYS = new Set(['command', 'type', 'matcher', 'timeout', 'failClosed', 'loop_limit']);

/** Cursor's hooks.json (project `.cursor/hooks.json`, user `~/.cursor/hooks.json`, a plugin's). Pure. */
export function convertCursorConfig(text: string, options: ConvertOptions = {}): ConvertResult {
  const conversion = new Conversion(options);
  const file = options.file ?? 'Cursor hooks.json';
  const value = parseConfigJson(text, file);
  if (isRecord(value) && value.version !== undefined && value.version !== 1) {
    conversion.note('version', `${JSON.stringify(value.version)}: this import knows version 1`);
  }
  const hooks = conversion.hooksObjectOf(value, "not a JSON object (Cursor's hooks.json is one)");
  if (hooks === undefined) return conversion.result();
  const names = Object.keys(hooks);
  if (
    names.length > 1 &&
    names.every(
      (name) => !Object.hasOwn(CONVERTED_EVENTS, name) && !Object.hasOwn(UNSUPPORTED, name),
    )
  ) {
    const hint = otherAgentHint(names);
    conversion.refuse(
      'hooks',
      `none of ${names.map((name) => JSON.stringify(name)).join(', ')} is a Cursor event: this is not Cursor's hooks.json${hint === undefined || hint.includes('Cursor') ? ' (Claude Code, Codex and Gemini CLI files use --from claude, codex or gemini)' : ` (${hint})`}`,
    );
    return conversion.result();
  }
  // A user-level file's hooks run in ~/.cursor/; here hooks run in the project dir.
  const userBase =
    options.file !== undefined && options.scope === 'user' ? path.dirname(options.file) : undefined;
  for (const [theirEvent, entries] of Object.entries(hooks)) {
    const eventPath = `hooks.${theirEvent}`;
    const target = CONVERTED_EVENTS[theirEvent];
    if (target === undefined || !hasEvent(target.event)) {
      conversion.refuse(
        eventPath,
        UNSUPPORTED[theirEvent] ??
          (target === undefined
            ? `not a Cursor event (Cursor's events are camelCase: preToolUse, beforeShellExecution, stop, …)`
            : `soong-agent has no ${target.event} event in this version`),
      );
      continue;
    }
    conversion.eachHookEntry(entries, eventPath, (entry, hookPath) => {
      const matchers = entryMatchers(
        theirEvent,
        target,
        entry.matcher,
        `${hookPath}.matcher`,
        conversion,
      );
      if (matchers === false) return;
      const hook = convertEntry(entry, theirEvent, target.event, hookPath, conversion, userBase);
      if (hook !== undefined) conversion.addRules(target.event, matchers, [hook]);
    });
  }
  const result = conversion.result();
  addEnvironmentNote(result, 'Cursor', 'CURSOR_PROJECT_DIR, CLAUDE_PROJECT_DIR');
  return result;
}

function entryMatchers(
  theirEvent: string,
  target: (typeof CONVERTED_EVENTS)[string] & object,
  matcher: unknown,
  matcherPath: string,
  conversion: Conversion,
): (ConvertedMatcher | undefined)[] | false {
  const fixed: ConvertedMatcher | undefined =
    target.tools === undefined ? undefined : { tool: target.tools };
  const none = matcher === undefined || matcher === '' || matcher === '*';
  switch (target.matcher) {
    case 'tool':
      return convertToolMatcher(matcher, matcherPath, CURSOR_CATALOG, conversion);
    case 'command':
      if (!none) {
        conversion.refuse(
          matcherPath,
          `${JSON.stringify(matcher)} is matched against the command text in Cursor; soong-agent matchers cannot look into a command: drop the matcher and let the script test the command`,
        );
        return false;
      }
      return [fixed];
    case 'none':
      if (!none)
        conversion.note(
          matcherPath,
          `${JSON.stringify(matcher)} ignored (${theirEvent} is about ${target.tools?.join(' and ')} only)`,
        );
      return [fixed];
    default:
      if (!none)
        conversion.note(
          matcherPath,
          `${JSON.stringify(matcher)} ignored (soong-agent has no matcher for ${target.event})`,
        );
      return [undefined];
  }
}

function convertEntry(
  entry: Record<string, unknown>,
  theirEvent: string,
  event: string,
  hookPath: string,
  conversion: Conversion,
  userBase: string | undefined,
): ConvertedHook | undefined {
  if (!conversion.commandType(entry.type, `${hookPath}.type`, true)) return undefined;
  const source = conversion.command(entry.command, `${hookPath}.command`);
  if (source === undefined) return undefined;
  let command = source;
  const first = command.trim().split(/\s+/)[0] ?? '';
  if (
    userBase !== undefined &&
    !first.startsWith('/') &&
    !first.startsWith('~') &&
    !first.startsWith('$') &&
    first.includes('/')
  ) {
    // The word is shell text (it may be quoted); the folder is not: quoted on its own.
    // Under the user's home it is written `~/…`, as the other converters keep it.
    const absolute = isBareWord(first)
      ? conversion.homeShellWord(path.resolve(userBase, first))
      : `${conversion.homeShellWord(userBase)}/${first}`;
    command = `${absolute}${command.trim().slice(first.length)}`;
    conversion.note(
      `${hookPath}.command`,
      `${first} is relative to ${conversion.homeDisplay(userBase)} (where Cursor runs user hooks); written with that folder in front, since hooks here run in the project dir`,
    );
  }
  const converted: ConvertedHook = { type: 'command', command, protocol: 'cursor' };
  const name = conversion.nameFor(source);
  if (name !== undefined) converted.name = name;
  if (MAIN_EVENT[event] !== theirEvent) converted.dialect_event = theirEvent;
  const timeout = conversion.timeout(entry.timeout, `${hookPath}.timeout`);
  if (timeout === false) return undefined;
  if (timeout !== undefined) converted.timeout = timeout;
  if (entry.failClosed === true) converted.on_failure = 'deny';
  conversion.noteProjectScript(hookPath, converted);
  if (entry.loop_limit !== undefined) {
    conversion.note(
      `${hookPath}.loop_limit`,
      `${JSON.stringify(entry.loop_limit)}: here one limit covers every Stop hook, [hooks] stop_loop_limit in config.toml (default 5)`,
    );
  }
  conversion.dropUnknownKeys(entry, HOOK_KEYS, hookPath);
  const label = `${hookPath} (${converted.name ?? 'unnamed'})`;
  const lost = observeOnlyNote('Cursor', event);
  if (lost !== undefined) conversion.note(label, lost);
  if (theirEvent === 'beforeReadFile') {
    conversion.note(
      label,
      "Cursor gives this hook the file's content; here it gets the path only (the file is read after the hook allows it)",
    );
  }
  conversion.recordOrigin(converted, hookPath);
  return converted;
}

/** The `cursor` dialect (spec §12). */
export const cursorDialect: Dialect = Object.freeze({
  name: 'cursor',
  // The agent passes the tool input whole, so a content scanner sees it all, as in the agent.
  toolInputBytes: CLAUDE_CODE_TOOL_INPUT_BYTES,
  toolNames: TOOL_NAMES,
  events: EVENTS,
  // Cursor runs postToolUse after a tool that succeeded and postToolUseFailure otherwise.
  failedToolEvent: 'PostToolUseFailure',
  encodeInput,
  env,
  contextEvents: Object.freeze([...CONTEXT_EVENTS]),
  decide,
  convertConfig: convertCursorConfig,
});
