import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as internal from './internal.js';

describe('index', () => {
  it('exports exactly the public runtime API when imported', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ABORTED_TOOL_TEXT',
      'LOOP_ADAPTER_ERROR_CODES',
      'LoopAdapterError',
      'TOO_DEEP_INPUT_TEXT',
      'createFileArtifactStore',
      'createHookEngine',
      'createJsonlEventSink',
      'createMemoryEventSink',
      'createSessionId',
      'createStopController',
      'createToolBatch',
      'executeToolBatch',
      'hookContextToMessage',
      'isSessionId',
      'listSessions',
      'openHookSession',
      'openTelemetryToolCalls',
      'readEventLog',
      'sessionPaths',
      'summarizeText',
    ]);
  });
});

describe('internal', () => {
  it('exports exactly the pinned names only sibling packages use, none of them public', () => {
    expect(Object.keys(internal).sort()).toEqual(['allowUnlessAsked']);
    for (const name of Object.keys(internal)) expect(Object.keys(api)).not.toContain(name);
  });
});
