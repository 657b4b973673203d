import fs from 'node:fs';
import path from 'node:path';
import { createTree, makeTempDir } from '@soong-agent/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPathInside } from './is-path-inside.js';
import { pathForms } from './path-forms.js';
import { type RealpathMemo, realPathOfLongestAncestor } from './real-path.js';

// Where a path leads, found the plain way: one `realpath(3)` per ancestor from the leaf up, a dangling
// symlink followed by reading it, nothing shared, probed or skipped. The memoised, lstat-probing
// resolution must agree with it.
function plainResolve(absolute: string, hops = 0): string {
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(absolute);
      let target: string | undefined;
      try {
        target = fs.lstatSync(current).isSymbolicLink() ? fs.readlinkSync(current) : undefined;
      } catch {
        target = undefined;
      }
      if (target !== undefined && hops < 40) {
        const followed = path.isAbsolute(target)
          ? target
          : `${plainResolve(parent, hops + 1)}/${target}`;
        return path.join(plainResolve(followed, hops + 1), ...rest.reverse());
      }
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

function plainForms(written: string, projectDir: string, homeDir: string): string[] {
  const expanded = written === '~' ? homeDir : written.replace(/^~\//, `${homeDir}/`);
  const normalised = path.resolve(projectDir, expanded);
  const forms = new Set([normalised, plainResolve(normalised)]);
  if (/(^|\/)\.\.(\/|$)/.test(expanded)) {
    forms.add(plainResolve(path.isAbsolute(expanded) ? expanded : `${projectDir}/${expanded}`));
  }
  return [...forms];
}

// Folders, files and symlinks (to folders, to a file, chained, pointing up, dangling, looping), so
// that generated paths often cross a link, climb with `..` after one, or end below a missing folder.
const TREE = ['a/b/file', 'a/other/', 'c/d/', 'e.txt', 'home/.ssh/'];
const LINKS: [link: string, target: string][] = [
  ['l1', 'a'],
  ['c/l2', '../a/b'],
  ['l3', 'c'],
  ['a/up', '..'],
  ['f', 'e.txt'],
  ['dl', 'a/new/made.txt'],
  ['c/dl2', '../dl'],
  ['loop', 'loop'],
  ['hl', 'home'],
];
const segment = fc.oneof(
  fc.constantFrom('a', 'b', 'c', 'd', 'l1', 'l2', 'l3', 'up', 'f', 'file', 'x', '..', '.'),
  fc.constantFrom('dl', 'dl2', 'loop', 'hl', 'home', '.ssh'),
  // Links whose target's parent is not the link's parent, then `..`: only the OS walk gets it right.
  fc.constantFrom('c/l2/..', 'l3/l2/..', 'a/up/..'),
);
const relative = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
// Names that never climb out of the folder they are written in.
const downward = fc
  .array(fc.constantFrom('a', 'b', 'l1', 'up', 'f', 'x', '.', 'dl', 'loop', '.ssh'), {
    minLength: 1,
    maxLength: 4,
  })
  .map((parts) => parts.join('/'));
const written = fc.oneof(
  relative,
  relative.map((value) => `~/${value}`),
  fc.constant('~'),
);

describe('realPathOfLongestAncestor (properties)', () => {
  it('agrees with a plain realpath walk when paths cross symlinks, with or without a shared memo', () => {
    const project = makeTempDir();
    createTree(project, TREE);
    for (const [link, target] of LINKS) fs.symlinkSync(target, path.join(project, link));
    fc.assert(
      fc.property(fc.array(relative, { minLength: 1, maxLength: 5 }), (relatives) => {
        const memo: RealpathMemo = new Map();
        for (const value of relatives) {
          const absolute = `${project}/${value}`;
          const expected = plainResolve(absolute);
          expect(realPathOfLongestAncestor(absolute, memo)).toBe(expected);
          expect(realPathOfLongestAncestor(absolute)).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('pathForms (properties)', () => {
  it('agrees with the plain forms when paths use ~, .. and symlinks', () => {
    const project = makeTempDir();
    createTree(project, TREE);
    for (const [link, target] of LINKS) fs.symlinkSync(target, path.join(project, link));
    const context = { projectDir: project, homeDir: path.join(project, 'hl') };
    fc.assert(
      fc.property(fc.array(written, { minLength: 1, maxLength: 4 }), (values) => {
        const memo: RealpathMemo = new Map();
        for (const value of values) {
          const forms = pathForms(value, context, memo);
          expect(new Set(forms)).toEqual(new Set(plainForms(value, project, context.homeDir)));
          // Normalised by construction: what isNormalizedPathInside may be given.
          for (const form of forms) expect(path.resolve(form)).toBe(form);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('puts a path under a root when a symlinked name for it is written', () => {
    const project = makeTempDir();
    createTree(project, TREE);
    for (const [link, target] of LINKS) fs.symlinkSync(target, path.join(project, link));
    const context = { projectDir: project, homeDir: path.join(project, 'home') };
    fc.assert(
      fc.property(downward, (value) => {
        const inHome = pathForms(`hl/${value}`, context).some((form) =>
          pathForms('~', context).some((root) => isPathInside(form, root)),
        );
        expect(inHome).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
