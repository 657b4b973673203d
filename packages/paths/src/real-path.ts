import fs from 'node:fs';
import path from 'node:path';

const SEPARATOR = path.sep;

/** A path's symlink-resolved form, and whether the path itself exists (resolves). */
export interface ResolvedPath {
  readonly form: string;
  readonly exists: boolean;
}

/**
 * Resolutions already done, by path as given: share one between the paths of one decision so
 * that common ancestors are resolved once (`new Map()` makes one). Keep it for one decision only:
 * the file system may change between two (a symlink created by one tool call must be seen by the
 * next).
 */
export type RealpathMemo = Map<string, ResolvedPath>;

/**
 * Where an absolute path really leads, whether or not it exists: the real path of its longest
 * existing ancestor (every symlink resolved) with the remaining segments appended. A dangling
 * symlink is followed too (up to 40 links, like the kernel), because writing through it creates
 * its target. `..` is taken as the OS walks it: `link/..` is the parent of the link's target. A
 * path longer than the OS accepts (4096) and a symlink loop are not resolved (normalised only /
 * treated as missing). A relative path throws a `TypeError`.
 *
 * A path whose parent is known not to resolve costs no system call; a missing path is probed with
 * an `lstat` that does not throw (a failed `realpath` costs several times more).
 */
export function realPathOfLongestAncestor(
  absolute: string,
  memo: RealpathMemo = new Map(),
): string {
  if (!path.isAbsolute(absolute)) {
    throw new TypeError(
      `realPathOfLongestAncestor: the path must be absolute, got ${JSON.stringify(absolute)}`,
    );
  }
  return resolveExistingPrefix(absolute, memo, 0);
}

function resolveExistingPrefix(absolute: string, memo: RealpathMemo, hops: number): string {
  // The OS refuses longer paths (ENAMETOOLONG), so nothing can be reached through their links;
  // walking one ancestor per segment would cost memory quadratic in the length.
  if (absolute.length > MAX_RESOLVED_PATH_LENGTH) return path.resolve(absolute);
  const unresolved: string[] = [];
  let current = absolute;
  let base: ResolvedPath | undefined;
  // Whether the last path pushed on `unresolved` has no directory entry at all (so it is not a
  // dangling symlink either, and needs no readlink).
  let lastHasNoEntry = false;
  while (base === undefined) {
    base = memo.get(current);
    if (base !== undefined) break;
    const parent = path.dirname(current);
    const knownParent = parent === current ? undefined : memo.get(parent);
    let noEntry = true;
    if ((knownParent === undefined || knownParent.exists) && hasEntry(current)) {
      noEntry = false;
      try {
        base = { form: fs.realpathSync.native(current), exists: true };
        memo.set(current, base);
        break;
      } catch {
        // Removed since the probe, or a symlink loop: treated like a missing path.
      }
    }
    if (parent === current) {
      base = { form: current, exists: false };
      memo.set(current, base);
      break;
    }
    unresolved.push(current);
    lastHasNoEntry = noEntry;
    current = parent;
  }
  let resolved: ResolvedPath = base;
  for (let index = unresolved.length - 1; index >= 0; index--) {
    const missing = unresolved[index] as string;
    // Only the first missing component can be a dangling symlink: the ones below it have no parent.
    const followed: ResolvedPath | undefined =
      index === unresolved.length - 1 && resolved.exists && !lastHasNoEntry
        ? danglingLinkForm(missing, resolved.form, memo, hops)
        : undefined;
    resolved = followed ?? {
      form: path.join(resolved.form, path.basename(missing)),
      exists: false,
    };
    memo.set(missing, resolved);
  }
  return resolved.form;
}

/** Linux's PATH_MAX: a longer path cannot be opened, so it is not resolved. */
const MAX_RESOLVED_PATH_LENGTH = 4096;

/** Symlinks followed in one resolution before giving up, like the kernel's ELOOP limit. */
const MAX_SYMLINK_HOPS = 40;

// A dangling symlink does not resolve, yet writing through it creates its target: a planted
// `notes.txt -> secrets/new.txt` must be taken as the file it will become.
function danglingLinkForm(
  missing: string,
  realParent: string,
  memo: RealpathMemo,
  hops: number,
): ResolvedPath | undefined {
  if (hops >= MAX_SYMLINK_HOPS) return undefined;
  let target: string;
  try {
    if (fs.lstatSync(missing, { throwIfNoEntry: false })?.isSymbolicLink() !== true)
      return undefined;
    target = fs.readlinkSync(missing);
  } catch {
    return undefined;
  }
  const followed = path.isAbsolute(target) ? target : `${realParent}${SEPARATOR}${target}`;
  return { form: resolveExistingPrefix(followed, memo, hops + 1), exists: false };
}

// A missing path costs a failed realpath otherwise, whose exception costs several times an lstat.
// lstat, not stat: one call also tells a missing path from a dangling symlink.
function hasEntry(target: string): boolean {
  try {
    return fs.lstatSync(target, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
