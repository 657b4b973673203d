import path from 'node:path';

const SEPARATOR = path.sep;

// A `.` or `..` segment, an empty segment (`//`) or a trailing separator: only then does a path
// need normalising before it can be compared by string. Paths from path.resolve or realpath never
// match (except the root `/`, whose normalised form is itself), so the common case costs one test.
const NOT_NORMALISED = /\/(?:\.\.?)?(?:\/|$)/;

/**
 * True when `target` is `root` or lies under it, compared by whole path segments, case-sensitively:
 * `/a/b` is inside `/a` and `/a/b`, not inside `/a/bc`; everything is inside `/`. Both paths must be
 * absolute (a relative one throws a `TypeError`: it could mean anything); `.`, `..`, duplicate and
 * trailing separators are normalised away first, as `path.resolve` does. Symlinks are NOT resolved:
 * compare real paths (see {@link realPathOfLongestAncestor}) to decide where a path really leads.
 */
export function isPathInside(target: string, root: string): boolean {
  return isNormalizedPathInside(normalised(target, 'target'), normalised(root, 'root'));
}

/**
 * {@link isPathInside} without the checks, for hot loops over paths that are absolute and normalised
 * by construction (`path.resolve` or `realpath` output, the forms `pathForms` returns): a string
 * comparison and nothing else. Given a relative or non-normalised path it answers wrongly
 * (`/p/../etc` would be inside `/p`); when in doubt, call {@link isPathInside}.
 */
export function isNormalizedPathInside(target: string, root: string): boolean {
  if (!target.startsWith(root)) return false;
  return (
    target.length === root.length ||
    // Only the filesystem root `/` still ends with a separator.
    root.endsWith(SEPARATOR) ||
    target[root.length] === SEPARATOR
  );
}

function normalised(value: string, name: string): string {
  if (!path.isAbsolute(value)) {
    throw new TypeError(
      `isPathInside: ${name} must be an absolute path, got ${JSON.stringify(value)}`,
    );
  }
  return NOT_NORMALISED.test(value) ? path.resolve(value) : value;
}
