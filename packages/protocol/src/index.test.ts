import { describe, expect, it } from 'vitest';
import { BLOCKING_EVENTS } from './event-kinds.js';
import { HOOK_FAILURE_KINDS, WORKER_STOP_REASONS } from './event-record.js';
import * as protocol from './index.js';
import * as internal from './internal.js';

describe('index', () => {
  it('exports exactly the pinned runtime names', () => {
    expect(Object.keys(protocol).sort()).toEqual([
      'EVENT_RECORD_TYPES',
      'EventRecordSchema',
      'HOOK_EVENTS',
      'HOST_EVENTS',
      'HookContextNodeSchema',
      'HookEventSchema',
      'HookInputSchema',
      'HookOutputSchema',
      'LOOP_END_REASONS',
      'MAX_JSON_DEPTH',
      'MCP_TOOL_PREFIX',
      'PROTOCOL_ERROR_CODES',
      'PROTOCOL_VERSION',
      'ProtocolError',
      'TOOL_EVENTS',
      'formatMcpToolName',
      'isBlockingEvent',
      'jsonValueDepth',
      'parseEventRecord',
      'parseHookInput',
      'parseHookOutput',
      'parseMcpToolName',
      'renderHookContext',
      'safeParseHookOutput',
    ]);
  });
});

describe('EVENT_RECORD_TYPES', () => {
  it('lists the 20 record types of spec §5, then hook_context_added (§13.1), in order', () => {
    expect(protocol.EVENT_RECORD_TYPES).toEqual([
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
    ]);
  });

  it('matches the discriminator values of EventRecordSchema when compared', () => {
    const types = protocol.EventRecordSchema.options.map((option) => option.shape.type.value);
    expect(types).toEqual([...protocol.EVENT_RECORD_TYPES]);
  });
});

describe('HOOK_FAILURE_KINDS', () => {
  it('lists the failure kinds of spec §2.2', () => {
    expect(HOOK_FAILURE_KINDS).toEqual([
      'exit_code',
      'timeout',
      'protocol_error',
      'output_too_large',
      'cwd_invalid',
      'spawn_error',
      'aborted',
      'worker_exited',
      'helper_failed',
    ]);
  });
});

describe('WORKER_STOP_REASONS', () => {
  it('lists the worker_stopped reasons of spec §8', () => {
    expect(WORKER_STOP_REASONS).toEqual([
      'session_end',
      'timeout',
      'exited',
      'protocol_error',
      'output_too_large',
      'aborted',
    ]);
  });
});

describe('PROTOCOL_ERROR_CODES', () => {
  it('lists the ProtocolError codes', () => {
    expect(protocol.PROTOCOL_ERROR_CODES).toEqual([
      'INVALID_HOOK_OUTPUT',
      'INVALID_HOOK_INPUT',
      'INVALID_EVENT_RECORD',
    ]);
  });
});

describe('HOOK_EVENTS', () => {
  it('lists the five events and the observe-only ones, with the blocking, tool and host events among them', () => {
    expect(protocol.HOOK_EVENTS).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'Stop',
      'SessionEnd',
      'Notification',
      'PostToolUseFailure',
      'PreCompact',
      'SubagentStart',
      'SubagentStop',
    ]);
    expect(BLOCKING_EVENTS).toEqual(['PreToolUse', 'Stop']);
    expect(protocol.TOOL_EVENTS).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
    expect(protocol.HOST_EVENTS).toEqual(['PreCompact', 'SubagentStart', 'SubagentStop']);
    expect(Object.isFrozen(BLOCKING_EVENTS)).toBe(true);
    expect(Object.isFrozen(protocol.TOOL_EVENTS)).toBe(true);
  });

  it('matches the discriminator values of HookInputSchema when compared', () => {
    const events = protocol.HookInputSchema.options.map((option) => option.shape.event.value);
    expect(events).toEqual([...protocol.HOOK_EVENTS]);
  });
});

describe('LOOP_END_REASONS', () => {
  it('lists the loop end reasons of spec §5', () => {
    expect(protocol.LOOP_END_REASONS).toEqual(['completed', 'max_turns', 'error', 'aborted']);
  });
});

describe('PROTOCOL_VERSION', () => {
  it('is 1', () => {
    expect(protocol.PROTOCOL_VERSION).toBe(1);
  });
});

describe('internal', () => {
  it('exports exactly the pinned names only sibling packages use, none of them public', () => {
    expect(Object.keys(internal).sort()).toEqual([
      'ArtifactRefSchema',
      'BLOCKING_EVENTS',
      'PreCompactInputSchema',
      'PreToolUseInputSchema',
      'RiskClassSchema',
      'StopInputSchema',
      'SubagentStartInputSchema',
      'SubagentStopInputSchema',
      'jsonTextDepth',
      'jsonTextWithByteEscapes',
    ]);
    for (const name of Object.keys(internal)) expect(Object.keys(protocol)).not.toContain(name);
  });
});
