import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findGitRoot, gitRootHint } from './git-root-hint.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// A repository <root>/repo (a real .git folder) with a project dir two levels below it.
function repository() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'soong-paths-git-')));
  made.push(root);
  const repo = path.join(root, 'repo');
  const project = path.join(repo, 'packages', 'app');
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  fs.mkdirSync(path.join(repo, 'shared'));
  return { root, repo, project };
}

describe('findGitRoot', () => {
  it('finds the nearest folder with a .git entry at or above the dir, a worktree .git file too', () => {
    const { root, repo, project } = repository();
    expect(findGitRoot(project)).toBe(repo);
    expect(findGitRoot(repo)).toBe(repo);
    fs.writeFileSync(path.join(project, '.git'), 'gitdir: /elsewhere\n');
    expect(findGitRoot(project)).toBe(project);
    expect(findGitRoot(root)).toBe(findGitRoot(path.dirname(root)));
  });
});

describe('gitRootHint', () => {
  it('names the git root and --project when a refused path lies in the repository above the project dir', () => {
    const { repo, project } = repository();
    const hint = gitRootHint({
      target: path.join(project, '..', '..', 'shared', 'x'),
      projectDir: project,
    });
    expect(hint).toBe(
      `the project dir ${project} lies below the git root ${repo}: to work on the whole repository, make it the project dir (--project ${repo})`,
    );
  });

  it('follows a symlink in the project that leads into the repository', () => {
    const { repo, project } = repository();
    fs.symlinkSync(path.join(repo, 'shared'), path.join(project, 'link'));
    // As written the path is inside the project; it really leads to the repository's shared/.
    expect(gitRootHint({ target: path.join(project, 'link', 'x'), projectDir: project })).toContain(
      `--project ${repo}`,
    );
  });

  it('gives nothing when the path is outside the repository too, or the project dir is the git root', () => {
    const { root, repo, project } = repository();
    expect(gitRootHint({ target: path.join(root, 'other'), projectDir: project })).toBeUndefined();
    expect(gitRootHint({ target: path.join(repo, 'shared'), projectDir: repo })).toBeUndefined();
    expect(gitRootHint({ target: path.join(root, 'x'), projectDir: root })).toBeUndefined();
  });
});
