// The TypeScript sources the shape checks read: every workspace under packages/ and apps/, its src/
// tree, and which of those files are tests (a test, a test helper, a fixture).
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in scripts/). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Each workspace with a src/ dir: `{ name: 'packages/runner', src: '/abs/packages/runner/src' }`. */
export function workspaces() {
  return ['packages', 'apps']
    .flatMap((group) =>
      existsSync(join(ROOT, group))
        ? readdirSync(join(ROOT, group)).map((name) => `${group}/${name}`)
        : [],
    )
    .map((name) => ({ name, src: join(ROOT, name, 'src') }))
    .filter((workspace) => existsSync(workspace.src))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Every `.ts`/`.mts`/`.tsx` file under `dir` (no declaration files), absolute, sorted. */
export function typeScriptFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist')
        files.push(...typeScriptFiles(path));
    } else if (/\.(m?ts|tsx)$/.test(entry.name) && !/\.d\.m?ts$/.test(entry.name)) {
      files.push(path);
    }
  }
  return files.sort();
}

/** True for a test file, a test helper or a fixture: `x.test.ts`, `test-helpers/`, `__fixtures__/`. */
export function isTestFile(path) {
  const parts = path.split(sep);
  return (
    /\.test(-d)?\.m?tsx?$/.test(path) ||
    parts.includes('test-helpers') ||
    parts.some((part) => /^__.+__$/.test(part))
  );
}

/** `path` relative to the repository root, with forward slashes (how reports and allow-lists name files). */
export function repoPath(path) {
  return relative(ROOT, path).split(sep).join('/');
}
