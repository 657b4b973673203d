import path from 'node:path';
import type { HookEvent, ToolCallInfo, ToolResultPayload } from '@soong-agent/protocol';
import {
  boundReason,
  type DecideHookRunInput,
  decideHookRun,
  exitedOf,
  HOOK_LOG_LINE_BYTES,
  type HookRunDecision,
  type HookRunRecord,
  type HookRunResult,
  settleHookRun,
  stderrLog,
} from './decide-hook-run.js';
import type { ToolDialectView } from './hook-engine.js';
import { roundMs } from './round-ms.js';
import { summarizeText } from './summarize-text.js';

/**
 * Our built-in tool names and the Claude Code tool names a `"protocol": "claude-code"` hook sees
 * instead (SPEC §7); any other tool keeps its own name. Frozen.
 */
export const CLAUDE_CODE_TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  bash: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  grep: 'Grep',
  list_dir: 'LS',
});

/** What {@link toClaudeCodeInput} needs besides the event's fields. */
export interface ClaudeCodeInputContext {
  /** The session id. */
  sessionId: string;
  /** The absolute project dir: `cwd`, and the base of relative tool paths. */
  projectDir: string;
  /** `<home>/sessions/<id>/transcript.jsonl`. */
  transcriptPath: string;
  /** How this dialect sees a host-named tool (from `ToolDefinition.dialectName` / `dialectInput`). @default undefined */
  dialect?: ToolDialectView;
}

/** The dialect name of Claude Code in `ToolDefinition.dialectName`. */
const DIALECT = 'claude-code';

/**
 * The stdin of a Claude Code hook (SPEC §7): Claude Code's field names, tool names and tool input
 * fields (paths absolute, bash timeout in milliseconds), built from the fields of our input
 * (`tool` already bounded, `result`, `prompt`, `prevented_count`, …).
 */
export function toClaudeCodeInput(
  event: HookEvent,
  fields: Readonly<Record<string, unknown>>,
  context: ClaudeCodeInputContext,
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
    case 'PostToolUse': {
      const tool = fields.tool as ToolCallInfo;
      const seen = claudeCodeView(tool.name, tool.input, context.dialect);
      input.tool_name = seen.name;
      input.tool_input = toClaudeCodeToolInput(seen.canonical, seen.input, context.projectDir);
      input.tool_use_id = tool.call_id;
      if (event === 'PostToolUse') {
        input.tool_response = toClaudeCodeToolResponse(
          { ...tool, name: seen.canonical, input: (seen.input ?? {}) as ToolCallInfo['input'] },
          fields.result as ToolResultPayload,
          context.projectDir,
        );
      }
      break;
    }
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

/**
 * How a Claude Code hook sees a call: its name (the host's `dialectName["claude-code"]`, else our
 * table), the canonical tool whose input conversion applies (ours of that Claude Code name) and the
 * input (the host's `dialectInput` view, else the input as given).
 */
export function claudeCodeView(
  name: string,
  input: unknown,
  view: ToolDialectView | undefined,
): { name: string; canonical: string; input: unknown } {
  const declared = view?.names?.[DIALECT];
  const seenName = declared ?? claudeCodeToolName(name);
  const canonical =
    declared === undefined ? name : (canonicalOfClaudeCodeName(declared) ?? declared);
  return { name: seenName, canonical, input: view?.input ?? input };
}

function canonicalOfClaudeCodeName(claudeName: string): string | undefined {
  for (const [ours, theirs] of Object.entries(CLAUDE_CODE_TOOL_NAMES)) {
    if (theirs === claudeName) return ours;
  }
  return undefined;
}

/** The Claude Code name of one of our tools (its own name when Claude Code has no such tool). */
export function claudeCodeToolName(name: string): string {
  return Object.hasOwn(CLAUDE_CODE_TOOL_NAMES, name)
    ? (CLAUDE_CODE_TOOL_NAMES[name] as string)
    : name;
}

/** A tool input in Claude Code's fields (SPEC §7 table); other tools' inputs unchanged. */
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

function toClaudeCodeToolResponse(
  tool: ToolCallInfo,
  result: ToolResultPayload,
  projectDir: string,
): Record<string, unknown> {
  const text =
    'content' in result
      ? result.content
      : `${result.summary}\n[full result (${result.bytes} bytes): ${result.artifact_ref.path}]`;
  switch (tool.name) {
    case 'bash':
      return { stdout: text, stderr: '', interrupted: false, isImage: false };
    case 'read_file':
    case 'write_file':
    case 'edit_file': {
      const input = isRecord(tool.input) ? tool.input : {};
      const filePath =
        typeof input.path === 'string' ? path.resolve(projectDir, input.path) : undefined;
      const content =
        tool.name === 'read_file'
          ? text
          : tool.name === 'write_file' && typeof input.content === 'string'
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
// reported once per run as ignored (SPEC §7: no patching, no context, no messages in v1).
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

type Verdict =
  | { decision: 'deny'; reason: string | undefined }
  | { decision: 'allow' | 'none'; reason?: string | undefined }
  | { decision: 'ask'; reason: string | undefined };

/**
 * Decides what one run of a `"protocol": "claude-code"` hook means (SPEC §7 output table) and which
 * records say so. Pure, like {@link decideHookRun}, whose failure handling (never started,
 * cancelled, timed out, too much output) and `on_failure` rule it shares.
 */
export function decideClaudeCodeRun(input: DecideHookRunInput): HookRunDecision {
  const { hook, event, ran } = input;
  if (
    !('result' in ran) ||
    ran.result.aborted ||
    ran.result.timedOut ||
    ran.result.stdoutLimitExceeded
  ) {
    return decideHookRun(input);
  }
  const { result } = ran;
  const records: HookRunRecord[] = [];
  if (result.stderrBytes > 0) {
    records.push({ type: 'hook_log', source: 'stderr', message: stderrLog(result) });
  }
  const durationMs = roundMs(result.durationMs);
  const exited = exitedOf(result);
  const json = parseJsonObject(result.stdout);
  if (json === undefined && result.stdout.trim() !== '') {
    const half = HOOK_LOG_LINE_BYTES / 2;
    records.push({
      type: 'hook_log',
      source: 'logs',
      message: summarizeText(result.stdout.trim(), { headBytes: half, tailBytes: half }),
    });
  }
  const verdict = json === undefined ? { decision: 'none' as const } : verdictOf(json, event);
  if (json !== undefined) {
    const ignored = ignoredKeys(json, event);
    if (ignored.length > 0) {
      records.push({
        type: 'hook_log',
        source: 'warning',
        message: `Claude Code output keys ignored: ${ignored.map((key) => JSON.stringify(key)).join(', ')} (hooks here can block or allow, never patch input, add context or show messages)`,
      });
    }
    if (json.continue === false && event !== 'PreToolUse') {
      const stopReason = typeof json.stopReason === 'string' ? `: ${json.stopReason}` : '';
      records.push({
        type: 'hook_log',
        source: 'warning',
        message:
          event === 'Stop'
            ? `continue: false${stopReason}; the stop goes through`
            : `continue: false${stopReason}; recorded, the session goes on (hooks here cannot end it)`,
      });
    }
  }
  const base = { hookId: hook.id, ...exited, durationMs };
  const bounded = (reason: string | undefined) =>
    reason === undefined || reason === '' ? undefined : boundReason(reason);

  if (result.exitCode === 2) {
    // SPEC §7: exit 2 blocks with stderr as the reason (else the JSON reason); on observe-only
    // events the deny is recorded as hook_decision_ignored.
    const stderr = result.stderrTail.trim();
    const reason = bounded(stderr !== '' ? stderr : jsonReason(json));
    return finish(input, records, base, { decision: 'deny', reason }, 2);
  }
  if (result.exitCode !== 0) {
    const message =
      result.exitCode === null
        ? `hook was killed by ${result.signal ?? 'a signal'}`
        : `hook exited with code ${result.exitCode}`;
    records.push({
      type: 'hook_failed',
      failure: 'exit_code',
      message,
      exit_code: result.exitCode,
      signal: result.signal,
      on_failure: hook.onFailure,
      duration_ms: durationMs,
    });
    const failed: HookRunResult = {
      ...base,
      status: 'failed',
      decision: 'none',
      failure: 'exit_code',
      failureMessage: message,
    };
    // SPEC §2.2: an intended deny on stdout stands even when the hook then failed.
    const deny =
      verdict.decision === 'deny'
        ? { decision: 'deny' as const, reason: bounded(verdict.reason) }
        : undefined;
    return settleHookRun(
      input,
      {
        result:
          deny === undefined
            ? failed
            : { ...failed, ...deny, ...reasonOrDefault(hook.id, deny.reason) },
        reportedUnknownKeys: false,
      },
      records,
    );
  }
  return finish(input, records, base, { ...verdict, reason: bounded(verdict.reason) }, 0);
}

function finish(
  input: DecideHookRunInput,
  records: HookRunRecord[],
  base: Omit<HookRunResult, 'status' | 'decision'>,
  verdict: Verdict,
  exitCode: number,
): HookRunDecision {
  const ask = verdict.decision === 'ask' && input.event === 'PreToolUse';
  const decision = verdict.decision === 'ask' ? 'none' : verdict.decision;
  const reason =
    decision === 'deny' ? reasonOrDefault(input.hook.id, verdict.reason) : optional(verdict.reason);
  records.push({
    type: 'hook_finished',
    decision,
    ...reason,
    ...(ask ? { permission_decision: 'ask' as const } : {}),
    duration_ms: base.durationMs,
    exit_code: exitCode,
  });
  const result: HookRunResult = {
    ...base,
    status: 'finished',
    decision,
    ...reason,
    ...(ask ? { ask: true } : {}),
  };
  return settleHookRun(input, { result, reportedUnknownKeys: false }, records);
}

function verdictOf(json: Record<string, unknown>, event: HookEvent): Verdict {
  const specific = isRecord(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const stopReason = typeof json.stopReason === 'string' ? json.stopReason : undefined;
  const reason = typeof json.reason === 'string' ? json.reason : undefined;
  // continue: false takes precedence over any decision (Claude Code); here it can only block a
  // tool call, and on Stop it means the loop ends.
  if (json.continue === false) {
    if (event === 'PreToolUse') return { decision: 'deny', reason: stopReason ?? reason };
    if (event === 'Stop') return { decision: 'none', reason: stopReason };
  }
  const permission =
    event === 'PreToolUse' ? (specific.permissionDecision ?? json.permissionDecision) : undefined;
  const permissionReason =
    typeof specific.permissionDecisionReason === 'string'
      ? specific.permissionDecisionReason
      : reason;
  // A deny from any field wins: an ignored or contradicting key never turns a deny into an allow.
  if (permission === 'deny') return { decision: 'deny', reason: permissionReason };
  if (json.decision === 'block') return { decision: 'deny', reason };
  if (permission === 'ask') return { decision: 'ask', reason: permissionReason };
  if (permission === 'allow' || json.decision === 'approve') {
    return { decision: 'allow', reason: permission === 'allow' ? permissionReason : reason };
  }
  return { decision: 'none' };
}

function ignoredKeys(json: Record<string, unknown>, event: HookEvent): string[] {
  const ignored: string[] = [];
  for (const key of Object.keys(json)) {
    if (key === 'hookSpecificOutput' && isRecord(json.hookSpecificOutput)) {
      for (const inner of Object.keys(json.hookSpecificOutput)) {
        const decides = event === 'PreToolUse' && DECIDING_SPECIFIC_KEYS.has(inner);
        if (!decides && inner !== 'hookEventName') ignored.push(`hookSpecificOutput.${inner}`);
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

// Claude Code parses stdout as JSON when its first non-blank character is `{`; anything else (and
// a `{` that does not parse) is plain text.
function parseJsonObject(stdout: string): Record<string, unknown> | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function reasonOrDefault(hookId: string, reason: string | undefined): { reason: string } {
  return { reason: reason ?? `denied by hook ${hookId}` };
}

function optional(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
