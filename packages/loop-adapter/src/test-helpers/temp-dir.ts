import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, type TestContext } from 'vitest';

/** A fresh temp dir (real path) under the OS temp dir. */
export function makeTempDir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loop-adapter-')));
}

/** A fresh temp dir per call, removed after the current test (serial tests only). */
export function useTempDirs(): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = makeTempDir();
    dirs.push(dir);
    return dir;
  };
}

/** A fresh temp dir removed when the test of `context` finishes (safe in concurrent tests). */
export function tempDirFor(context: Pick<TestContext, 'onTestFinished'>): string {
  const dir = makeTempDir();
  context.onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
