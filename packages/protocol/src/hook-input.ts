import { z } from 'zod';
import { parseOrThrow } from './protocol-error.js';

/** Version of the hook protocol; sent as `protocol_version` in every hook input. */
export const PROTOCOL_VERSION = 1;

/** The five hook events, in the order a session meets them. */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
] as const;

/** A hook event name (`SessionStart`, `UserPromptSubmit`, `PreToolUse`, `PostToolUse`, `Stop`). */
export const HookEventSchema = z.enum(HOOK_EVENTS);
/** A hook event name. */
export type HookEvent = z.infer<typeof HookEventSchema>;

/** Events whose `deny` blocks something: a tool call (`PreToolUse`) or the end of the loop (`Stop`). */
export const BLOCKING_EVENTS: readonly HookEvent[] = Object.freeze(['PreToolUse', 'Stop'] as const);

/** Events about one tool call; only these can use the `tool`, `tag` and `path_prefix` matchers. */
export const TOOL_EVENTS: readonly HookEvent[] = Object.freeze([
  'PreToolUse',
  'PostToolUse',
] as const);

/** Risk class of a tool; also always one of its tags. */
export const RiskClassSchema = z.enum(['readonly', 'write', 'dangerous']);
/** Risk class of a tool: `readonly`, `write` or `dangerous`. */
export type RiskClass = z.infer<typeof RiskClassSchema>;

const nonEmpty = z.string().min(1);
const byteCount = z.number().int().nonnegative();
/** ISO 8601 date-time with seconds and a `Z` or `±hh:mm` offset, as `Date#toISOString()` prints. */
export const isoTimestamp = z.iso.datetime({ offset: true });
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits (sha256)');

/** Where a large tool input or result was stored in the session's artifact store. */
export const ArtifactRefSchema = z.object({
  /** Artifact id (unique in the session). */
  id: nonEmpty,
  /** Absolute path of the stored file; a hook may read it. */
  path: nonEmpty,
  /** Size of the stored content in bytes. */
  bytes: byteCount,
  /** Lowercase hex sha256 of the stored content. */
  sha256: sha256Hex,
});
/** Where a large tool input or result was stored. */
export type ArtifactRef = z.infer<typeof ArtifactRefSchema>;

/** The tool call a `PreToolUse` / `PostToolUse` hook is about. */
export const ToolCallInfoSchema = z.object({
  /** Canonical tool name, e.g. `write_file`. */
  name: nonEmpty,
  /** Id of the call, unique in the session. */
  call_id: nonEmpty,
  /** The call's input object (bounded: long strings summarised when `input_truncated`). */
  input: z.record(z.string(), z.unknown()),
  /** Risk class of the tool. */
  risk: RiskClassSchema,
  /** The tool's tags; always include its risk class. */
  tags: z.array(z.string()),
  /** Absolute paths the call touches (empty for tools without paths). */
  paths: z.array(z.string()),
  /** True when long string values of `input` were replaced by head-and-tail summaries. */
  input_truncated: z.boolean().optional(),
  /** The full input, when `input_truncated`. */
  input_artifact_ref: ArtifactRefSchema.optional(),
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
  /** Always {@link PROTOCOL_VERSION}. */
  protocol_version: z.literal(PROTOCOL_VERSION),
  session_id: nonEmpty,
  /** Absolute project dir. */
  project_dir: nonEmpty,
  /** Absolute agent home. */
  agent_home: nonEmpty,
  /** Id of the hook being run: its `name`, or `<Event>[<rule>][<hook>]`. */
  hook_id: nonEmpty,
  /** When the event happened (ISO 8601). */
  timestamp: isoTimestamp,
};

/** Input of a `SessionStart` hook. */
export const SessionStartInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('SessionStart'),
  /** `startup` for every session today; `resume` is reserved. */
  source: z.enum(['startup', 'resume']),
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
  /** How long the tool ran, in milliseconds. */
  duration_ms: z.number().nonnegative(),
});

/** Input of a `Stop` hook. */
export const StopInputSchema = z.object({
  ...commonInputFields,
  event: z.literal('Stop'),
  /** True when a Stop hook already prevented completion in this loop. */
  stop_hook_active: z.boolean(),
  /** Stop denials in this loop so far. */
  prevented_count: z.number().int().nonnegative(),
  /** Their reasons, oldest first. */
  previous_reasons: z.array(z.string()),
  /** The text of the model's final turn. */
  last_assistant_message: z.string(),
});

/**
 * What a hook command reads on stdin: one JSON object, discriminated on `event`.
 * Unknown keys are accepted (and dropped by `parse`): the protocol may add fields.
 */
export const HookInputSchema = z.discriminatedUnion('event', [
  SessionStartInputSchema,
  UserPromptSubmitInputSchema,
  PreToolUseInputSchema,
  PostToolUseInputSchema,
  StopInputSchema,
]);
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
