import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Node 20 cannot run `.ts`, and a test must not depend on a stale `dist`: compile this package's
 * sources with tsc into a fresh folder under `node_modules/.cache` (so `@soong-agent/*` imports
 * resolve) and return it with a cleanup function.
 */
export function buildFreshDist(): { dir: string; cleanup(): void } {
  const dir = path.join(
    packageDir,
    'node_modules',
    '.cache',
    `test-dist-${process.pid}-${Date.now()}`,
  );
  const tsc = path.join(
    path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
    'bin',
    'tsc',
  );
  try {
    execFileSync(
      process.execPath,
      [
        tsc,
        '-p',
        'tsconfig.build.json',
        '--outDir',
        dir,
        '--declaration',
        'false',
        '--declarationMap',
        'false',
        '--sourceMap',
        'false',
      ],
      { cwd: packageDir, stdio: 'pipe' },
    );
  } catch (error) {
    // Type errors still emit JavaScript; only a missing output is fatal here.
    if (!fs.existsSync(path.join(dir, 'event-sink.js'))) throw error;
  }
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
