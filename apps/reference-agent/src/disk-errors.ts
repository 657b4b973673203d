import { LoopAdapterError } from '@soong-agent/loop-adapter';

// Its own module: loading loop-adapter is not free, and `--help` must not pay for it.

/** errno codes that mean the disk refused: full, read-only, a file where a folder must be, … */
const DISK_ERROR_CODES = new Set([
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
  'EROFS',
  'EACCES',
  'EPERM',
  'EIO',
  'ENOTDIR',
  'EEXIST',
  'EISDIR',
  'ELOOP',
  'ENAMETOOLONG',
  'EMFILE',
  'ENFILE',
]);

/**
 * The one-line message of a failure the disk caused (a full or read-only agent home, an event log
 * that cannot be written or read safely), or `undefined` for anything else (a bug: keep its stack).
 */
export function diskErrorMessage(error: unknown): string | undefined {
  if (LoopAdapterError.isInstance(error)) {
    const disk = error.code === 'SINK_WRITE_FAILED' || error.code === 'EVENT_LOG_UNREADABLE';
    return disk ? error.message : undefined;
  }
  if (!(error instanceof Error)) return undefined;
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (typeof syscall === 'string' && code !== undefined && DISK_ERROR_CODES.has(code)) {
    return error.message;
  }
  return undefined;
}
