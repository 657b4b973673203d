import type { RealpathMemo } from '@soong-agent/paths';
import { pathForms, resolveUserPath } from '@soong-agent/paths/internal';
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
 * The path forms of one compiled rule set, memoised: owned by the context `compileRules` gives every
 * matcher it compiles, and dropped with the compiled rules (no module state).
 */
export interface PathFormsMemo {
  /** {@link pathForms} of a configured prefix, resolved once per compilation. */
  prefix(prefix: string): readonly string[];
  /** All forms of all the subject's paths, cached per subject object (recomputed if its paths change). */
  subject(subject: MatchSubject): readonly string[];
  /**
   * Ends compilation: until then every prefix shares one realpath memo (200 prefixes under the same
   * missing folder cost one failed `realpath`, not 400); after it the file system may change.
   */
  finishCompiling(): void;
}

/** The context `compileRules` gives the matchers it compiles: the public fields and the memo. */
export interface CompileContext extends MatcherContext {
  /** Path forms memoised for this compilation. */
  readonly pathForms: PathFormsMemo;
}

/** A frozen context for one compilation, with its own {@link PathFormsMemo}. */
export function createCompileContext(projectDir: string, homeDir: string): CompileContext {
  const base: MatcherContext = Object.freeze({ projectDir, homeDir });
  return Object.freeze({ ...base, pathForms: createPathFormsMemo(base) });
}

/**
 * The memo of a context made by `compileRules`; a context built by hand (a matcher's `create`
 * called directly) gets a memo of its own, kept by the caller (e.g. the predicate it returns).
 */
export function pathFormsOf(context: MatcherContext): PathFormsMemo {
  return (context as Partial<CompileContext>).pathForms ?? createPathFormsMemo(context);
}

interface CachedForms {
  paths: readonly string[];
  snapshot: string[];
  forms: readonly string[];
}

function createPathFormsMemo(context: MatcherContext): PathFormsMemo {
  let compileMemo: RealpathMemo | undefined = new Map();
  const prefixes = new Map<string, readonly string[]>();
  // Resolving symlinks costs syscalls; one subject is matched against many rules, so its path forms
  // are computed once per subject object (and recomputed if its paths array changes).
  const subjects = new WeakMap<MatchSubject, CachedForms>();
  return {
    prefix(prefix) {
      let forms = prefixes.get(prefix);
      if (forms === undefined) {
        forms = pathForms(prefix, context, compileMemo);
        prefixes.set(prefix, forms);
      }
      return forms;
    },
    subject(subject) {
      const paths = subject.paths;
      if (paths === undefined || paths.length === 0) return NO_FORMS;
      let cached = subjects.get(subject);
      if (cached === undefined || cached.paths !== paths || !sameItems(cached.snapshot, paths)) {
        const memo: RealpathMemo = new Map();
        const forms = paths.flatMap((written) => pathForms(written, context, memo));
        cached = { paths, snapshot: [...paths], forms };
        subjects.set(subject, cached);
      }
      return cached.forms;
    },
    finishCompiling() {
      compileMemo = undefined;
    },
  };
}

const NO_FORMS: readonly string[] = Object.freeze([]);

function sameItems(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) {
    if (left[index] !== right[index]) return false;
  }
  return true;
}
