import { z } from 'zod';
import { ArtifactRefSchema, HookEventSchema, isoTimestamp } from './hook-input.js';
import { parseOrThrow } from './protocol-error.js';
import { RiskClassSchema } from './risk-class.js';

/** Every session event record type (spec §5), pinned by a test. */
export const EVENT_RECORD_TYPES = [
  'session_started',
  'config_loaded',
  'user_prompt_submitted',
  'model_turn',
  'tool_started',
  'tool_finished',
  'tool_denied',
  'permission_denied',
  'tool_skipped',
  'hook_started',
  'hook_finished',
  'hook_failed',
  'hook_log',
  'hook_denied',
  'hook_decision_ignored',
  'stop_hook_prevented',
  'stop_hook_limit_reached',
  'loop_ended',
  'worker_started',
  'worker_stopped',
  'hook_context_added',
] as const;
/** A session event record type. */
export type EventRecordType = (typeof EVENT_RECORD_TYPES)[number];

/** Why a hook counts as failed (spec §2.2), pinned by a test. */
export const HOOK_FAILURE_KINDS = [
  'exit_code',
  'timeout',
  'protocol_error',
  'output_too_large',
  'cwd_invalid',
  'spawn_error',
  'aborted',
  'worker_exited',
  'helper_failed',
] as const;
/** Why a hook counts as failed. */
export type HookFailureKind = (typeof HOOK_FAILURE_KINDS)[number];

/** Why a loop ended (`loop_ended.reason`). */
export const LOOP_END_REASONS = ['completed', 'max_turns', 'error', 'aborted'] as const;
/** Why a loop ended. */
export type LoopEndReason = (typeof LOOP_END_REASONS)[number];

/** Why a worker hook's process was stopped (`worker_stopped.reason`, spec §8), pinned by a test. */
export const WORKER_STOP_REASONS = [
  'session_end',
  'timeout',
  'exited',
  'protocol_error',
  'output_too_large',
  'aborted',
] as const;
/** Why a worker hook's process was stopped. */
export type WorkerStopReason = (typeof WORKER_STOP_REASONS)[number];

const nonEmpty = z.string().min(1);
const count = z.number().int().nonnegative();
const durationMs = z.number().nonnegative();

function record<T extends EventRecordType, S extends z.core.$ZodLooseShape>(type: T, shape: S) {
  return z.looseObject({
    seq: z.number().int().min(1).describe('Position in the log: starts at 1, no gaps.'),
    ts: isoTimestamp.describe('When the record was written (ISO 8601).'),
    session_id: nonEmpty,
    type: z.literal(type),
    ...shape,
  });
}

const hookFields = { hook_id: nonEmpty, event: HookEventSchema };
const toolFields = { call_id: nonEmpty, tool: nonEmpty };

/** `session_started`: the session began. */
export const SessionStartedRecordSchema = record('session_started', {
  source: z.enum(['startup', 'resume']),
  project_dir: nonEmpty,
  agent_home: nonEmpty,
});

/** `config_loaded`: the configuration snapshot this session uses. */
export const ConfigLoadedRecordSchema = record('config_loaded', {
  hooks_enabled: z.boolean().describe('False when `hooks.enabled = false` or `--no-hooks`.'),
  hooks_fingerprint: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits (sha256)')
    .nullable()
    .describe(
      'Lowercase hex sha256 of the hooks.json bytes; `null` when there is none or hooks are disabled.',
    ),
  rules: count.describe('Number of rules loaded.'),
  warnings: z
    .array(z.union([z.string(), z.looseObject({ message: z.string() })]))
    .describe('Configuration warnings: plain strings or objects with at least a `message`.'),
});

/** `user_prompt_submitted`: a user prompt (bounded). */
export const UserPromptSubmittedRecordSchema = record('user_prompt_submitted', {
  prompt: z.string(),
});

/** `model_turn`: one model call and its answer. */
export const ModelTurnRecordSchema = record('model_turn', {
  turn: count.describe('0-based turn number.'),
  request_tail: z
    .looseObject({ role: z.enum(['user', 'tool', 'assistant']), text: z.string() })
    .describe('The last message sent to the model (text bounded).'),
  text: z.string().describe("The model's text (bounded)."),
  tool_calls: count.describe('Number of tool calls in the answer.'),
});

/** `tool_started`: a tool call entered processing. */
export const ToolStartedRecordSchema = record('tool_started', {
  ...toolFields,
  input: z.unknown().describe("The call's input, bounded like the hook input."),
  risk: RiskClassSchema,
});

/** `tool_finished`: a tool call ran (artifact written first when the result was large). */
export const ToolFinishedRecordSchema = record('tool_finished', {
  ...toolFields,
  is_error: z.boolean(),
  bytes: count,
  artifact_ref: ArtifactRefSchema.optional(),
  duration_ms: durationMs.optional().describe('How long the tool ran, in milliseconds.'),
  error_text: z
    .string()
    .optional()
    .describe(
      'When `is_error`: the head of the result, at most 1 KiB (UTF-8), so a failed call can be understood from the log.',
    ),
});

/** `tool_denied`: a tool call was not run, because of a hook or the permission callback. */
export const ToolDeniedRecordSchema = record('tool_denied', {
  ...toolFields,
  source: z.enum(['hook', 'permission']),
  reason: z.string(),
  hook_id: nonEmpty.optional(),
});

/** `permission_denied`: the permission callback refused a tool call. */
export const PermissionDeniedRecordSchema = record('permission_denied', {
  ...toolFields,
  reason: z.string(),
});

/** `tool_skipped`: a tool call was not run because an earlier call of the turn was denied. */
export const ToolSkippedRecordSchema = record('tool_skipped', {
  ...toolFields,
  denied_call_id: nonEmpty.describe('The call whose denial halted the batch.'),
});

/** `hook_started`: a hook command was started. */
export const HookStartedRecordSchema = record('hook_started', {
  ...hookFields,
  command: z.string(),
});

/** `hook_finished`: a hook produced a decision, or none. */
export const HookFinishedRecordSchema = record('hook_finished', {
  ...hookFields,
  decision: z.enum(['allow', 'deny', 'none']),
  reason: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  /**
   * `"ask"`: a `"protocol": "claude-code"` hook answered `permissionDecision: "ask"` on PreToolUse
   * (spec §7); `decision` is `none` and the permission prompt is shown whatever the risk class.
   */
  permission_decision: z.literal('ask').optional(),
  duration_ms: durationMs,
  /** 0; 2 when a Claude Code hook blocked with exit 2 (spec §7). */
  exit_code: z.number().int(),
});

/** `hook_failed`: a hook failed (spec §2.2); ignored unless its `on_failure` is `deny`. */
export const HookFailedRecordSchema = record('hook_failed', {
  ...hookFields,
  failure: z.enum(HOOK_FAILURE_KINDS),
  message: z.string(),
  exit_code: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('Exit code, when the process exited (`null` or absent otherwise).'),
  signal: z
    .string()
    .nullable()
    .optional()
    .describe('Signal that ended the process, e.g. `SIGKILL` (`null` or absent otherwise).'),
  on_failure: z.enum(['ignore', 'deny']),
  duration_ms: durationMs,
});

/**
 * `hook_log`: a hook's stderr tail, a `logs` line, or a protocol warning about the hook. A byte of
 * the hook's output that is not UTF-8 appears in `message` (as in a `reason`) as the four
 * characters `\xHH`, never as U+FFFD: the record stays valid UTF-8 JSON and loses no byte.
 */
export const HookLogRecordSchema = record('hook_log', {
  ...hookFields,
  source: z.enum(['stderr', 'logs', 'warning']),
  message: z.string(),
});

/** `hook_denied`: a hook's deny stands. */
export const HookDeniedRecordSchema = record('hook_denied', {
  ...hookFields,
  reason: z.string(),
  call_id: nonEmpty.optional(),
});

/** `hook_decision_ignored`: a deny from an observe-only event (it changes nothing). */
export const HookDecisionIgnoredRecordSchema = record('hook_decision_ignored', {
  ...hookFields,
  reason: z.string().optional(),
});

/** `stop_hook_prevented`: a Stop hook prevented the loop from ending. */
export const StopHookPreventedRecordSchema = record('stop_hook_prevented', {
  hook_id: nonEmpty,
  event: z.literal('Stop'),
  reason: z.string(),
  prevented_count: z
    .number()
    .int()
    .min(1)
    .describe('Stop denials in this loop, this one included.'),
});

/** `stop_hook_limit_reached`: `stop_loop_limit` was reached; the stop went through without Stop hooks. */
export const StopHookLimitReachedRecordSchema = record('stop_hook_limit_reached', {
  limit: z.number().int().min(1),
  prevented_count: count,
});

/** `loop_ended`: the handling of one user prompt ended. */
export const LoopEndedRecordSchema = record('loop_ended', {
  reason: z.enum(LOOP_END_REASONS),
  message: z
    .string()
    .optional()
    .describe(
      'Why, in words, when the host knows more than the reason (e.g. how a server exited).',
    ),
});

/** `worker_started`: the process of a worker hook (`"mode": "worker"`, spec §8) was started. */
export const WorkerStartedRecordSchema = record('worker_started', {
  ...hookFields,
  pid: z.number().int().min(1).describe("The worker's pid (its process group id)."),
});

/** `worker_stopped`: the process of a worker hook ended or was stopped (spec §8). */
export const WorkerStoppedRecordSchema = record('worker_stopped', {
  ...hookFields,
  reason: z.enum(WORKER_STOP_REASONS),
  exit_code: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('Exit code, when the process exited (`null` or absent otherwise).'),
  signal: z
    .string()
    .nullable()
    .optional()
    .describe('Signal that ended the process, e.g. `SIGKILL` (`null` or absent otherwise).'),
});

/**
 * `hook_context_added` (spec §13.1): context a hook added became a hook-context node for the
 * model's next request (`[hooks] deliver_context = true`). Written after the hook run's records.
 */
export const HookContextAddedRecordSchema = record('hook_context_added', {
  ...hookFields,
  bytes: count.describe('Bytes (UTF-8) of the context the hook gave, before any bounding.'),
  artifact_ref: ArtifactRefSchema.optional().describe(
    'Where the full context was stored when it was over `hooks.inline_result_bytes` (the model then gets its summary and this path).',
  ),
  call_id: nonEmpty.optional().describe('The tool call, on PreToolUse and PostToolUse.'),
  text: z
    .string()
    .optional()
    .describe('What the model is given: the context, or its summary and the artifact path.'),
});

/**
 * One line of a session's `events.jsonl`, discriminated on `type`. Every record has `seq`, `ts`,
 * `session_id` and `type`; extra keys are allowed and kept.
 */
export const EventRecordSchema = z
  .discriminatedUnion('type', [
    SessionStartedRecordSchema,
    ConfigLoadedRecordSchema,
    UserPromptSubmittedRecordSchema,
    ModelTurnRecordSchema,
    ToolStartedRecordSchema,
    ToolFinishedRecordSchema,
    ToolDeniedRecordSchema,
    PermissionDeniedRecordSchema,
    ToolSkippedRecordSchema,
    HookStartedRecordSchema,
    HookFinishedRecordSchema,
    HookFailedRecordSchema,
    HookLogRecordSchema,
    HookDeniedRecordSchema,
    HookDecisionIgnoredRecordSchema,
    StopHookPreventedRecordSchema,
    StopHookLimitReachedRecordSchema,
    LoopEndedRecordSchema,
    WorkerStartedRecordSchema,
    WorkerStoppedRecordSchema,
    HookContextAddedRecordSchema,
  ])
  .meta({
    title: 'EventRecord',
    description:
      'One line of a soong-agent session log (events.jsonl), discriminated on `type`. Records may carry more keys than listed.',
  });
/** A session event record. */
export type EventRecord = z.infer<typeof EventRecordSchema>;
/** The record of one type, e.g. `EventRecordOf<'hook_failed'>`. */
export type EventRecordOf<T extends EventRecordType> = Extract<EventRecord, { type: T }>;

type KnownKeys<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

/**
 * A record without `seq`, `ts` and `session_id`: what a caller passes to an event sink, which adds
 * them. Discriminated on `type`; extra keys are allowed.
 */
export type EventRecordBody = {
  [T in EventRecordType]: Omit<KnownKeys<EventRecordOf<T>>, 'seq' | 'ts' | 'session_id'> & {
    [key: string]: unknown;
  };
}[EventRecordType];

/**
 * The known fields of one record type without `seq`, `ts` and `session_id` (no index signature),
 * e.g. `EventRecordBodyOf<'hook_failed'>`: for code that builds records of one type.
 */
export type EventRecordBodyOf<T extends EventRecordType> = Omit<
  KnownKeys<EventRecordOf<T>>,
  'seq' | 'ts' | 'session_id'
>;

/**
 * Validates one event record (e.g. a parsed line of `events.jsonl`).
 * @throws {ProtocolError} code `INVALID_EVENT_RECORD`, with `issues`.
 */
export function parseEventRecord(value: unknown): EventRecord {
  return parseOrThrow(EventRecordSchema, value, 'INVALID_EVENT_RECORD', 'event record');
}
