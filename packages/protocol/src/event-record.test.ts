import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type EVENT_RECORD_TYPES,
  type EventRecord,
  type EventRecordBody,
  type EventRecordOf,
  EventRecordSchema,
  type HookInputFor,
} from './index.js';

const stamp = { seq: 7, ts: '2026-12-02T13:55:12.345Z', session_id: '20261202T135512Z-3f9a1c' };

describe('EventRecordBody', () => {
  it('becomes a valid record when seq, ts and session_id are added', () => {
    const bodies: EventRecordBody[] = [
      {
        type: 'tool_denied',
        call_id: 'call_1',
        tool: 'bash',
        source: 'hook',
        reason: 'no',
        hook_id: 'guard',
      },
      { type: 'loop_ended', reason: 'completed', turns: 3 },
      {
        type: 'hook_failed',
        hook_id: 'Stop[0][0]',
        event: 'Stop',
        failure: 'exit_code',
        message: 'exit 2',
        exit_code: 2,
        on_failure: 'ignore',
        duration_ms: 12.5,
      },
    ];
    for (const body of bodies) {
      expect(EventRecordSchema.parse({ ...stamp, ...body })).toEqual({ ...stamp, ...body });
    }
  });

  it('rejects a body missing a required field when type-checked', () => {
    // @ts-expect-error tool_denied needs source and reason
    const body: EventRecordBody = { type: 'tool_denied', call_id: 'call_1', tool: 'bash' };
    expect(EventRecordSchema.safeParse({ ...stamp, ...body }).success).toBe(false);
  });

  it('narrows on type when switched on', () => {
    const body: EventRecordBody = { type: 'stop_hook_limit_reached', limit: 5, prevented_count: 5 };
    if (body.type === 'stop_hook_limit_reached') expectTypeOf(body.limit).toEqualTypeOf<number>();
  });
});

describe('EventRecordOf', () => {
  it('selects the record of one type when given its name', () => {
    expectTypeOf<EventRecordOf<'hook_failed'>['failure']>().toEqualTypeOf<
      | 'exit_code'
      | 'timeout'
      | 'protocol_error'
      | 'output_too_large'
      | 'cwd_invalid'
      | 'spawn_error'
      | 'aborted'
      | 'worker_exited'
      | 'helper_failed'
    >();
    expectTypeOf<EventRecordOf<'loop_ended'>['seq']>().toEqualTypeOf<number>();
    expectTypeOf<EventRecord['type']>().toEqualTypeOf<(typeof EVENT_RECORD_TYPES)[number]>();
    expectTypeOf<HookInputFor<'Stop'>['previous_reasons']>().toEqualTypeOf<string[]>();
  });
});

describe('EventRecordSchema', () => {
  it('keeps extra keys when a record carries more than the spec lists', () => {
    const record = {
      ...stamp,
      type: 'hook_log',
      hook_id: 'h',
      event: 'Stop',
      source: 'logs',
      message: 'm',
      line: 3,
    };
    expect(EventRecordSchema.parse(record)).toEqual(record);
  });

  it('accepts null exit_code and signal when a failed hook has neither', () => {
    const record = {
      ...stamp,
      type: 'hook_failed',
      hook_id: 'h',
      event: 'PreToolUse',
      failure: 'spawn_error',
      message: 'could not start /bin/sh',
      exit_code: null,
      signal: null,
      on_failure: 'deny',
      duration_ms: 0,
    };
    expect(EventRecordSchema.safeParse(record).success).toBe(true);
  });
});
