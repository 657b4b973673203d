import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactRef } from '@soong-agent/protocol';
import { LoopAdapterError } from './loop-adapter-error.js';

/** Content-addressed storage for large tool results and tool inputs. */
export interface ArtifactStore {
  /** Stores `content` (a string is stored as UTF-8) and returns its ref; storing the same bytes twice is a no-op. */
  put(content: string | Uint8Array): Promise<ArtifactRef>;
  /** The stored bytes of `ref` (looked up by its sha256, verified). Throws `ARTIFACT_NOT_FOUND`. */
  read(ref: Pick<ArtifactRef, 'sha256'>): Promise<Buffer>;
  /** The folder the artifacts live in (absolute). */
  readonly dir: string;
}

const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/**
 * An {@link ArtifactStore} in `dir`: one file per content, named by its lowercase hex sha256
 * (which is also the ref's `id`); folder mode 0700, files 0600; each file is written to a
 * temporary name and renamed, so a reader never sees half an artifact.
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
      const existing = await fs.stat(file).catch(() => undefined);
      if (existing?.isFile() && existing.size === bytes.byteLength) return ref;
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
      let bytes: Buffer;
      try {
        bytes = await fs.readFile(path.join(root, ref.sha256));
      } catch (error) {
        throw new LoopAdapterError({
          code: 'ARTIFACT_NOT_FOUND',
          message: `artifact ${ref.sha256} is not in ${root}`,
          cause: error,
        });
      }
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
