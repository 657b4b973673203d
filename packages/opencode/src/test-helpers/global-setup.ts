import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    opencodeBin: string;
    pluginPackageDir: string;
  }
}

/** The OpenCode the tests run: the npm package, cached outside the repo. */
export const OPENCODE_SPEC = 'opencode-ai@1.18.33';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Installs OpenCode into `~/.cache/soong-agent-hosts/opencode` when missing (npm registry), and
 * builds this package into a private folder laid out as the installed package (package.json, dist,
 * its dependencies through node_modules), which the projects' `.opencode/node_modules` link to:
 * the plugin OpenCode loads is the built package, not the TypeScript sources.
 */
export default function setup(project: TestProject): () => void {
  const cache = execFileSync(
    process.execPath,
    [path.join(PACKAGE_DIR, '../../scripts/host-cache.mjs'), 'opencode', OPENCODE_SPEC],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  ).trim();
  project.provide('opencodeBin', path.join(cache, 'node_modules', '.bin', 'opencode'));

  const built = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'soong-opencode-pkg-')));
  execFileSync(
    findTsc(),
    [
      '-p',
      'tsconfig.build.json',
      '--outDir',
      path.join(built, 'dist'),
      '--declaration',
      'false',
      '--declarationMap',
      'false',
      '--sourceMap',
      'false',
    ],
    { cwd: PACKAGE_DIR, stdio: 'inherit' },
  );
  fs.copyFileSync(path.join(PACKAGE_DIR, 'package.json'), path.join(built, 'package.json'));
  fs.symlinkSync(path.join(PACKAGE_DIR, 'node_modules'), path.join(built, 'node_modules'));
  project.provide('pluginPackageDir', built);
  return () => fs.rmSync(built, { recursive: true, force: true });
}

function findTsc(): string {
  for (let dir = PACKAGE_DIR; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', '.bin', 'tsc');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error('tsc not found above the package');
  }
}
