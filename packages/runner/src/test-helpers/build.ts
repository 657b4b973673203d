import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

/** The package directory (packages/runner). */
export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A fixture script in src/__fixtures__. */
export function fixture(name: string): string {
  return path.join(PACKAGE_DIR, 'src', '__fixtures__', name);
}

function findTsc(): string {
  for (let dir = PACKAGE_DIR; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', '.bin', 'tsc');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir)
      throw new Error('tsc not found in any node_modules/.bin above the package');
  }
}

/**
 * Compile the package into a private folder inside the package (so `execa` resolves from it) for
 * fixtures that run in a separate Node process (Node 20 cannot run .ts). A private folder rather
 * than dist/, because turbo may be building dist/ at the same time. Returns the entry file URL
 * and a cleanup function.
 */
export function buildForFixtures(): { entryUrl: string; cleanup: () => void } {
  const outDir = fs.mkdtempSync(path.join(PACKAGE_DIR, '.test-build-'));
  execFileSync(
    findTsc(),
    [
      '-p',
      'tsconfig.build.json',
      '--outDir',
      outDir,
      '--declaration',
      'false',
      '--declarationMap',
      'false',
      '--sourceMap',
      'false',
    ],
    { cwd: PACKAGE_DIR, stdio: 'pipe' },
  );
  return {
    entryUrl: new URL(`file://${path.join(outDir, 'index.js')}`).href,
    cleanup: () => fs.rmSync(outDir, { recursive: true, force: true }),
  };
}

/**
 * The entry file URL of the package compiled once for the whole test run (by the global setup,
 * with {@link buildForFixtures}), for fixtures that run in a separate Node process.
 */
export function builtEntryUrl(): string {
  return inject('runnerEntryUrl');
}
