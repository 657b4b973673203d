import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** What {@link readRegularFile} found: the bytes, or why it did not read them. */
export type RegularFileRead =
  | { buffer: Buffer }
  | { problem: 'directory' | 'not a regular file' | 'too large'; size: number };

/**
 * Reads a whole file only when it is a regular file of at most `maxBytes`. Opened without blocking
 * and checked on the open descriptor: a FIFO would block the open forever, and a device such as
 * `/dev/zero` or `/dev/tty` would never end or wait for the user — a model can name any of them.
 */
export async function readRegularFile(file: string, maxBytes: number): Promise<RegularFileRead> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { problem: 'directory', size: info.size };
    if (!info.isFile()) return { problem: 'not a regular file', size: info.size };
    if (info.size > maxBytes) return { problem: 'too large', size: info.size };
    return { buffer: await handle.readFile() };
  } finally {
    await handle.close();
  }
}
