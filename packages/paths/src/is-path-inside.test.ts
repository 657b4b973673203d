import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNormalizedPathInside, isPathInside } from './is-path-inside.js';

// The rule written as plainly as possible: split both normalised paths into segments and compare
// them one by one.
function segmentsInside(target: string, root: string): boolean {
  const split = (value: string) => path.resolve(value).split('/').filter(Boolean);
  const targetSegments = split(target);
  const rootSegments = split(root);
  return (
    rootSegments.length <= targetSegments.length &&
    rootSegments.every((segment, index) => targetSegments[index] === segment)
  );
}

const name = fc.constantFrom('a', 'b', 'ab', 'a.b', '.a', '..a', 'a..', 'A', '-', ' ');
const noise = fc.constantFrom('.', '..', '');
const normalisedPath = fc.array(name, { maxLength: 4 }).map((parts) => `/${parts.join('/')}`);
// Absolute paths as a user or an attacker writes them: `.`, `..`, `//` and trailing separators.
const writtenPath = fc
  .tuple(fc.array(fc.oneof(name, noise), { maxLength: 5 }), fc.boolean())
  .map(([parts, trailing]) => `/${parts.join('/')}${trailing ? '/' : ''}`);

describe('isPathInside', () => {
  it('is true when the target is the root or lies under it', () => {
    expect(isPathInside('/a/b', '/a/b')).toBe(true);
    expect(isPathInside('/a/b/c', '/a/b')).toBe(true);
    expect(isPathInside('/x', '/')).toBe(true);
    expect(isPathInside('/', '/')).toBe(true);
  });

  it('is false when the target only shares a name prefix or lies above the root', () => {
    expect(isPathInside('/a/bc', '/a/b')).toBe(false);
    expect(isPathInside('/a', '/a/b')).toBe(false);
    expect(isPathInside('/', '/a')).toBe(false);
    expect(isPathInside('/A/b', '/a')).toBe(false);
  });

  it('is true when a name inside the root only starts with two dots', () => {
    expect(isPathInside('/p/..notes', '/p')).toBe(true);
    expect(isPathInside('/p/..', '/p')).toBe(false);
  });

  it('normalises dot segments and separators when the paths are not normalised', () => {
    expect(isPathInside('/p/../etc/passwd', '/p')).toBe(false);
    expect(isPathInside('/p/./a//b/', '/p/a/')).toBe(true);
    expect(isPathInside('/p/a', '/p/a/')).toBe(true);
    expect(isPathInside('/q/../p/x', '/p')).toBe(true);
  });

  it('throws a TypeError when either path is relative', () => {
    expect(() => isPathInside('a/b', '/a')).toThrow(TypeError);
    expect(() => isPathInside('/a/b', 'a')).toThrow(TypeError);
    expect(() => isPathInside('', '/')).toThrow(TypeError);
  });

  it('agrees with a segment-by-segment comparison when both paths are normalised', () => {
    fc.assert(
      fc.property(normalisedPath, normalisedPath, (target, root) => {
        expect(isPathInside(target, root)).toBe(segmentsInside(target, root));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with a segment-by-segment comparison when paths carry dots and extra separators', () => {
    fc.assert(
      fc.property(writtenPath, writtenPath, (target, root) => {
        expect(isPathInside(target, root)).toBe(segmentsInside(target, root));
      }),
      { numRuns: 2000 },
    );
  });

  it('holds for the root and everything below it, and for no sibling sharing a name prefix', () => {
    fc.assert(
      fc.property(normalisedPath, fc.array(name, { maxLength: 3 }), name, (root, below, suffix) => {
        expect(isPathInside(path.join(root, ...below), root)).toBe(true);
        if (root !== '/') expect(isPathInside(root + suffix, root)).toBe(false);
      }),
    );
  });

  it('agrees with path.relative when comparing two absolute paths', () => {
    fc.assert(
      fc.property(writtenPath, writtenPath, (target, root) => {
        const relative = path.relative(root, target);
        const expected =
          relative !== '..' && !relative.startsWith('../') && !path.isAbsolute(relative);
        expect(isPathInside(target, root)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('isNormalizedPathInside', () => {
  it('is true when the target is the root or lies under it, by whole segments', () => {
    expect(isNormalizedPathInside('/a/b/c', '/a/b')).toBe(true);
    expect(isNormalizedPathInside('/a/b', '/a/b')).toBe(true);
    expect(isNormalizedPathInside('/a/bc', '/a/b')).toBe(false);
    expect(isNormalizedPathInside('/x', '/')).toBe(true);
  });

  it('agrees with isPathInside when both paths are normalised', () => {
    fc.assert(
      fc.property(normalisedPath, normalisedPath, (target, root) => {
        expect(isNormalizedPathInside(target, root)).toBe(isPathInside(target, root));
      }),
      { numRuns: 2000 },
    );
  });
});
