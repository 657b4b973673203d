import { ConfigError } from './config-error.js';
import { createIssue } from './issues.js';
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
    throw new ConfigError({
      code: 'CONFIG_PARSE_FAILED',
      issues: [
        createIssue({
          file,
          homeDir,
          text: { problem: 'not valid UTF-8', fix: 'save the file as UTF-8' },
        }),
      ],
      cause: error,
    });
  }
  return { bytes, text, mode };
}
