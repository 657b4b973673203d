const BRAND = Symbol.for('@soong-agent/loop-adapter/LoopAdapterError');

/** Codes of {@link LoopAdapterError}: misuse of the loop adapter, never a hook or tool outcome. */
export type LoopAdapterErrorCode =
  | 'INVALID_OPTIONS'
  | 'SINK_CLOSED'
  | 'ARTIFACT_NOT_FOUND'
  | 'ARTIFACT_INVALID';

/**
 * The one error class of `@soong-agent/loop-adapter`. Thrown only for misuse (bad options, emitting
 * into a closed sink, reading an artifact that is not there); what hooks and tools do is data.
 */
export class LoopAdapterError extends Error {
  /** What went wrong, as a stable code. */
  readonly code: LoopAdapterErrorCode;
  readonly [BRAND] = true;

  constructor(options: { code: LoopAdapterErrorCode; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LoopAdapterError';
    this.code = options.code;
  }

  /** True for a `LoopAdapterError` from any copy of this package (not `instanceof`). */
  static isInstance(value: unknown): value is LoopAdapterError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[BRAND] === true
    );
  }
}

/** Throws `INVALID_OPTIONS` naming the option, the value and the fix, unless `ok`. */
export function checkOption(ok: boolean, option: string, value: unknown, fix: string): void {
  if (ok) return;
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw new LoopAdapterError({ code: 'INVALID_OPTIONS', message: `${option} is ${shown}: ${fix}` });
}
