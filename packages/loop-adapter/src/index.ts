export { type ArtifactStore, createFileArtifactStore } from './artifact-store.js';
export { LoopAdapterError, type LoopAdapterErrorCode } from './errors.js';
export { type EventLog, readEventLog } from './event-log.js';
export {
  createJsonlEventSink,
  createMemoryEventSink,
  type EventSink,
  type JsonlEventSinkOptions,
  type MemoryEventSinkOptions,
} from './event-sink.js';
export {
  createSessionId,
  isSessionId,
  listSessions,
  type SessionPaths,
  sessionPaths,
} from './session.js';
export {
  countLines,
  SUMMARY_HEAD_BYTES,
  SUMMARY_TAIL_BYTES,
  type SummarizeTextOptions,
  summarizeText,
} from './summarize-text.js';
