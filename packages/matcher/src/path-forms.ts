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
 */
export function pathForms(written: string, context: MatcherContext): string[] {
  const expanded = expandHome(written, context.homeDir);
  const normalised = path.resolve(context.projectDir, expanded);
  const forms = [normalised];
  addForm(forms, resolveExistingPrefix(normalised));
  // Only `..` makes the OS walk differ from the normalised path (after a symlink).
  if (PARENT_SEGMENT.test(expanded)) {
    const raw = path.isAbsolute(expanded)
      ? expanded
      : `${context.projectDir}${SEPARATOR}${expanded}`;
    addForm(forms, resolveExistingPrefix(raw));
  }
  return forms;
}

const PARENT_SEGMENT = /(^|\/)\.\.(\/|$)/;
const prefixFormsCache = new WeakMap<MatcherContext, Map<string, readonly string[]>>();

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
    forms = pathForms(prefix, context);
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

/** realpath of the longest existing ancestor, plus the remaining segments. */
function resolveExistingPrefix(absolute: string): string {
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = fs.realpathSync.native(current);
      return rest.length === 0 ? real : path.join(real, ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(absolute);
      rest.push(path.basename(current));
      current = parent;
    }
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
    forms = paths.flatMap((written) => pathForms(written, context));
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
