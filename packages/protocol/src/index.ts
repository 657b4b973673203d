// @soong-agent/protocol: the public API, what goes over the wire (spec §2, §5). Everything here is
// semver-covered. One schema per message (hook input, hook output, event record, hook-context
// node) with its parse helpers; a single variant is a type (`HookInputFor<'Stop'>`,
// `EventRecordOf<'tool_denied'>`), not a schema of its own. Deliberately not exported: the
// per-variant schemas and field enums, the JSON Schema generator (its files ship in `schemas/`).
// Subpaths: `@soong-agent/protocol/hook` (defineHook, for hook authors) and
// `@soong-agent/protocol/events` (the event names without zod). Sibling packages reach what they
// share through `@soong-agent/protocol/internal`, which is not public.

// Which events block, which are about a tool call.
export { isBlockingEvent, TOOL_EVENTS } from './event-kinds.js';
// Session event records.
export {
  EVENT_RECORD_TYPES,
  type EventRecord,
  type EventRecordBody,
  type EventRecordOf,
  EventRecordSchema,
  type EventRecordType,
  LOOP_END_REASONS,
  type LoopEndReason,
  parseEventRecord,
} from './event-record.js';
// Hook-context nodes.
export {
  type AddedContextNode,
  type HookContextNode,
  HookContextNodeSchema,
  renderHookContext,
} from './hook-context.js';
// Hook events (the `./events` subpath: no zod).
export { HOOK_EVENTS, HOST_EVENTS, type HostEventName } from './hook-events.js';
// Hook input (stdin).
export {
  type ArtifactRef,
  type HookEvent,
  HookEventSchema,
  type HookInput,
  type HookInputFor,
  HookInputSchema,
  type NotificationKind,
  PROTOCOL_VERSION,
  parseHookInput,
  type SessionEndReason,
  type ToolCallInfo,
} from './hook-input.js';
// Hook output (stdout).
export {
  type HookDecision,
  type HookOutput,
  HookOutputSchema,
  parseHookOutput,
  type SafeParseHookOutputResult,
  safeParseHookOutput,
} from './hook-output.js';
// JSON nesting bound, and errors.
export { jsonValueDepth, MAX_JSON_DEPTH } from './json-depth.js';
export {
  formatMcpToolName,
  MCP_TOOL_PREFIX,
  type McpToolNameParts,
  parseMcpToolName,
} from './mcp-tool-name.js';
export {
  PROTOCOL_ERROR_CODES,
  ProtocolError,
  type ProtocolErrorCode,
  type ProtocolIssue,
} from './protocol-error.js';
export type { RiskClass } from './risk-class.js';
