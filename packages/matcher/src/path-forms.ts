import { isPathInside, pathForms, type RealpathMemo, resolveUserPath } from '@soong-agent/paths';
import type { MatcherContext, MatchSubject } from './define-matcher.js';

/**
 * Expands `~` and `~/…` with the OS home and resolves the rest against the project dir, normalised
 * (`..`, `.`, duplicate and trailing separators removed). `~user` is not expanded. The same rule as
 * `resolveUserPath` of `@soong-agent/paths`.
 */
export function normalizePathPrefix(prefix: string, context: MatcherContext): string {
  return resolveUserPath(prefix, context.projectDir, context.homeDir);
}

/**
 * True when `candidate` is `prefix` or lies under it, compared by whole segments (case-sensitive).
 * The same function as `isPathInside` of `@soong-agent/paths`: one rule for matching and refusing.
 */
export const isPathUnder: (candidate: string, prefix: string) => boolean = isPathInside;

const prefixFormsCache = new WeakMap<MatcherContext, Map<string, readonly string[]>>();

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
