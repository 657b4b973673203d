// @soong-agent/loop-adapter: the public API, grouped by concern. Everything here is semver-covered.
// Deliberately not exported: the engine's byte bounds and summary sizes (documented values, not
// names), the session's internal steps (SessionStart, config_loaded: `openHookSession` does them),
// the transcript and the gate factories (a session makes them), and the dialect helpers (they are
// `@soong-agent/dialects`'). Sibling packages reach the few helpers they share through
// `@soong-agent/loop-adapter/internal`, which is not public.

// Records, artifacts and the session's files.
export { type ArtifactStore, createFileArtifactStore } from './artifact-store.js';
// The hook engine, for a loop that does without a session.
export type { HookRunResult } from './decide-hook-run.js';
export { type EventLog, readEventLog } from './event-log.js';
export { createJsonlEventSink, createMemoryEventSink, type EventSink } from './event-sink.js';
export {
  createHookEngine,
  type HookEngine,
  type HookEngineOptions,
  type HookOutcome,
} from './hook-engine.js';
// Errors.
export {
  LOOP_ADAPTER_ERROR_CODES,
  LoopAdapterError,
  type LoopAdapterErrorCode,
} from './loop-adapter-error.js';
export { hookContextToMessage } from './observe.js';
// One session per agent run (spec §11): every host opens it the same way.
export {
  type HookSessionHandle,
  type OpenHookSessionOptions,
  openHookSession,
} from './open-hook-session.js';
export {
  createSessionId,
  isSessionId,
  listSessions,
  type SessionPaths,
  sessionPaths,
} from './session.js';
// Stop handling.
export {
  createStopController,
  type StopController,
  type StopDecision,
} from './stop-controller.js';
export { summarizeText } from './summarize-text.js';
// Tools and a model turn's calls, with spec §4's deny semantics.
export { createToolBatch, executeToolBatch, type ToolBatch } from './tool-batch.js';
export type {
  PermissionCallback,
  ToolCall,
  ToolDefinition,
  ToolDescription,
  ToolExecute,
  ToolExecutionResult,
  ToolGateCall,
  ToolRegistry,
  ToolResult,
} from './tool-call.js';
export { openTelemetryToolCalls, type ToolCallTelemetry } from './tool-call-telemetry.js';
export type { ToolGate } from './tool-gate.js';
export { ABORTED_TOOL_TEXT, TOO_DEEP_INPUT_TEXT } from './tool-gate.js';
