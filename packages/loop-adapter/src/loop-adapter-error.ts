import { showValue } from '@soong-agent/matcher/internal';

const BRAND = Symbol.for('@soong-agent/loop-adapter/LoopAdapterError');

/** Every code a {@link LoopAdapterError} can carry. Pinned by a test: change only on purpose. */
export const LOOP_ADAPTER_ERROR_CODES = [
  'INVALID_OPTIONS',
  'SINK_CLOSED',
  'SINK_WRITE_FAILED',
  'ARTIFACT_NOT_FOUND',
  'ARTIFACT_INVALID',
  'EVENT_LOG_UNREADABLE',
  'ENGINE_CLOSED',
  'SESSION_IN_USE',
] as const;

/**
 * Misuse of the loop adapter, never a hook or tool outcome:
 * - `INVALID_OPTIONS`: an option or argument is malformed (an empty `sessionId`, a symlinked event
 *   log path, an `engine.run` payload that is not what the event needs…); the message names the
 *   option, the value and the fix;
 * - `SINK_CLOSED`: a record was emitted into a closed event sink;
 * - `SINK_WRITE_FAILED`: the disk refused an event log write (full, read-only, a file size limit);
 * - `ARTIFACT_NOT_FOUND`: an artifact was read that the store does not hold;
 * - `ARTIFACT_INVALID`: an artifact ref is malformed, or the stored file is not a regular file, is a
 *   symlink, is too large or no longer matches its hash;
 * - `EVENT_LOG_UNREADABLE`: an event log is a symlink, FIFO, device or directory, or too large to read;
 * - `ENGINE_CLOSED`: `engine.run` was called after `engine.close()`.
 * - `SESSION_IN_USE`: an event log was opened while another sink (this process or a live other one)
 *   still writes it: two writers would give records the same `seq`.
 */
export type LoopAdapterErrorCode = (typeof LOOP_ADAPTER_ERROR_CODES)[number];

/** Constructor argument of {@link LoopAdapterError}. */
export interface LoopAdapterErrorOptions {
  /** What went wrong, as a code callers can branch on. */
  code: LoopAdapterErrorCode;
  /** What went wrong, naming the option or file, the value and the fix. */
  message: string;
  /** The underlying error (e.g. the `fs` error of a missing artifact), if any. */
  cause?: unknown;
}

/**
 * The one error class of `@soong-agent/loop-adapter`. Thrown only for misuse (bad options, emitting
 * into a closed sink, reading an artifact that is not there) and for files that cannot be read
 * safely; what hooks and tools do is data.
 * Check it with {@link LoopAdapterError.isInstance}, which works across duplicate installs.
 */
export class LoopAdapterError extends Error {
  /** What went wrong, as a stable code. */
  readonly code: LoopAdapterErrorCode;

  constructor(options: LoopAdapterErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LoopAdapterError';
    this.code = options.code;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for a `LoopAdapterError` from any copy of this package (checks a global symbol brand). */
  static isInstance(value: unknown): value is LoopAdapterError {
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}

/** Throws `INVALID_OPTIONS` naming the option, the value and the fix, unless `ok`. */
export function checkOption(ok: boolean, option: string, value: unknown, fix: string): void {
  if (ok) return;
  throw new LoopAdapterError({
    code: 'INVALID_OPTIONS',
    message: `${option} is ${showValue(value)}: ${fix}`,
  });
}
