import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, type TestContext } from 'vitest';

// Temp dirs made with makeTempDir are removed after each test of the file that imports this module.
const created: string[] = [];

try {
  afterEach(() => {
    for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
} catch {
  // Imported outside a test file (a vitest global setup loads a helper that imports this
  // package): there is no test to clean up after, and makeTempDir is not called there.
}

function newTempDir(prefix: string): string {
  // realpath: macOS and some CI tmpdirs are symlinks, and the code under test resolves symlinks.
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** A fresh temp dir (its real path) under the OS temp dir, removed after the current test. */
export function makeTempDir(prefix = 'soong-test-'): string {
  const dir = newTempDir(prefix);
  created.push(dir);
  return dir;
}

/** A fresh temp dir removed when the test of `context` finishes (safe in concurrent tests). */
export function tempDirFor(
  context: Pick<TestContext, 'onTestFinished'>,
  prefix = 'soong-test-',
): string {
  const dir = newTempDir(prefix);
  context.onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A temp dir the caller removes (a `beforeAll` shared by a file's tests): returns it and its remover. */
export function makeLongLivedTempDir(prefix = 'soong-test-'): { dir: string; remove(): void } {
  const dir = newTempDir(prefix);
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Writes files (relative path → content) under `root`, creating folders; returns `root`. */
export function writeTree(root: string, files: Readonly<Record<string, string>>): string {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return root;
}

/** Creates the directories and empty files named under `root` (an entry ending in `/` is a directory). */
export function createTree(root: string, entries: readonly string[]): void {
  for (const entry of entries) {
    const target = path.join(root, entry);
    if (entry.endsWith('/')) {
      fs.mkdirSync(target, { recursive: true });
    } else {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, '');
    }
  }
}
