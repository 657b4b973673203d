import fs from 'node:fs';
import path from 'node:path';
import { createTree, makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { type RealpathMemo, realPathOfLongestAncestor } from './real-path.js';

describe('realPathOfLongestAncestor', () => {
  it('returns the real path when the path exists', () => {
    const root = makeTempDir();
    createTree(root, ['a/b/file']);
    fs.symlinkSync('a', path.join(root, 'link'));
    expect(realPathOfLongestAncestor(path.join(root, 'link/b/file'))).toBe(
      path.join(root, 'a/b/file'),
    );
  });

  it('resolves the longest existing ancestor when the path does not exist yet', () => {
    const root = makeTempDir();
    createTree(root, ['a/']);
    fs.symlinkSync('a', path.join(root, 'link'));
    expect(realPathOfLongestAncestor(path.join(root, 'link/new/deeper.txt'))).toBe(
      path.join(root, 'a/new/deeper.txt'),
    );
  });

  it('follows a dangling symlink when writing through it would create its target', () => {
    const root = makeTempDir();
    createTree(root, ['secrets/', 'notes/']);
    fs.symlinkSync('../secrets/new.txt', path.join(root, 'notes/relative.txt'));
    fs.symlinkSync(path.join(root, 'secrets/abs.txt'), path.join(root, 'notes/absolute.txt'));
    expect(realPathOfLongestAncestor(path.join(root, 'notes/relative.txt'))).toBe(
      path.join(root, 'secrets/new.txt'),
    );
    expect(realPathOfLongestAncestor(path.join(root, 'notes/absolute.txt'))).toBe(
      path.join(root, 'secrets/abs.txt'),
    );
  });

  it('follows a chain of dangling symlinks to the last target', () => {
    const root = makeTempDir();
    createTree(root, ['secrets/']);
    fs.symlinkSync('two', path.join(root, 'one'));
    fs.symlinkSync('secrets/missing/file', path.join(root, 'two'));
    expect(realPathOfLongestAncestor(path.join(root, 'one'))).toBe(
      path.join(root, 'secrets/missing/file'),
    );
  });

  it('takes .. after a symlink as the parent of the link target when the OS walks it', () => {
    const root = makeTempDir();
    createTree(root, ['deep/inner/', 'project/']);
    fs.symlinkSync(path.join(root, 'deep/inner'), path.join(root, 'project/link'));
    expect(realPathOfLongestAncestor(`${root}/project/link/../new.txt`)).toBe(
      path.join(root, 'deep/new.txt'),
    );
  });

  it('returns a path without throwing when symlinks loop', () => {
    const root = makeTempDir();
    fs.symlinkSync('b', path.join(root, 'a'));
    fs.symlinkSync('a', path.join(root, 'b'));
    fs.symlinkSync('self', path.join(root, 'self'));
    const looped = realPathOfLongestAncestor(path.join(root, 'a/x'));
    expect(path.dirname(path.dirname(looped))).toBe(root);
    expect(realPathOfLongestAncestor(path.join(root, 'self'))).toBe(path.join(root, 'self'));
  });

  it('normalises without resolving when the path is longer than the OS accepts', () => {
    const long = `/nonexistent-soong-paths/${'a/'.repeat(2100)}../b`;
    expect(realPathOfLongestAncestor(long)).toBe(path.resolve(long));
  });

  it('gives the same answer when a memo is shared between paths', () => {
    const root = makeTempDir();
    createTree(root, ['a/b/']);
    fs.symlinkSync('a', path.join(root, 'link'));
    const memo: RealpathMemo = new Map();
    const targets = ['link/b/x', 'link/b', 'link/missing/y', 'link/missing/z', 'a/b/x'];
    const shared = targets.map((target) =>
      realPathOfLongestAncestor(path.join(root, target), memo),
    );
    const fresh = targets.map((target) => realPathOfLongestAncestor(path.join(root, target)));
    expect(shared).toEqual(fresh);
    expect(memo.size).toBeGreaterThan(0);
  });

  it('throws a TypeError when the path is relative', () => {
    expect(() => realPathOfLongestAncestor('relative/path')).toThrow(TypeError);
  });
});
