import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('index', () => {
  it('exports exactly the public runtime API when imported', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ABORTED_TOOL_TEXT',
      'ARTIFACT_READ_MAX_BYTES',
      'CLAUDE_CODE_TOOL_NAMES',
      'EVENT_LOG_MAX_BYTES',
      'HOOK_LOG_LINES_MAX',
      'HOOK_LOG_LINE_BYTES',
      'HOOK_REASON_BYTES',
      'HOOK_STDERR_LOG_BYTES',
      'LOOP_ADAPTER_ERROR_CODES',
      'LoopAdapterError',
      'SKIPPED_TOOL_TEXT',
      'SUMMARY_HEAD_BYTES',
      'SUMMARY_TAIL_BYTES',
      'TOO_DEEP_INPUT_TEXT',
      'UNFINISHED_TOOL_TEXT',
      'UNKNOWN_TOOL_TEXT',
      'claudeCodeToolName',
      'createClaudeCodeTranscript',
      'createFileArtifactStore',
      'createHookEngine',
      'createJsonlEventSink',
      'createMemoryEventSink',
      'createSessionId',
      'createStopController',
      'createToolBatch',
      'createToolGate',
      'executeToolBatch',
      'hookContextToMessage',
      'isSessionId',
      'listSessions',
      'openHookSession',
      'readEventLog',
      'recordConfigLoaded',
      'recordSessionStarted',
      'runSessionStart',
      'runUserPromptSubmit',
      'sessionPaths',
      'summarizeText',
      'toClaudeCodeToolInput',
    ]);
  });
});
