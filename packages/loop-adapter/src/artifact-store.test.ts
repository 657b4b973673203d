import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ArtifactRefSchema } from '@soong-agent/protocol/internal';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { createFileArtifactStore } from './artifact-store.js';
import { LoopAdapterError } from './loop-adapter-error.js';

const tempDir = () => makeTempDir();

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return LoopAdapterError.isInstance(error) ? error.code : 'not a LoopAdapterError';
  }
  return undefined;
}

describe('createFileArtifactStore', () => {
  it('stores content under its sha256 with modes 0700/0600 when putting a string', async () => {
    const dir = path.join(tempDir(), 'artifacts');
    const store = createFileArtifactStore(dir);
    const text = 'héllo\n'.repeat(1000);
    const ref = await store.put(text);
    const sha256 = crypto.createHash('sha256').update(text).digest('hex');
    expect(ArtifactRefSchema.parse(ref)).toEqual({
      id: sha256,
      path: path.join(dir, sha256),
      bytes: Buffer.byteLength(text),
      sha256,
    });
    expect(fs.readFileSync(ref.path, 'utf8')).toBe(text);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(ref.path).mode & 0o777).toBe(0o600);
    expect((await store.read(ref)).toString('utf8')).toBe(text);
  });

  it('returns the same ref and leaves one file when putting the same bytes twice', async () => {
    const store = createFileArtifactStore(tempDir());
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const [first, second] = await Promise.all([store.put(bytes), store.put(bytes)]);
    const third = await store.put(Buffer.from(bytes));
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(fs.readdirSync(store.dir)).toEqual([first.sha256]);
  });

  it('throws ARTIFACT_NOT_FOUND when reading a ref that was never stored', async () => {
    const store = createFileArtifactStore(tempDir());
    expect(await codeOf(store.read({ sha256: 'a'.repeat(64) }))).toBe('ARTIFACT_NOT_FOUND');
  });

  it('throws ARTIFACT_INVALID when the ref is not a hash or the file was edited', async () => {
    const store = createFileArtifactStore(tempDir());
    expect(await codeOf(store.read({ sha256: '../../etc/passwd' }))).toBe('ARTIFACT_INVALID');
    const ref = await store.put('original');
    fs.writeFileSync(ref.path, 'edited!!');
    expect(await codeOf(store.read(ref))).toBe('ARTIFACT_INVALID');
  });

  it('replaces a file planted at the artifact name with the same size when putting', async () => {
    // The name is the content's sha256, so an attacker can plant it before the agent stores it.
    const store = createFileArtifactStore(tempDir());
    const content = 'rm -rf / # the real tool input';
    const sha256 = crypto.createHash('sha256').update(content).digest('hex');
    fs.mkdirSync(store.dir, { recursive: true });
    const planted = 'x'.repeat(Buffer.byteLength(content));
    fs.writeFileSync(path.join(store.dir, sha256), planted, { mode: 0o644 });
    const ref = await store.put(content);
    expect(fs.readFileSync(ref.path, 'utf8')).toBe(content);
    expect(fs.statSync(ref.path).mode & 0o777).toBe(0o600);
    expect((await store.read(ref)).toString('utf8')).toBe(content);
  });

  it('replaces a symlink planted at the artifact name and leaves its target alone', async () => {
    const root = tempDir();
    const store = createFileArtifactStore(path.join(root, 'artifacts'));
    const content = 'tool output';
    const sha256 = crypto.createHash('sha256').update(content).digest('hex');
    fs.mkdirSync(store.dir, { recursive: true });
    fs.writeFileSync(path.join(root, 'target'), 'y'.repeat(content.length));
    fs.symlinkSync(path.join(root, 'target'), path.join(store.dir, sha256));
    const ref = await store.put(content);
    expect(fs.lstatSync(ref.path).isFile()).toBe(true);
    expect(fs.readFileSync(ref.path, 'utf8')).toBe(content);
    expect(fs.readFileSync(path.join(root, 'target'), 'utf8')).toBe('y'.repeat(content.length));
  });

  it('throws ARTIFACT_INVALID when the artifact is a symlink, even to the right content', async () => {
    const root = tempDir();
    const store = createFileArtifactStore(path.join(root, 'artifacts'));
    const ref = await store.put('content');
    fs.renameSync(ref.path, path.join(root, 'moved'));
    fs.symlinkSync(path.join(root, 'moved'), ref.path);
    expect(await codeOf(store.read(ref))).toBe('ARTIFACT_INVALID');
  });

  it('throws ARTIFACT_INVALID at once when the artifact is a FIFO', async () => {
    const store = createFileArtifactStore(tempDir());
    const ref = await store.put('content');
    fs.rmSync(ref.path);
    execFileSync('mkfifo', [ref.path]);
    expect(await codeOf(store.read(ref))).toBe('ARTIFACT_INVALID');
  });
});
