import type { z } from 'zod';

/** What a rule is matched against: one occurrence of an event (spec §1.2). */
export interface MatchSubject {
  /** The event name, e.g. `PreToolUse`. Rules are indexed by it. */
  event: string;
  /** The tool call's canonical tool name. */
  tool?: string;
  /** The tool's tags; always include its risk class for tool events. */
  tags?: readonly string[];
  /** The paths the tool call touches, absolute or relative to the project dir. */
  paths?: readonly string[];
  /** The tool call's input object, for matcher types contributed later. */
  input?: unknown;
}

/** Where relative and `~/` paths are anchored. */
export interface MatcherContext {
  /** Absolute project dir: relative prefixes and subject paths are resolved against it. */
  projectDir: string;
  /** The OS home dir, for `~` and `~/…` prefixes. */
  homeDir: string;
}

/** Why a criterion did not match, for `explain`. Strings are for people, not for parsing. */
export interface MatchMiss {
  /** What the criterion wanted, e.g. `edit_file | write_file`. */
  expected: string;
  /** What the subject had, e.g. `bash` or `(no tool)`. */
  actual: string;
}

/**
 * A compiled criterion: `true` when the subject matches, else `false` or a {@link MatchMiss}.
 * A predicate on a hot path may return a plain `false` and carry `describeMiss`, which `explain`
 * calls instead, so that `match` allocates nothing for a miss.
 */
export interface MatchPredicate {
  (subject: MatchSubject): boolean | MatchMiss;
  /**
   * Says why the subject did not match; called only by `explain`, after the predicate returned `false`.
   * @default undefined (explain reports the options as expected and `(no match)` as actual)
   */
  describeMiss?: (subject: MatchSubject) => MatchMiss;
}

/** One matcher type: the hooks.json key, how its value is validated, and how it is compiled. */
export interface MatcherDefinition<O> {
  /** The hooks.json matcher key, e.g. `tool`. */
  type: string;
  /**
   * Validates the key's value as written. Put every check here (including custom issues with
   * `params.suggestion`), so that errors carry a precise path; avoid transforms so that the schema
   * can be turned into JSON Schema.
   */
  optionsSchema: z.ZodType<O>;
  /**
   * Events the type can apply to; on any other event it could never match, which is an error.
   * @default undefined (all events)
   */
  events?: readonly string[];
  /**
   * Compiles validated options once, at load time, into a predicate that runs on every matching
   * event. Do the expensive work here, not in the predicate. The predicate may return a
   * {@link MatchMiss} instead of `false` so that `explain` can say what it expected (or return
   * `false` and carry {@link MatchPredicate.describeMiss}).
   */
  create(options: O, context: MatcherContext): MatchPredicate;
}

/** Identity helper that types a matcher definition; adding a type is one such definition. */
export function defineMatcher<O>(definition: MatcherDefinition<O>): MatcherDefinition<O> {
  return definition;
}

/** A definition of any options type, as registries and lists hold them. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds definitions of different option types
export type AnyMatcherDefinition = MatcherDefinition<any>;
