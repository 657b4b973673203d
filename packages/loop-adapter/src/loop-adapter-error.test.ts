import { describe, expect, it } from 'vitest';
import { LOOP_ADAPTER_ERROR_CODES, LoopAdapterError } from './loop-adapter-error.js';

describe('LOOP_ADAPTER_ERROR_CODES', () => {
  it('lists exactly the pinned codes when read', () => {
    expect(LOOP_ADAPTER_ERROR_CODES).toEqual([
      'INVALID_OPTIONS',
      'SINK_CLOSED',
      'SINK_WRITE_FAILED',
      'ARTIFACT_NOT_FOUND',
      'ARTIFACT_INVALID',
      'EVENT_LOG_UNREADABLE',
      'ENGINE_CLOSED',
      'SESSION_IN_USE',
    ]);
  });
});

describe('LoopAdapterError', () => {
  it('carries code, message and cause when constructed', () => {
    const cause = new Error('inner');
    const error = new LoopAdapterError({ code: 'ARTIFACT_NOT_FOUND', message: 'm', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('LoopAdapterError');
    expect(error.code).toBe('ARTIFACT_NOT_FOUND');
    expect(error.message).toBe('m');
    expect(error.cause).toBe(cause);
  });

  it('has no cause when none is given', () => {
    expect('cause' in new LoopAdapterError({ code: 'SINK_CLOSED', message: 'm' })).toBe(false);
  });

  it('recognises an instance by its global brand when it comes from another copy of the package', () => {
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('@soong-agent/loop-adapter/LoopAdapterError')]: true,
    });
    expect(LoopAdapterError.isInstance(foreign)).toBe(true);
    expect(
      LoopAdapterError.isInstance(new LoopAdapterError({ code: 'INVALID_OPTIONS', message: 'm' })),
    ).toBe(true);
  });

  it('rejects values that are not loop adapter errors when checked', () => {
    expect(LoopAdapterError.isInstance(new Error('x'))).toBe(false);
    expect(LoopAdapterError.isInstance(null)).toBe(false);
    expect(LoopAdapterError.isInstance('LoopAdapterError')).toBe(false);
  });

  it('keeps the brand out of a copy when the error is spread', () => {
    const error = new LoopAdapterError({ code: 'INVALID_OPTIONS', message: 'm' });
    expect(Object.getOwnPropertySymbols({ ...error })).toEqual([]);
  });
});
