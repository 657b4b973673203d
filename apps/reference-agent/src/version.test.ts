import path from 'node:path';
import { makeTempDir, writeTree } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { cloneCommit, describeVersion } from './version.js';

// Real files laid out as git lays them out; no git process.
const COMMIT = 'abc1234def5678abc1234def5678abc1234def56';
const OTHER = '0123456789abcdef0123456789abcdef01234567';
const PACKAGE = 'apps/reference-agent';

describe('cloneCommit', () => {
  it("reads the branch's loose ref when HEAD names a branch", () => {
    const clone = makeTempDir();
    writeTree(clone, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/refs/heads/main': `${COMMIT}\n`,
      [`${PACKAGE}/package.json`]: '{}',
    });
    expect(cloneCommit(path.join(clone, PACKAGE))).toBe(COMMIT);
  });

  it('reads packed-refs when the branch has no loose ref', () => {
    const clone = makeTempDir();
    writeTree(clone, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/packed-refs': `# pack-refs with: peeled fully-peeled sorted\n${OTHER} refs/heads/other\n${COMMIT} refs/heads/main\n`,
      [`${PACKAGE}/package.json`]: '{}',
    });
    expect(cloneCommit(path.join(clone, PACKAGE))).toBe(COMMIT);
  });

  it('takes a detached HEAD as the commit', () => {
    const clone = makeTempDir();
    writeTree(clone, { '.git/HEAD': `${COMMIT}\n`, [`${PACKAGE}/package.json`]: '{}' });
    expect(cloneCommit(path.join(clone, PACKAGE))).toBe(COMMIT);
  });

  it("follows a worktree's .git file to its git dir and the branches of the common dir", () => {
    const root = makeTempDir();
    writeTree(root, {
      'main/.git/refs/heads/feature': `${COMMIT}\n`,
      'main/.git/worktrees/feature/HEAD': 'ref: refs/heads/feature\n',
      'main/.git/worktrees/feature/commondir': '../..\n',
      'feature/.git': `gitdir: ${path.join(root, 'main/.git/worktrees/feature')}\n`,
      [`feature/${PACKAGE}/package.json`]: '{}',
    });
    expect(cloneCommit(path.join(root, 'feature', PACKAGE))).toBe(COMMIT);
  });

  it('never reads the .git of the project a package is installed in (under node_modules)', () => {
    const project = makeTempDir();
    const installed = 'node_modules/@soong-agent/reference-agent';
    writeTree(project, { '.git/HEAD': `${COMMIT}\n`, [`${installed}/package.json`]: '{}' });
    expect(cloneCommit(path.join(project, installed))).toBeUndefined();
  });

  it('is undefined when HEAD names a branch with no commit yet', () => {
    const clone = makeTempDir();
    writeTree(clone, { '.git/HEAD': 'ref: refs/heads/main\n', [`${PACKAGE}/package.json`]: '{}' });
    expect(cloneCommit(path.join(clone, PACKAGE))).toBeUndefined();
  });
});

describe('describeVersion', () => {
  it('adds the short commit for a build from a clone', () => {
    const clone = makeTempDir();
    writeTree(clone, { '.git/HEAD': `${COMMIT}\n`, [`${PACKAGE}/package.json`]: '{}' });
    expect(describeVersion('1.2.3', path.join(clone, PACKAGE))).toBe(
      '1.2.3 (commit abc1234, from a clone)',
    );
  });

  it('is the bare version for an installed package', () => {
    const project = makeTempDir();
    const installed = 'node_modules/@soong-agent/reference-agent';
    writeTree(project, { '.git/HEAD': `${COMMIT}\n`, [`${installed}/package.json`]: '{}' });
    expect(describeVersion('1.2.3', path.join(project, installed))).toBe('1.2.3');
  });
});
