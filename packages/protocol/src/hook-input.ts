import { z } from 'zod';
import { HOOK_EVENTS } from './hook-events.js';
import { parseOrThrow } from './protocol-error.js';
import { RiskClassSchema } from './risk-class.js';

/** Version of the hook protocol; sent as `protocol_version` in every hook input. */
export const PROTOCOL_VERSION = 1;

/**
 * A hook event name (`SessionStart`, `UserPromptSubmit`, `PreToolUse`, `PostToolUse`, `Stop`,
 * `SessionEnd`, `Notification`, `PostToolUseFailure`, `PreCompact`, `SubagentStart`, `SubagentStop`).
 */
export const HookEventSchema = z.enum(HOOK_EVENTS);
/** A hook event name. */
export type HookEvent = z.infer<typeof HookEventSchema>;

const nonEmpty = z.string().min(1);
const byteCount = z.number().int().nonnegative();
/** ISO 8601 date-time with seconds and a `Z` or `±hh:mm` offset, as `Date#toISOString()` prints. */
export const isoTimestamp = z.iso.datetime({ offset: true });
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits (sha256)');

/** Where a large tool input or result was stored in the session's artifact store. */
export const ArtifactRefSchema = z.object({
  id: nonEmpty.describe('Artifact id (unique in the session).'),
  path: nonEmpty.describe('Absolute path of the stored file; a hook may read it.'),
  bytes: byteCount.describe('Size of the stored content in bytes.'),
  sha256: sha256Hex.describe('Lowercase hex sha256 of the stored content.'),
});
/** Where a large tool input or result was stored. */
export type ArtifactRef = z.infer<typeof ArtifactRefSchema>;

/** The tool call a `PreToolUse` / `PostToolUse` hook is about. */
export const ToolCallInfoSchema = z.object({
  name: nonEmpty.describe('Canonical tool name, e.g. `write_file`.'),
  call_id: nonEmpty.describe('Id of the call, unique in the session.'),
  input: z
    .record(z.string(), z.unknown())
    .describe("The call's input object (bounded: long strings summarised when `input_truncated`)."),
  risk: RiskClassSchema.describe('Risk class of the tool.'),
  tags: z.array(z.string()).describe("The tool's tags; always include its risk class."),
  paths: z
    .array(z.string())
    .describe('Absolute paths the call touches (empty for tools without paths).'),
  input_truncated: z
    .boolean()
    .optional()
    .describe('True when long string values of `input` were replaced by head-and-tail summaries.'),
  input_artifact_ref: ArtifactRefSchema.optional().describe(
    'The full input, when `input_truncated`.',
  ),
});
/** The tool call a tool hook is about. */
export type ToolCallInfo = z.infer<typeof ToolCallInfoSchema>;

/**
 * A tool's result as a `PostToolUse` hook sees it: inline `content`, or, when `bytes` exceeds
 * `hooks.inline_result_bytes`, a `summary` (head and tail) plus an `artifact_ref` to the full text.
 */
export const ToolResultPayloadSchema = z.union([
  z.object({ is_error: z.boolean(), bytes: byteCount, content: z.string() }),
  z.object({
    is_error: z.boolean(),
    bytes: byteCount,
    summary: z.string(),
    artifact_ref: ArtifactRefSchema,
  }),
]);
/** A tool's result as a `PostToolUse` hook sees it. */
export type ToolResultPayload = z.infer<typeof ToolResultPayloadSchema>;

const commonInputFields = {
  protocol_version: z.literal(PROTOCOL_VERSION).describe('Always {@link PROTOCOL_VERSION}.'),
  session_id: nonEmpty,
  project_dir: nonEmpty.describe('Absolute project dir.'),
  agent_home: nonEmpty.describe('Absolute agent home.'),
  hook_id: nonEmpty.describe('Id of the hook being run: its `name`, or `<Event>[<rule>][<hook>]`.'),
  timestamp: isoTimestamp.describe('When the event happened (ISO 8601).'),
};

/** Input of a `SessionStart` hook. */
export const SessionStartInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('SessionStart'),
  source: z
    .enum(['startup', 'resume'])
    .describe('`startup` for every session today; `resume` is reserved.'),
});

/** Input of a `UserPromptSubmit` hook. */
export const UserPromptSubmitInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('UserPromptSubmit'),
  prompt: z.string(),
});

/** Input of a `PreToolUse` hook. */
export const PreToolUseInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('PreToolUse'),
  tool: ToolCallInfoSchema,
});

/** Input of a `PostToolUse` hook. */
export const PostToolUseInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('PostToolUse'),
  tool: ToolCallInfoSchema,
  result: ToolResultPayloadSchema,
  duration_ms: z.number().nonnegative().describe('How long the tool ran, in milliseconds.'),
});

/** Input of a `Stop` hook. */
export const StopInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('Stop'),
  stop_hook_active: z
    .boolean()
    .describe('True when a Stop hook already prevented completion in this loop.'),
  prevented_count: z.number().int().nonnegative().describe('Stop denials in this loop so far.'),
  previous_reasons: z.array(z.string()).describe('Their reasons, oldest first.'),
  last_assistant_message: z.string().describe("The text of the model's final turn."),
  prompt: z
    .string()
    .optional()
    .describe(
      'The user prompt that started this loop, when the host gave one (`session.userPrompt`).',
    ),
});

/** Why a session ended (`SessionEnd.reason`). */
export const SessionEndReasonSchema = z.enum(['completed', 'aborted', 'error', 'max_turns']);
/** Why a session ended: `completed`, `aborted`, `error` or `max_turns`. */
export type SessionEndReason = z.infer<typeof SessionEndReasonSchema>;

/** Input of a `SessionEnd` hook (observe only; runs once when the session ends, before workers stop). */
export const SessionEndInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('SessionEnd'),
  reason: SessionEndReasonSchema.describe('Why the session ended.'),
});

/** What the agent waits for (`Notification.kind`). */
export const NotificationKindSchema = z.enum(['permission_prompt', 'idle']);
/** What the agent waits for: `permission_prompt` or `idle`. */
export type NotificationKind = z.infer<typeof NotificationKindSchema>;

/** Input of a `Notification` hook (observe only; runs when the agent waits for the user). */
export const NotificationInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('Notification'),
  kind: NotificationKindSchema.describe('What the agent waits for.'),
  message: z.string().describe('What the user is shown.'),
});

/**
 * Input of a `PostToolUseFailure` hook (observe only, spec §13.2): a tool call whose result is an
 * error. The fields of `PostToolUse` plus `error`, the head of the error text. (A PostToolUse hook
 * of the `claude-code`, `copilot` and `cursor` protocols does not see failed results: those agents
 * run this event instead.)
 */
export const PostToolUseFailureInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('PostToolUseFailure'),
  tool: ToolCallInfoSchema,
  result: ToolResultPayloadSchema,
  duration_ms: z.number().nonnegative().describe('How long the tool ran, in milliseconds.'),
  error: z
    .string()
    .describe('The head of the error result (at most 1 KiB, as `tool_finished.error_text`).'),
});

/** What started a compaction (`PreCompact.trigger`): the user asked (`manual`), or the context filled up (`auto`). */
export const CompactTriggerSchema = z.enum(['manual', 'auto']);

/** Input of a `PreCompact` hook (observe only; a host fires it before it compacts the context). */
export const PreCompactInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('PreCompact'),
  trigger: CompactTriggerSchema.describe(
    '`manual` (the user asked) or `auto` (the context is full).',
  ),
  custom_instructions: z
    .string()
    .describe("The user's instructions for a manual compaction (empty for `auto`)."),
});

const subagentFields = {
  agent_id: nonEmpty.describe('Id of the subagent, unique in the session.'),
  agent_type: nonEmpty.describe('What kind of subagent it is (e.g. `general-purpose`, `Explore`).'),
};

/** Input of a `SubagentStart` hook (observe only; a host fires it when it starts a subagent). */
export const SubagentStartInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('SubagentStart'),
  ...subagentFields,
});

/** Input of a `SubagentStop` hook (observe only; a host fires it when a subagent has finished). */
export const SubagentStopInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('SubagentStop'),
  ...subagentFields,
  stop_hook_active: z
    .boolean()
    .describe("True when a stop hook already kept the subagent going (Claude Code's loop guard)."),
  last_assistant_message: z.string().describe("The text of the subagent's final turn."),
  agent_transcript_path: z
    .string()
    .optional()
    .describe("Absolute path of the subagent's own transcript, when the host keeps one."),
});

/**
 * What a hook command reads on stdin: one JSON object, discriminated on `event`.
 * Unknown keys are accepted (and dropped by `parse`): the protocol may add fields.
 */
export const HookInputSchema = z
  .discriminatedUnion('event', [
    SessionStartInputSchema,
    UserPromptSubmitInputSchema,
    PreToolUseInputSchema,
    PostToolUseInputSchema,
    StopInputSchema,
    SessionEndInputSchema,
    NotificationInputSchema,
    PostToolUseFailureInputSchema,
    PreCompactInputSchema,
    SubagentStartInputSchema,
    SubagentStopInputSchema,
  ])
  .meta({
    title: 'HookInput',
    description:
      'What a soong-agent hook command reads on stdin: one JSON object, discriminated on `event`. Later versions may add keys.',
  });
/** What a hook command reads on stdin. */
export type HookInput = z.infer<typeof HookInputSchema>;
/** The hook input of one event, e.g. `HookInputFor<'Stop'>`. */
export type HookInputFor<E extends HookEvent> = Extract<HookInput, { event: E }>;

/**
 * Validates a hook input (e.g. one built by an engine, or read in a hook written in TypeScript).
 * @throws {ProtocolError} code `INVALID_HOOK_INPUT`, with `issues`.
 */
export function parseHookInput(value: unknown): HookInput {
  return parseOrThrow(HookInputSchema, value, 'INVALID_HOOK_INPUT', 'hook input');
}
