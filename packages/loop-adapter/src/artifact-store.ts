import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type RegularFileSyncRead, readRegularFileSync } from '@soong-agent/config';
import type { ArtifactRef } from '@soong-agent/protocol';
import { LoopAdapterError } from './loop-adapter-error.js';

/** Content-addressed storage for large tool results and tool inputs. */
export interface ArtifactStore {
  /**
   * Stores `content` (a string is stored as UTF-8) and returns its ref. Always writes: storing the
   * same bytes twice writes them again under the same name, so a file planted at that name (whose
   * name anyone can compute) is replaced, never trusted.
   */
  put(content: string | Uint8Array): Promise<ArtifactRef>;
  /**
   * The stored bytes of `ref` (looked up by its sha256, verified; at most
   * {@link ARTIFACT_READ_MAX_BYTES}, a regular file, not a symlink). Throws `ARTIFACT_NOT_FOUND`.
   */
  read(ref: Pick<ArtifactRef, 'sha256'>): Promise<Buffer>;
  /** The folder the artifacts live in (absolute). */
  readonly dir: string;
}

const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/** {@link ArtifactStore.read} reads at most this many bytes (plus one, to see that there are more). */
export const ARTIFACT_READ_MAX_BYTES = 256 * 1024 * 1024;

/**
 * An {@link ArtifactStore} in `dir`: one file per content, named by its lowercase hex sha256
 * (which is also the ref's `id`); folder mode 0700, files 0600; each file is written to a
 * temporary name and renamed over whatever is at its name, so a reader never sees half an artifact
 * and never content planted at a predictable name.
 */
export function createFileArtifactStore(dir: string): ArtifactStore {
  const root = path.resolve(dir);
  let ready: Promise<unknown> | undefined;
  return {
    dir: root,
    async put(content) {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
      const file = path.join(root, sha256);
      const ref: ArtifactRef = { id: sha256, path: file, bytes: bytes.byteLength, sha256 };
      ready ??= fs.mkdir(root, { recursive: true, mode: 0o700 });
      await ready;
      const temporary = path.join(
        root,
        `.tmp-${sha256.slice(0, 16)}-${crypto.randomBytes(4).toString('hex')}`,
      );
      try {
        await fs.writeFile(temporary, bytes, { mode: 0o600, flag: 'wx' });
        await fs.rename(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
      return ref;
    },
    async read(ref) {
      if (!SHA256_PATTERN.test(ref.sha256)) {
        throw new LoopAdapterError({
          code: 'ARTIFACT_INVALID',
          message: `artifact ref sha256 ${JSON.stringify(ref.sha256)} is not 64 lowercase hex digits`,
        });
      }
      const file = path.join(root, ref.sha256);
      let read: RegularFileSyncRead;
      try {
        read = readRegularFileSync(file, {
          maxBytes: ARTIFACT_READ_MAX_BYTES,
          followSymlinks: false,
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new LoopAdapterError({
          code: code === 'ENOENT' ? 'ARTIFACT_NOT_FOUND' : 'ARTIFACT_INVALID',
          message:
            code === 'ENOENT'
              ? `artifact ${ref.sha256} is not in ${root}`
              : `artifact ${ref.sha256} in ${root} cannot be read: ${code === 'ELOOP' ? 'it is a symlink (refused)' : (error as Error).message}`,
          cause: error,
        });
      }
      if ('problem' in read) {
        throw new LoopAdapterError({
          code: 'ARTIFACT_INVALID',
          message: `artifact ${ref.sha256} in ${root} is ${read.problem === 'too large' ? `larger than ${ARTIFACT_READ_MAX_BYTES} bytes` : `not a regular file (${read.problem})`}`,
        });
      }
      const bytes = read.bytes;
      if (crypto.createHash('sha256').update(bytes).digest('hex') !== ref.sha256) {
        throw new LoopAdapterError({
          code: 'ARTIFACT_INVALID',
          message: `artifact ${ref.sha256} in ${root} does not match its hash (edited on disk?)`,
        });
      }
      return bytes;
    },
  };
}
