import fs from 'node:fs';
import path from 'node:path';
import { isPathInside } from './is-path-inside.js';
import { realPathOfLongestAncestor } from './real-path.js';

/**
 * The nearest directory at or above `dir` (absolute) that holds a `.git` entry: a folder, or the
 * file of a linked worktree or submodule. Undefined when there is none up to `/`.
 */
export function findGitRoot(dir: string): string | undefined {
  let current = path.resolve(dir);
  for (;;) {
    if (fs.existsSync(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/**
 * The one hint for a path refused as outside the project dir (a write tool's path, a hook's
 * `working_dir`, a run's cwd), worded for the user: when the project dir lies below a git root and
 * the refused path lies inside that root, the user most likely meant the whole repository, so the
 * hint names the root and the `--project` flag that makes it the project dir. Undefined otherwise
 * (no git root above, or the path is outside the repository too). Both paths absolute; each is
 * compared as written and with symlinks resolved, like every path rule.
 */
export function gitRootHint(options: { target: string; projectDir: string }): string | undefined {
  const projectDir = path.resolve(options.projectDir);
  const gitRoot = findGitRoot(projectDir);
  if (gitRoot === undefined || gitRoot === projectDir) return undefined;
  const memo = new Map();
  const target = path.resolve(options.target);
  const targets = [target, realPathOfLongestAncestor(target, memo)];
  const roots = [gitRoot, realPathOfLongestAncestor(gitRoot, memo)];
  if (!targets.some((form) => roots.some((root) => isPathInside(form, root)))) return undefined;
  return `the project dir ${projectDir} lies below the git root ${gitRoot}: to work on the whole repository, make it the project dir (--project ${gitRoot})`;
}
