import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

// The git dir of the work tree at `root`: `.git` itself, or where a `.git` file (a worktree, a
// submodule) points with `gitdir: <path>`.
function gitDirAt(root: string): string | undefined {
  const dotGit = path.join(root, '.git');
  const stat = statSync(dotGit, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  if (stat.isDirectory()) return dotGit;
  const pointer = /^gitdir: (.+)$/m.exec(readText(dotGit) ?? '')?.[1]?.trim();
  return pointer === undefined ? undefined : path.resolve(root, pointer);
}

// A branch's commit: its loose ref file, else its line in packed-refs (in the common dir of a
// worktree, where branches live).
function resolveRef(gitDir: string, ref: string): string | undefined {
  const common = readText(path.join(gitDir, 'commondir'))?.trim();
  const dirs = [gitDir, ...(common === undefined ? [] : [path.resolve(gitDir, common)])];
  for (const dir of dirs) {
    const loose = readText(path.join(dir, ref))?.trim();
    if (loose !== undefined && COMMIT.test(loose)) return loose;
  }
  for (const dir of dirs) {
    for (const line of (readText(path.join(dir, 'packed-refs')) ?? '').split('\n')) {
      const [commit, name] = line.trim().split(' ');
      if (name === ref && commit !== undefined && COMMIT.test(commit)) return commit;
    }
  }
  return undefined;
}

/**
 * The commit checked out in the git clone this package is part of, read from `.git` (HEAD, then
 * its branch's ref file or packed-refs; no `git` process), or undefined when the package is not in
 * a clone. A package under a `node_modules` dir is an install, not a clone: the `.git` above it is
 * some other project's, so it is never looked at.
 */
export function cloneCommit(packageDir: string | URL): string | undefined {
  const start = path.resolve(
    typeof packageDir === 'string' ? packageDir : fileURLToPath(packageDir),
  );
  if (start.split(path.sep).includes('node_modules')) return undefined;
  for (let dir = start; ; dir = path.dirname(dir)) {
    const gitDir = gitDirAt(dir);
    if (gitDir !== undefined) {
      const head = readText(path.join(gitDir, 'HEAD'))?.trim();
      if (head === undefined) return undefined;
      if (COMMIT.test(head)) return head;
      const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
      return ref === undefined ? undefined : resolveRef(gitDir, ref);
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * What `soong-agent --version` prints: the package version, and for a build from a git clone the
 * commit, e.g. `0.0.0 (commit abc1234, from a clone)`. Only `--version` calls it (it reads a few
 * small files; a start without `--version` reads none).
 */
export function describeVersion(version: string, packageDir: string | URL): string {
  const commit = cloneCommit(packageDir);
  return commit === undefined ? version : `${version} (commit ${commit.slice(0, 7)}, from a clone)`;
}
