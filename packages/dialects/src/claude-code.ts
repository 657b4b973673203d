import path from 'node:path';
import type { HookEvent, ToolCallInfo } from '@soong-agent/protocol';
import type { ToolResultPayload } from '@soong-agent/protocol/internal';
import { CLAUDE_CODE_OUR_TOOL_NAMES, CLAUDE_CODE_TOOL_NAMES } from './claude-code-names.js';
import { convertClaudeCodeConfig } from './convert/claude.js';
import type {
  Dialect,
  DialectContext,
  DialectLog,
  DialectRun,
  DialectToolView,
  DialectVerdict,
} from './dialect.js';
import {
  answerKeepingDeny,
  CLAUDE_CONTEXT_EVENTS,
  claudeContext,
  depthChecked,
  isRecord,
} from './shared.js';
import { OUR_EVENT_NAMES, ourToolNameIn, theirToolName } from './tool-names.js';

export { CLAUDE_CODE_OUR_TOOL_NAMES, CLAUDE_CODE_TOOL_NAMES };

/**
 * Bytes of a tool input a Claude Code hook gets whole (Claude Code passes `tool_input` whole, and a
 * content scanner must see all of it). Beyond it the hook gets the bounded input, or, by default, the
 * call is denied without running the hook (see the README).
 */
export const CLAUDE_CODE_TOOL_INPUT_BYTES = 1024 * 1024;

/** The Claude Code name of one of our tools (its own name when Claude Code has no such tool). */
export function claudeCodeToolName(name: string): string {
  return theirToolName(CLAUDE_CODE_TOOL_NAMES, name);
}

/** A tool input in Claude Code's fields (spec §7 table); other tools' inputs unchanged. */
export function toClaudeCodeToolInput(name: string, input: unknown, projectDir: string): unknown {
  if (!isRecord(input) || !Object.hasOwn(CLAUDE_CODE_TOOL_NAMES, name)) return input;
  const absolute = (value: unknown) =>
    typeof value === 'string' ? path.resolve(projectDir, value) : value;
  const { path: filePath, ...rest } = input;
  switch (name) {
    case 'bash': {
      const { timeout, ...others } = input;
      return typeof timeout === 'number' ? { ...others, timeout: timeout * 1000 } : others;
    }
    case 'read_file':
    case 'write_file':
      return { file_path: absolute(filePath), ...rest };
    case 'edit_file':
      return { file_path: absolute(filePath), ...rest, replace_all: false };
    case 'grep':
      return { ...rest, path: absolute(filePath ?? '.') };
    default:
      return { ...rest, path: absolute(filePath) };
  }
}

/**
 * How a Claude Code hook sees a call: its name (the host's declared name, else our table), the
 * canonical tool whose input conversion applies (ours of that Claude Code name) and the input (the
 * host's view, in our canonical tool's shape, else the input as given).
 */
export function claudeCodeView(
  name: string,
  input: unknown,
  view: DialectToolView | undefined,
): { name: string; canonical: string; input: unknown } {
  const declared = view?.name;
  if (declared === undefined) {
    return { name: claudeCodeToolName(name), canonical: name, input: view?.input ?? input };
  }
  const canonical = ourToolNameIn(CLAUDE_CODE_OUR_TOOL_NAMES, declared) ?? declared;
  return { name: declared, canonical, input: view?.input ?? input };
}

function encodeInput(
  event: HookEvent,
  fields: Readonly<Record<string, unknown>>,
  context: DialectContext,
): Record<string, unknown> {
  const input: Record<string, unknown> = {
    session_id: context.sessionId,
    transcript_path: context.transcriptPath,
    cwd: context.projectDir,
    hook_event_name: event,
    permission_mode: 'default',
  };
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const tool = fields.tool as ToolCallInfo;
      const seen = claudeCodeView(tool.name, tool.input, context.tool);
      input.tool_name = seen.name;
      input.tool_input = toClaudeCodeToolInput(seen.canonical, seen.input, context.projectDir);
      input.tool_use_id = tool.call_id;
      if (event === 'PostToolUse') {
        input.tool_response = toolResponse(
          seen.canonical,
          seen.input,
          fields.result as ToolResultPayload,
          context.projectDir,
        );
      }
      if (event === 'PostToolUseFailure') {
        input.error = fields.error;
        input.is_interrupt = false;
      }
      // The tool's run time, as Claude Code sends it (v2.1.119) on both events after the call.
      if (event !== 'PreToolUse') input.duration_ms = fields.duration_ms;
      break;
    }
    case 'PreCompact':
      input.trigger = fields.trigger;
      input.custom_instructions = fields.custom_instructions;
      break;
    case 'SubagentStart':
      input.agent_id = fields.agent_id;
      input.agent_type = fields.agent_type;
      break;
    case 'SubagentStop':
      input.stop_hook_active = fields.stop_hook_active;
      input.agent_id = fields.agent_id;
      input.agent_type = fields.agent_type;
      if (fields.agent_transcript_path !== undefined)
        input.agent_transcript_path = fields.agent_transcript_path;
      input.last_assistant_message = fields.last_assistant_message;
      break;
    case 'UserPromptSubmit':
      input.prompt = fields.prompt;
      break;
    case 'Stop':
      input.stop_hook_active = Number(fields.prevented_count ?? 0) > 0;
      input.last_assistant_message = fields.last_assistant_message ?? '';
      break;
    case 'SessionStart':
      input.source = fields.source ?? 'startup';
      break;
    case 'SessionEnd':
      input.reason = fields.reason;
      break;
    case 'Notification':
      input.message = fields.message;
      input.notification_type = fields.kind === 'idle' ? 'idle_prompt' : fields.kind;
      break;
  }
  return input;
}

function toolResponse(
  name: string,
  toolInput: unknown,
  result: ToolResultPayload,
  projectDir: string,
): Record<string, unknown> {
  const text =
    'content' in result
      ? result.content
      : `${result.summary}\n[full result (${result.bytes} bytes): ${result.artifact_ref.path}]`;
  switch (name) {
    case 'bash':
      return { stdout: text, stderr: '', interrupted: false, isImage: false };
    case 'read_file':
    case 'write_file':
    case 'edit_file': {
      const input = isRecord(toolInput) ? toolInput : {};
      const filePath =
        typeof input.path === 'string' ? path.resolve(projectDir, input.path) : undefined;
      const content =
        name === 'read_file'
          ? text
          : name === 'write_file' && typeof input.content === 'string'
            ? input.content
            : undefined;
      return {
        ...(filePath === undefined ? {} : { filePath }),
        ...(content === undefined ? {} : { content }),
        success: !result.is_error,
      };
    }
    default:
      return { content: text, is_error: result.is_error };
  }
}

// Output keys a Claude Code hook may print that decide something here; every other key is
// reported once per run as ignored (spec §7: no patching, no messages), except the context the
// engine delivers or drops (spec §13.1).
const DECIDING_KEYS = new Set([
  'continue',
  'stopReason',
  'decision',
  'reason',
  'permissionDecision',
]);
const DECIDING_SPECIFIC_KEYS = new Set([
  'hookEventName',
  'permissionDecision',
  'permissionDecisionReason',
]);

type Verdict = { decision: DialectVerdict['decision']; reason?: string | undefined };

/**
 * What one run of a `"protocol": "claude-code"` hook means (spec §7 output table). An intended
 * deny is never lost: a deny or block in any spelling (`"Deny"`, `"Block"`, soong's `"deny"`),
 * `continue` as the string `"false"`, stand with a warning; a value we do not know is a warning,
 * never a silent allow.
 */
function decide(event: HookEvent, run: DialectRun): DialectVerdict {
  const logs: DialectLog[] = [];
  // Claude Code reads stdout that is not one JSON object as plain text; here a deny that ends it
  // (after a log line) still stands (spec §13.2).
  const answer = answerKeepingDeny(
    run.stdout,
    logs,
    (rescued) => verdictOf(rescued, event, () => {}).decision === 'deny',
    { why: ' (Claude Code reads stdout as one JSON object, else as plain text)' },
  );
  const verdict = depthChecked(
    verdictOfRun(event, run, answer.json, logs, answer.whole === true),
    answer,
  );
  return { ...verdict, ...claudeContext(event, run, answer.json, verdict) };
}

function verdictOfRun(
  event: HookEvent,
  run: DialectRun,
  json: Record<string, unknown> | undefined,
  logs: DialectLog[],
  whole: boolean,
): DialectVerdict {
  const warn = (message: string) => logs.push({ source: 'warning', message });
  const verdict = json === undefined ? { decision: 'none' as const } : verdictOf(json, event, warn);
  if (json !== undefined) {
    const ignored = ignoredKeys(json, event);
    if (ignored.length > 0) {
      warn(
        `Claude Code output keys ignored: ${ignored.map((key) => JSON.stringify(key)).join(', ')} (hooks here can block, allow or add context, never patch input or show messages)`,
      );
    }
    if (continueFalse(json.continue) && event !== 'PreToolUse') {
      const stopReason = typeof json.stopReason === 'string' ? `: ${json.stopReason}` : '';
      warn(
        event === 'Stop'
          ? `continue: false${stopReason}; the stop goes through`
          : `continue: false${stopReason}; recorded, the session goes on (hooks here cannot end it)`,
      );
    }
  }

  if (run.exitCode === 2) {
    // spec §7: exit 2 blocks with stderr as the reason (else the JSON reason).
    const stderr = run.stderrTail.trim();
    const reason = nonEmpty(stderr !== '' ? stderr : jsonReason(json));
    return { decision: 'deny', ...optional(reason), exitCode: 2, logs };
  }
  if (run.exitCode !== 0 && run.exitCode !== null && whole) {
    // Claude Code (current rules, spec §13.2): a valid JSON object on stdout decides whatever the
    // exit code other than 2; the code is not a failure then (exit 1 + a deny blocks).
    warn(
      `exit code ${run.exitCode} ignored: stdout is one JSON object, which decides (as in Claude Code)`,
    );
    return {
      decision: verdict.decision,
      ...optional(nonEmpty(verdict.reason)),
      exitCode: run.exitCode,
      logs,
    };
  }
  if (run.exitCode !== 0) {
    const message =
      run.exitCode === null
        ? `hook was killed by ${run.signal ?? 'a signal'}`
        : `hook exited with code ${run.exitCode}`;
    // spec §2.2: an intended deny on stdout stands even when the hook then failed.
    const deny = verdict.decision === 'deny';
    return {
      decision: deny ? 'deny' : 'none',
      ...(deny ? optional(nonEmpty(verdict.reason)) : {}),
      failure: { kind: 'exit_code', message },
      logs,
    };
  }
  return {
    decision: verdict.decision,
    ...optional(nonEmpty(verdict.reason)),
    exitCode: 0,
    logs,
  };
}

// Claude Code's words, lower-cased; a value in another case counts, with a warning.
const PERMISSION_WORDS = new Set(['allow', 'deny', 'ask', 'defer']);

function verdictOf(
  json: Record<string, unknown>,
  event: HookEvent,
  warn: (message: string) => void,
): Verdict {
  const specific = isRecord(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const stopReason = typeof json.stopReason === 'string' ? json.stopReason : undefined;
  const reason = typeof json.reason === 'string' ? json.reason : undefined;
  // continue: false takes precedence over any decision (Claude Code); here it can only block a
  // tool call, and on Stop it means the loop ends.
  if (json.continue !== undefined && typeof json.continue !== 'boolean') {
    warn(
      continueFalse(json.continue)
        ? `"continue" is ${JSON.stringify(json.continue)}, not the boolean false: read as false`
        : `"continue" is ${JSON.stringify(json.continue)}, not a boolean: ignored`,
    );
  }
  if (continueFalse(json.continue)) {
    if (event === 'PreToolUse') return { decision: 'deny', reason: stopReason ?? reason };
    if (event === 'Stop') return { decision: 'none', reason: stopReason };
  }
  const rawPermission =
    event === 'PreToolUse' ? (specific.permissionDecision ?? json.permissionDecision) : undefined;
  const permission = word(rawPermission, 'permissionDecision', PERMISSION_WORDS, warn);
  const permissionReason =
    typeof specific.permissionDecisionReason === 'string'
      ? specific.permissionDecisionReason
      : reason;
  const decision = decisionWord(json.decision, warn);
  // A deny from any field wins: an ignored or contradicting key never turns a deny into an allow.
  if (permission === 'deny') return { decision: 'deny', reason: permissionReason };
  if (decision === 'block') return { decision: 'deny', reason };
  if (permission === 'ask') return { decision: 'ask', reason: permissionReason };
  if (permission === 'allow' || decision === 'approve') {
    return { decision: 'allow', reason: permission === 'allow' ? permissionReason : reason };
  }
  return { decision: 'none' };
}

function word(
  value: unknown,
  key: string,
  known: ReadonlySet<string>,
  warn: (message: string) => void,
): string | undefined {
  if (value === undefined) return undefined;
  const lower = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (lower !== undefined && known.has(lower)) {
    if (value !== lower) warn(`"${key}" is ${JSON.stringify(value)}: read as "${lower}"`);
    return lower;
  }
  warn(
    `"${key}" is ${JSON.stringify(value)}, which Claude Code does not know (${[...known].map((w) => `"${w}"`).join(', ')}): no decision from it`,
  );
  return undefined;
}

function decisionWord(value: unknown, warn: (message: string) => void): string | undefined {
  if (typeof value === 'string' && value.trim().toLowerCase() === 'deny') {
    warn(
      `"decision" is ${JSON.stringify(value)}, soong's word; Claude Code's is "block": the deny stands`,
    );
    return 'block';
  }
  return word(value, 'decision', DECISION_WORDS, warn);
}
const DECISION_WORDS = new Set(['block', 'approve']);

function continueFalse(value: unknown): boolean {
  return value === false || (typeof value === 'string' && value.trim().toLowerCase() === 'false');
}

function ignoredKeys(json: Record<string, unknown>, event: HookEvent): string[] {
  const ignored: string[] = [];
  for (const key of Object.keys(json)) {
    if (key === 'hookSpecificOutput' && isRecord(json.hookSpecificOutput)) {
      for (const inner of Object.keys(json.hookSpecificOutput)) {
        const decides = event === 'PreToolUse' && DECIDING_SPECIFIC_KEYS.has(inner);
        const context = inner === 'additionalContext' && CLAUDE_CONTEXT_EVENTS.has(event);
        if (!decides && !context && inner !== 'hookEventName')
          ignored.push(`hookSpecificOutput.${inner}`);
      }
    } else if (
      !DECIDING_KEYS.has(key) ||
      (key === 'permissionDecision' && event !== 'PreToolUse')
    ) {
      ignored.push(key);
    }
  }
  return ignored;
}

function jsonReason(json: Record<string, unknown> | undefined): string | undefined {
  if (json === undefined) return undefined;
  if (typeof json.reason === 'string') return json.reason;
  const specific = isRecord(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  return typeof specific.permissionDecisionReason === 'string'
    ? specific.permissionDecisionReason
    : undefined;
}

function nonEmpty(reason: string | undefined): string | undefined {
  return reason === undefined || reason === '' ? undefined : reason;
}

function optional(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason };
}

/**
 * The variables Claude Code sets for its hooks: `CLAUDE_PROJECT_DIR` and (spec §13.2)
 * `CLAUDE_CODE_SESSION_ID`.
 */
export function claudeCodeEnv(context: DialectContext): Record<string, string> {
  return { CLAUDE_PROJECT_DIR: context.projectDir, CLAUDE_CODE_SESSION_ID: context.sessionId };
}

/** Claude Code's command-hook protocol (spec §7). */
export const claudeCodeDialect: Dialect = Object.freeze({
  name: 'claude-code',
  toolNames: CLAUDE_CODE_TOOL_NAMES,
  ourToolNames: CLAUDE_CODE_OUR_TOOL_NAMES,
  events: OUR_EVENT_NAMES,
  toolInputBytes: CLAUDE_CODE_TOOL_INPUT_BYTES,
  contextEvents: Object.freeze([...CLAUDE_CONTEXT_EVENTS]),
  failedToolEvent: 'PostToolUseFailure',
  encodeInput,
  env: claudeCodeEnv,
  decide,
  convertConfig: convertClaudeCodeConfig,
});
