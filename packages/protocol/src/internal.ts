// @soong-agent/protocol/internal
//
// NOT PUBLIC API. A seam between the @soong-agent packages (dialects, config, loop-adapter, the
// hosts), which move in lockstep with this exact version: it may change in any release, patches
// included, without notice. Application code imports `@soong-agent/protocol`.

export { jsonTextWithByteEscapes } from './byte-escapes.js';
export { BLOCKING_EVENTS } from './event-kinds.js';
export type {
  EventRecordBodyOf,
  HookFailureKind,
  WorkerStopReason,
} from './event-record.js';
export {
  ArtifactRefSchema,
  PreCompactInputSchema,
  PreToolUseInputSchema,
  StopInputSchema,
  SubagentStartInputSchema,
  SubagentStopInputSchema,
  type ToolResultPayload,
} from './hook-input.js';
export { jsonTextDepth } from './json-depth.js';
export { RiskClassSchema } from './risk-class.js';
