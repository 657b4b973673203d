import path from 'node:path';
import { gitRootHint, isPathInside, realPathOfLongestAncestor } from '@soong-agent/paths';
import type { IssueText } from './issues.js';

/**
 * What is certain at load time about a hook's `working_dir`, already resolved (`~` expanded,
 * relative paths against the project dir): a problem when it lies outside both allowed roots, the
 * project dir and the agent home, so that every run would fail with `cwd_invalid` and a guard fail
 * open. Symlinks are resolved where the path exists (a link into the project is fine); the part
 * that does not exist yet is taken as written. Whether it exists and is a directory is left to run
 * time (a SessionStart hook may create it), where the runner checks it all again.
 */
export function workingDirProblem(options: {
  written: string;
  resolved: string;
  projectDir: string;
  home: string;
}): IssueText | undefined {
  const { written } = options;
  const resolved = path.resolve(options.resolved);
  const roots = [options.projectDir, options.home].map((root) => path.resolve(root));
  if (roots.some((root) => isPathInside(resolved, root))) return undefined;
  const memo = new Map();
  const real = realPathOfLongestAncestor(resolved, memo);
  if (roots.some((root) => isPathInside(real, realPathOfLongestAncestor(root, memo)))) {
    return undefined;
  }
  return {
    problem: `${JSON.stringify(written)} resolves to ${real}, outside the project dir and the agent home: every run of this hook would fail (cwd_invalid)`,
    fix: withGitRootHint(
      'use a directory inside the project dir (relative paths resolve against it) or the agent home',
      gitRootHint({ target: resolved, projectDir: options.projectDir }),
    ),
  };
}

function withGitRootHint(fix: string, hint: string | undefined): string {
  return hint === undefined ? fix : `${fix}; or ${hint}`;
}
