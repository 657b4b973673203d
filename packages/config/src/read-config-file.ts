import { ConfigError } from './config-error.js';
import { createIssue, type Position } from './issues.js';
import { type RegularFileSyncRead, readRegularFileSync } from './read-regular-file.js';

/** Larger configuration files are refused rather than read. */
export const MAX_CONFIG_FILE_BYTES = 16 * 1024 * 1024;

/** A configuration file's bytes and mode. */
export interface ConfigFileContent {
  bytes: Buffer;
  text: string;
  mode: number;
}

const REASONS: Record<string, { problem: string; fix: string }> = {
  EISDIR: { problem: 'is a directory', fix: 'replace it with a file or remove it' },
  EACCES: { problem: 'permission denied', fix: 'make it readable (chmod u+r)' },
  EPERM: { problem: 'operation not permitted', fix: 'make it readable (chmod u+r)' },
  ENOTDIR: {
    problem: 'a parent of it is not a directory',
    fix: 'point the agent home at a directory',
  },
  ELOOP: { problem: 'symlink loop', fix: 'fix the symlink' },
};

/**
 * Reads a configuration file. A missing file (or missing home) is `undefined`: defaults. Anything
 * else that stops the read is a `CONFIG_READ_FAILED` error, never a silent default. Opens without
 * blocking and reads only regular files, so a FIFO named hooks.json cannot hang the agent.
 */
export function readConfigFile(file: string, homeDir: string): ConfigFileContent | undefined {
  const fail = (text: { problem: string; fix: string }, cause?: unknown): never => {
    throw new ConfigError({
      code: 'CONFIG_READ_FAILED',
      issues: [
        createIssue({
          file,
          homeDir,
          text: { problem: `cannot read: ${text.problem}`, fix: text.fix },
        }),
      ],
      cause,
    });
  };
  let read: RegularFileSyncRead;
  try {
    read = readRegularFileSync(file, { maxBytes: MAX_CONFIG_FILE_BYTES });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT') return undefined;
    return fail(REASONS[code] ?? { problem: code || String(error), fix: 'check the file' }, error);
  }
  if ('problem' in read) {
    if (read.problem === 'directory')
      return fail(REASONS.EISDIR as { problem: string; fix: string });
    if (read.problem === 'not a regular file')
      return fail({ problem: 'not a regular file', fix: 'replace it with a regular file' });
    return fail({
      // `/proc` files report 0 bytes: then only the read found it larger.
      problem: `${read.size > MAX_CONFIG_FILE_BYTES ? read.size : `more than ${MAX_CONFIG_FILE_BYTES}`} bytes is too large (at most ${MAX_CONFIG_FILE_BYTES})`,
      fix: 'this is not a configuration file; replace it',
    });
  }
  const { bytes, mode } = read;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    const offset = firstInvalidUtf8Byte(bytes);
    throw new ConfigError({
      code: 'CONFIG_PARSE_FAILED',
      issues: [
        createIssue({
          file,
          homeDir,
          position: bytePosition(bytes, offset),
          text: {
            problem: `not valid UTF-8: byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0')} at byte offset ${offset}`,
            fix: 'save the file as UTF-8',
          },
        }),
      ],
      cause: error,
    });
  }
  return { bytes, text, mode };
}

/**
 * The offset of the first byte that starts no valid UTF-8 sequence (a stray continuation byte, an
 * overlong form, a surrogate, a value past U+10FFFF, or a sequence cut short), as the WHATWG
 * decoder judges; `bytes.length` when every byte is valid.
 */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    if (lead < 0x80) {
      index++;
      continue;
    }
    // [continuation bytes, lowest and highest allowed second byte]
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead === 0xe0) [need, low] = [2, 0xa0];
    else if (lead === 0xed) [need, high] = [2, 0x9f];
    else if (lead >= 0xe1 && lead <= 0xef) need = 2;
    else if (lead === 0xf0) [need, low] = [3, 0x90];
    else if (lead === 0xf4) [need, high] = [3, 0x8f];
    else if (lead >= 0xf1 && lead <= 0xf3) need = 3;
    else return index;
    for (let next = 1; next <= need; next++) {
      const byte = bytes[index + next];
      const [min, max] = next === 1 ? [low, high] : [0x80, 0xbf];
      if (byte === undefined || byte < min || byte > max) return index;
    }
    index += need + 1;
  }
  return bytes.length;
}

/** 1-based line and column (UTF-16 units, as other positions) of a byte offset; the prefix is valid UTF-8. */
function bytePosition(bytes: Uint8Array, offset: number): Position {
  const lineStart = offset === 0 ? 0 : bytes.lastIndexOf(0x0a, offset - 1) + 1;
  let line = 1;
  for (let index = 0; index < lineStart; index++) if (bytes[index] === 0x0a) line++;
  // A byte order mark is not part of the text (the decoder drops it), so not counted either.
  const before = new TextDecoder('utf-8').decode(bytes.subarray(lineStart, offset));
  return { line, column: before.length + 1 };
}
