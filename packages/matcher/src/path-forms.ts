import fs from 'node:fs';
import path from 'node:path';
import type { MatcherContext, MatchSubject } from './define-matcher.js';

const SEPARATOR = path.sep;

/**
 * Expands `~` and `~/…` with the OS home and resolves the rest against the project dir, normalised
 * (`..`, `.`, duplicate and trailing separators removed). `~user` is not expanded.
 */
export function normalizePathPrefix(prefix: string, context: MatcherContext): string {
  return path.resolve(context.projectDir, expandHome(prefix, context.homeDir));
}

/** True when `candidate` is `prefix` or lies under it, compared by whole segments (case-sensitive). */
export function isPathUnder(candidate: string, prefix: string): boolean {
  if (!candidate.startsWith(prefix)) return false;
  return (
    candidate.length === prefix.length ||
    prefix.endsWith(SEPARATOR) ||
    candidate[prefix.length] === SEPARATOR
  );
}

/**
 * Every form a path is taken in (SPEC §1.2): as written (normalised, absolute), and with symlinks
 * resolved — both of the normalised path and of the path as the OS would walk it (`link/..` is the
 * link target's parent, not the link's) — each through its longest existing ancestor. Deduped.
 * `memo` shares the resolution of common ancestors between paths of one compile or one match.
 */
export function pathForms(
  written: string,
  context: MatcherContext,
  memo: RealpathMemo = new Map(),
): string[] {
  const expanded = expandHome(written, context.homeDir);
  const normalised = path.resolve(context.projectDir, expanded);
  const forms = [normalised];
  addForm(forms, resolveExistingPrefix(normalised, memo));
  // Only `..` makes the OS walk differ from the normalised path (after a symlink).
  if (PARENT_SEGMENT.test(expanded)) {
    const raw = path.isAbsolute(expanded)
      ? expanded
      : `${context.projectDir}${SEPARATOR}${expanded}`;
    addForm(forms, resolveExistingPrefix(raw, memo));
  }
  return forms;
}

const PARENT_SEGMENT = /(^|\/)\.\.(\/|$)/;
const prefixFormsCache = new WeakMap<MatcherContext, Map<string, readonly string[]>>();

/** A path's symlink-resolved form, and whether the path itself exists (resolves). */
interface ResolvedPath {
  form: string;
  exists: boolean;
}

/**
 * Resolutions already done, by path as given. Lives for one compile or one match only: the file
 * system may change between tool calls (a symlink created by one call must be seen by the next).
 */
export type RealpathMemo = Map<string, ResolvedPath>;

let compileMemo: RealpathMemo | undefined;

/**
 * Runs `compile` with one realpath memo shared by every prefix it resolves (200 prefixes under the
 * same missing folder cost one failed `realpath`, not 400), dropped when it returns.
 */
export function withCompileMemo<T>(compile: () => T): T {
  const previous = compileMemo;
  compileMemo = new Map();
  try {
    return compile();
  } finally {
    compileMemo = previous;
  }
}

/**
 * {@link pathForms} of a configured prefix, memoised per context object (one per `compileRules`
 * call), so the symlink resolution of a prefix runs once per compilation.
 */
export function prefixForms(prefix: string, context: MatcherContext): readonly string[] {
  let cache = prefixFormsCache.get(context);
  if (cache === undefined) {
    cache = new Map();
    prefixFormsCache.set(context, cache);
  }
  let forms = cache.get(prefix);
  if (forms === undefined) {
    forms = pathForms(prefix, context, compileMemo);
    cache.set(prefix, forms);
  }
  return forms;
}

function addForm(forms: string[], form: string): void {
  if (!forms.includes(form)) forms.push(form);
}

function expandHome(value: string, homeDir: string): string {
  if (value === '~') return homeDir;
  if (value.startsWith(`~${SEPARATOR}`) || value.startsWith('~/')) {
    return path.join(homeDir, value.slice(2));
  }
  return value;
}

/**
 * realpath of the longest existing ancestor, plus the remaining segments. A path whose parent is
 * known not to resolve cannot resolve either (any failure to resolve the parent fails the child), so
 * it costs no system call; a missing path is found with an `lstat` that does not throw (a failed
 * `realpath` throws, which costs several times more).
 */
function resolveExistingPrefix(absolute: string, memo: RealpathMemo = new Map(), hops = 0): string {
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
// `notes.txt -> secrets/new.txt` must match `secrets` like the file it will become.
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

interface CachedForms {
  paths: readonly string[];
  snapshot: string[];
  byContext: Map<MatcherContext, readonly string[]>;
}

// Resolving symlinks costs syscalls; one subject is matched against many rules, so its path forms
// are computed once per subject object (and recomputed if its paths array changes).
const subjectCache = new WeakMap<MatchSubject, CachedForms>();

/** All forms of all the subject's paths, cached per subject object. */
export function subjectPathForms(
  subject: MatchSubject,
  context: MatcherContext,
): readonly string[] {
  const paths = subject.paths;
  if (paths === undefined || paths.length === 0) return [];
  let cached = subjectCache.get(subject);
  if (cached === undefined || cached.paths !== paths || !sameItems(cached.snapshot, paths)) {
    cached = { paths, snapshot: [...paths], byContext: new Map() };
    subjectCache.set(subject, cached);
  }
  // Keyed by the context object: compileRules gives all the rules it compiles the same one.
  let forms = cached.byContext.get(context);
  if (forms === undefined) {
    const memo: RealpathMemo = new Map();
    forms = paths.flatMap((written) => pathForms(written, context, memo));
    cached.byContext.set(context, forms);
  }
  return forms;
}

function sameItems(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) {
    if (left[index] !== right[index]) return false;
  }
  return true;
}
