export {
  CLAUDE_CODE_TOOL_NAMES,
  claudeCodeToolName,
  toClaudeCodeToolInput,
} from '@soong-agent/dialects';
export {
  ARTIFACT_READ_MAX_BYTES,
  type ArtifactStore,
  createFileArtifactStore,
} from './artifact-store.js';
export {
  type ClaudeCodeTranscript,
  type ClaudeCodeTranscriptOptions,
  createClaudeCodeTranscript,
} from './claude-code-transcript.js';
export {
  HOOK_LOG_LINE_BYTES,
  HOOK_LOG_LINES_MAX,
  HOOK_REASON_BYTES,
  HOOK_STDERR_LOG_BYTES,
  type HookRunResult,
} from './decide-hook-run.js';
export {
  EVENT_LOG_MAX_BYTES,
  type EventLog,
  type ReadEventLogOptions,
  readEventLog,
} from './event-log.js';
export {
  createJsonlEventSink,
  createMemoryEventSink,
  type EventSink,
  type JsonlEventSinkOptions,
  type MemoryEventSinkOptions,
} from './event-sink.js';
export {
  createHookEngine,
  type HookEngine,
  type HookEngineOptions,
  type HookOutcome,
  type HookPayload,
  type HookRunOptions,
  type ToolDialectView,
} from './hook-engine.js';
export {
  LOOP_ADAPTER_ERROR_CODES,
  LoopAdapterError,
  type LoopAdapterErrorCode,
  type LoopAdapterErrorOptions,
} from './loop-adapter-error.js';
export {
  hookContextToMessage,
  recordConfigLoaded,
  recordSessionStarted,
  runSessionStart,
  runUserPromptSubmit,
} from './observe.js';
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
export {
  createStopController,
  type StopController,
  type StopControllerOptions,
  type StopDecision,
} from './stop-controller.js';
export {
  SUMMARY_HEAD_BYTES,
  SUMMARY_TAIL_BYTES,
  type SummarizeTextOptions,
  summarizeText,
} from './summarize-text.js';
export {
  createToolBatch,
  type ExecuteToolBatchOptions,
  executeToolBatch,
  type PermissionCallback,
  type ToolBatch,
  type ToolCall,
  type ToolDefinition,
  type ToolDescription,
  type ToolDescriptions,
  type ToolExecutionResult,
  type ToolRegistry,
  type ToolResult,
} from './tool-batch.js';
export type { ToolExecute } from './tool-call.js';
export {
  NO_TOOL_CALL_TELEMETRY,
  openTelemetryToolCalls,
  type ToolCallScope,
  type ToolCallTelemetry,
} from './tool-call-telemetry.js';
export {
  ABORTED_TOOL_TEXT,
  allowUnlessAsked,
  CLOSED_TOOL_TEXT,
  createToolGate,
  SKIPPED_TOOL_TEXT,
  TOO_DEEP_INPUT_TEXT,
  type ToolGate,
  type ToolGateCall,
  type ToolGateOptions,
  type ToolGateRunOptions,
  type ToolGateVerdict,
  UNFINISHED_TOOL_TEXT,
  UNKNOWN_TOOL_TEXT,
} from './tool-gate.js';
