import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { forgetSharedDescriptor } from './posix-spawner.js';

// RAM-backed where the system has it: the payload (which may hold secrets) never reaches a disk.
const SHARED_MEMORY_DIR = '/dev/shm';
let inputDir: string | undefined;

/**
 * Write `input` to a new file (mode 0600, created exclusively) and return a read-only descriptor
 * of it, after unlinking the file: the child gets a regular file as stdin that no other process
 * can open by name. Unlike the socket Node gives a child for `stdin: 'pipe'`, such a stdin can be
 * reopened through `/dev/stdin` (`jq . /dev/stdin`, `$(</dev/stdin)`, `open('/dev/stdin')`), and a
 * child that never reads it cannot block anything. Returns undefined when no file can be written
 * (the caller then falls back to a pipe).
 */
export function openInputFile(input: string | Uint8Array): number | undefined {
  const file = path.join(
    directory(),
    `soong-agent-stdin-${process.pid}-${randomBytes(8).toString('hex')}`,
  );
  const { O_CREAT, O_EXCL, O_WRONLY, O_RDONLY, O_NOFOLLOW } = fs.constants;
  let writeFd: number;
  try {
    writeFd = fs.openSync(file, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600);
  } catch {
    return undefined;
  }
  try {
    const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(writeFd, bytes, written);
    return fs.openSync(file, O_RDONLY | O_NOFOLLOW);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(writeFd);
    try {
      fs.unlinkSync(file);
    } catch {
      // already gone: nothing to clean up
    }
  }
}

function directory(): string {
  if (inputDir === undefined) {
    inputDir = os.tmpdir();
    try {
      if (fs.statSync(SHARED_MEMORY_DIR).isDirectory()) {
        fs.accessSync(SHARED_MEMORY_DIR, fs.constants.W_OK | fs.constants.X_OK);
        inputDir = SHARED_MEMORY_DIR;
      }
    } catch {
      // no shared memory folder: the temp dir it is
    }
  }
  return inputDir;
}

// The child's stdin: /dev/null without input; with input, a read-only descriptor of an unlinked
// file holding it (see openInputFile), or a pipe when no such file could be written.
export interface Stdin {
  value: 'ignore' | 'pipe' | number;
  /** Our copy of the descriptor (the child has its own): closed once, at spawn failure or settle. */
  close(): void;
}

export function stdinOf(input: string | Uint8Array | undefined): Stdin {
  const fd = input === undefined ? undefined : openInputFile(input);
  if (fd === undefined) return { value: input === undefined ? 'ignore' : 'pipe', close: noop };
  let open = true;
  return {
    value: fd,
    close() {
      // Closing twice could close a descriptor number reused by someone else.
      if (!open) return;
      open = false;
      fs.closeSync(fd);
      forgetSharedDescriptor(fd);
    },
  };
}

function noop(): void {}
