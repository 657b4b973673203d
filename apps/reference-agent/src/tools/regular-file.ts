import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { type RegularFileSyncRead, readRegularFileSync } from '@soong-agent/config';
import { guardRefusal, type ReadGuard } from './read-guard.js';

/** What {@link readRegularFile} found: the bytes, or why it did not read them. */
export type RegularFileRead =
  | { buffer: Buffer }
  | { refused: string }
  | {
      problem: 'directory' | 'not a regular file' | 'too large';
      /**
       * What `stat` reports. For `too large` it may be less than `maxBytes` (or 0): `/proc` files
       * report 0 and yield far more; the read itself found more than `maxBytes` bytes.
       */
      size: number;
    };

/** Bytes read per `read(2)` call while a file's length is not yet known. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Reads at most `maxBytes + 1` bytes from an open handle: the bytes, or `undefined` when there are
 * more than `maxBytes`. The size `stat` reports is only a hint for the first buffer — `/proc` files
 * report 0 and never end (`/proc/self/pagemap`), and a file may grow while it is read.
 */
async function readAtMost(
  handle: FileHandle,
  maxBytes: number,
  sizeHint: number,
): Promise<Buffer | undefined> {
  const limit = maxBytes + 1;
  let buffer = Buffer.allocUnsafe(Math.min(limit, Math.max(sizeHint + 1, CHUNK_BYTES)));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length === limit) return undefined;
      const grown = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return length > maxBytes ? undefined : buffer.subarray(0, length);
}

/** Options of {@link readRegularFile}. */
export interface ReadRegularFileOptions {
  /**
   * Prefixes the opened file must not lie under: its real path is taken from the open descriptor
   * (see `guardRefusal`), so a symlink swapped after the hooks ran does not reach them.
   * @default [] (nothing checked)
   */
  guards?: readonly ReadGuard[];
  /** Where the file must really be (a walk knows it); checked only with guards. @default undefined */
  expectedRealPath?: string;
  /** Do not follow a symlink at `file` itself (`O_NOFOLLOW`). @default false */
  noFollow?: boolean;
}

/**
 * Reads a whole file only when it is a regular file of at most `maxBytes`. Opened without blocking
 * and checked on the open descriptor: a FIFO would block the open forever, and a device such as
 * `/dev/zero` or `/dev/tty` would never end or wait for the user — a model can name any of them.
 * At most `maxBytes + 1` bytes are read, whatever `stat` says (see {@link readAtMost}).
 */
export async function readRegularFile(
  file: string,
  maxBytes: number,
  options: ReadRegularFileOptions = {},
): Promise<RegularFileRead> {
  const noFollow = options.noFollow === true ? constants.O_NOFOLLOW : 0;
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | noFollow);
  try {
    const refused = await guardRefusal(
      handle,
      file,
      options.guards ?? [],
      options.expectedRealPath,
    );
    if (refused !== undefined) return { refused };
    const info = await handle.stat();
    if (info.isDirectory()) return { problem: 'directory', size: info.size };
    if (!info.isFile()) return { problem: 'not a regular file', size: info.size };
    if (info.size > maxBytes) return { problem: 'too large', size: info.size };
    let buffer: Buffer | undefined;
    try {
      buffer = await readAtMost(handle, maxBytes, info.size);
    } catch (error) {
      // Some /proc files refuse reads of arbitrary lengths (`/proc/self/pagemap`: multiples of 8).
      if ((error as NodeJS.ErrnoException).code === 'EINVAL') {
        return { problem: 'not a regular file', size: info.size };
      }
      throw error;
    }
    return buffer === undefined ? { problem: 'too large', size: info.size } : { buffer };
  } finally {
    await handle.close();
  }
}

/** What {@link readTextFileSync} found: the text, or why not (`code` is the errno code, if any). */
export type TextFileRead = { text: string } | { problem: string; code?: string };

/**
 * Reads a whole regular file as UTF-8 text, synchronously, for files the CLI itself reads (a
 * scripted-model file, Claude Code settings): at most `maxBytes` plus one byte whatever `stat`
 * says, no FIFO or device. Never throws for what is on disk; `problem` says why it did not read.
 */
export function readTextFileSync(file: string, maxBytes: number): TextFileRead {
  let read: RegularFileSyncRead;
  try {
    read = readRegularFileSync(file, { maxBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: (error as Error).message, ...(code === undefined ? {} : { code }) };
  }
  if ('problem' in read) {
    return {
      problem:
        read.problem === 'too large'
          ? `larger than ${maxBytes} bytes`
          : read.problem === 'directory'
            ? 'it is a directory'
            : 'not a regular file (a device, FIFO or socket)',
    };
  }
  return { text: read.bytes.toString('utf8') };
}
