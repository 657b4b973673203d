import fs from 'node:fs';

/** What {@link readRegularFileSync} found: the bytes and mode, or why it did not read them. */
export type RegularFileSyncRead =
  | { bytes: Buffer; mode: number }
  | {
      problem: 'directory' | 'not a regular file' | 'too large';
      /** What `stat` reports: `/proc` files report 0 however much they yield. */
      size: number;
    };

/** Options of {@link readRegularFileSync}. */
export interface ReadRegularFileSyncOptions {
  /** Larger files are `too large`; at most `maxBytes + 1` bytes are ever read. */
  maxBytes: number;
  /** `false`: a symlink at `file` itself is refused (`ELOOP`). @default true */
  followSymlinks?: boolean;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads a whole file only when it is a regular file of at most `maxBytes`, checked on the open
 * descriptor. Opened without blocking, so a FIFO cannot hang the read, and read to at most
 * `maxBytes + 1` bytes whatever `stat` says: `/proc/self/pagemap` reports 0 bytes and never ends.
 * Throws the `open` error (`ENOENT`, `EACCES`, `ELOOP` for a refused symlink, …) or a read error.
 */
export function readRegularFileSync(
  file: string,
  options: ReadRegularFileSyncOptions,
): RegularFileSyncRead {
  const flags =
    fs.constants.O_RDONLY |
    fs.constants.O_NONBLOCK |
    (options.followSymlinks === false ? fs.constants.O_NOFOLLOW : 0);
  const descriptor = fs.openSync(file, flags);
  try {
    const stat = fs.fstatSync(descriptor);
    if (stat.isDirectory()) return { problem: 'directory', size: stat.size };
    if (!stat.isFile()) return { problem: 'not a regular file', size: stat.size };
    if (stat.size > options.maxBytes) return { problem: 'too large', size: stat.size };
    const limit = options.maxBytes + 1;
    let buffer = Buffer.allocUnsafe(Math.min(limit, Math.max(stat.size + 1, CHUNK_BYTES)));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length === limit) return { problem: 'too large', size: stat.size };
        const grown = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      let read: number;
      try {
        read = fs.readSync(descriptor, buffer, length, buffer.length - length, null);
      } catch (error) {
        // Some /proc files refuse reads of arbitrary lengths (`/proc/self/pagemap`: multiples of 8).
        if ((error as NodeJS.ErrnoException).code === 'EINVAL') {
          return { problem: 'not a regular file', size: stat.size };
        }
        throw error;
      }
      if (read === 0) break;
      length += read;
    }
    return { bytes: buffer.subarray(0, length), mode: stat.mode };
  } finally {
    fs.closeSync(descriptor);
  }
}
