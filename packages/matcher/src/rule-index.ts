import path from 'node:path';
import { isPathInside } from '@soong-agent/paths';
import type {
  AnyMatcherDefinition,
  MatchMiss,
  MatchPredicate,
  MatchSubject,
} from './define-matcher.js';
import { type CompileContext, normalizePathPrefix } from './path-forms.js';
import { pathPrefixMatcher } from './path-prefix-matcher.js';
import { showValue } from './show-value.js';
import { tagMatcher } from './tag-matcher.js';
import { isToolMatcher } from './tool-matcher.js';

/** Why one rule of the subject's event did or did not match. */
export type RuleExplanation =
  | { ruleIndex: number; matched: true }
  | { ruleIndex: number; matched: false; criterion: string; expected: string; actual: string };

/**
 * A `path_prefix` value of a rule that a tree walk must not enter and a read must not return
 * (see {@link RuleIndex.guardedPrefixes}).
 */
export interface GuardedPrefix {
  /** Index (into the `rules` given to `compileRules`) of the rule that guards the prefix. */
  ruleIndex: number;
  /** The prefix as configured in the rule. */
  prefix: string;
  /**
   * Every form of the prefix the matcher compares with (spec §1.2): normalised absolute, and
   * symlink-resolved. A path at or under any of them (`isPathInside` of `@soong-agent/paths`) is guarded.
   */
  forms: readonly string[];
}

/** A tool call as a `tag`/`tool` criterion sees it, for {@link RuleIndex.guardedPrefixes}. */
export interface GuardReader {
  /** The canonical tool name, e.g. `read_file`. */
  tool: string;
  /** The tool's tags, its risk class included. */
  tags: readonly string[];
}

/** Compiled rules, grouped by event. */
export interface RuleIndex {
  /** Number of rules compiled (all events). */
  readonly size: number;
  /**
   * Indices (into the `rules` given to `compileRules`) of the rules of `subject.event` that match,
   * ascending. A fresh array when non-empty; when empty, a shared frozen array — do not mutate it.
   */
  match(subject: MatchSubject): number[];
  /** For each rule of `subject.event`, ascending: matched, or the first criterion (in key order) that failed. */
  explain(subject: MatchSubject): RuleExplanation[];
  /** Indices of the rules of an event, ascending (frozen). */
  rulesFor(event: string): readonly number[];
  /**
   * The path prefixes a call must not reach into without its hooks having seen them. For each
   * rule of `call.event` with a built-in `path_prefix` criterion whose `tool` and `tag` criteria
   * match `call` or one of `readers` (e.g. a direct `read_file`) — criteria of other types are
   * taken to match, since they might for some path (fail closed) — every prefix of the criterion,
   * unless the rule certainly matched `call` itself: one of the call's paths **as written**
   * (normalised, absolute, not symlink-resolved) lies at or under a form of one of its prefixes and
   * all its other criteria match the call. Its hooks then ran on that path. A match only through a
   * symlink does not count: where a symlink led when the hooks ran is not known any more.
   *
   * A tool that walks a tree, or opens a path that may have changed since the hooks ran, must not
   * open or enter anything at or under any form of these prefixes. Ascending by rule, then in
   * prefix order.
   */
  guardedPrefixes(call: MatchSubject, readers?: readonly GuardReader[]): GuardedPrefix[];
}

/** One criterion of a compiled rule. */
export interface Criterion {
  type: string;
  options: unknown;
  test: MatchPredicate;
  definition: AnyMatcherDefinition;
}

/**
 * A validated rule. `indexKey` is set when one of its criteria is a built-in whose values can pick
 * the rule out of a map (tool names, or normalised prefix forms). `pathFilter` holds the prefix forms
 * of a tool-indexed rule's built-in `path_prefix` criterion, answered by one walk of the subject's
 * paths per match rather than one predicate call per rule. `remaining` is every other criterion,
 * which `match` still evaluates.
 */
export interface CompiledRule {
  ruleIndex: number;
  event: string;
  criteria: Criterion[];
  remaining: Criterion[];
  indexKey?:
    | { kind: 'tool'; tools: readonly string[] }
    | { kind: 'path'; prefixes: readonly string[] };
  pathFilter?: readonly string[];
}

interface EventGroup {
  ruleIndices: readonly number[];
  rules: CompiledRule[];
  byTool: Map<string, CompiledRule[]>;
  byPrefix: Map<string, CompiledRule[]>;
  /** Tool-indexed rules with a built-in path criterion, by prefix form. */
  byFilterPrefix: Map<string, CompiledRule[]>;
  unindexed: CompiledRule[];
}

const EMPTY: number[] = Object.freeze([]) as unknown as number[];
const NO_RULES: readonly number[] = Object.freeze([]);
const NO_CANDIDATES: CompiledRule[] = [];

/**
 * Groups compiled rules by event and indexes them, so that `match` evaluates only the rules that can
 * still match: an event with no rules costs one map lookup, rules for other tools or other folders
 * are never looked at.
 */
export function createRuleIndex(
  rules: readonly CompiledRule[],
  context: CompileContext,
): RuleIndex {
  const groups = new Map<string, EventGroup>();
  for (const rule of rules) {
    let group = groups.get(rule.event);
    if (group === undefined) {
      group = {
        ruleIndices: [],
        rules: [],
        byTool: new Map(),
        byPrefix: new Map(),
        byFilterPrefix: new Map(),
        unindexed: [],
      };
      groups.set(rule.event, group);
    }
    (group.ruleIndices as number[]).push(rule.ruleIndex);
    group.rules.push(rule);
    const key = rule.indexKey;
    if (key === undefined) group.unindexed.push(rule);
    else if (key.kind === 'tool') addToBuckets(group.byTool, key.tools, rule);
    else addToBuckets(group.byPrefix, key.prefixes, rule);
    if (rule.pathFilter !== undefined) addToBuckets(group.byFilterPrefix, rule.pathFilter, rule);
  }
  for (const group of groups.values()) Object.freeze(group.ruleIndices);

  const match = (subject: MatchSubject): number[] => {
    const group = groups.get(subject.event);
    if (group === undefined) return EMPTY;
    const forTool =
      subject.tool === undefined
        ? NO_CANDIDATES
        : (group.byTool.get(subject.tool) ?? NO_CANDIDATES);
    const forPath =
      group.byPrefix.size === 0
        ? NO_CANDIDATES
        : prefixCandidates(group.byPrefix, subject, context);
    return evaluate(forTool, forPath, group, subject, context);
  };

  return Object.freeze({
    size: rules.length,
    match,
    explain(subject: MatchSubject): RuleExplanation[] {
      const group = groups.get(subject.event);
      if (group === undefined) return [];
      return group.rules.map((rule) => explainRule(rule, subject));
    },
    rulesFor(event: string): readonly number[] {
      return groups.get(event)?.ruleIndices ?? NO_RULES;
    },
    guardedPrefixes(call: MatchSubject, readers: readonly GuardReader[] = []): GuardedPrefix[] {
      const group = groups.get(call.event);
      if (group === undefined) return [];
      const guarded: GuardedPrefix[] = [];
      const callSubject: MatchSubject = {
        event: call.event,
        ...(call.tool === undefined ? {} : { tool: call.tool }),
        ...(call.tags === undefined ? {} : { tags: call.tags }),
      };
      const subjects: MatchSubject[] = [
        callSubject,
        ...readers.map((reader) => ({ event: call.event, tool: reader.tool, tags: reader.tags })),
      ];
      // As written, not resolved: where a symlink led when the hooks ran is not known any more.
      const written = (call.paths ?? []).map((item) => normalizePathPrefix(item, context));
      for (const rule of group.rules) {
        const byPath = rule.criteria.find(
          (criterion) => criterion.definition === pathPrefixMatcher,
        );
        if (byPath === undefined) continue;
        if (!subjects.some((subject) => readerMatches(rule, subject))) continue;
        const options = byPath.options as string | readonly string[];
        const prefixes = (typeof options === 'string' ? [options] : options).map((prefix) => ({
          ruleIndex: rule.ruleIndex,
          prefix,
          forms: context.pathForms.prefix(prefix),
        }));
        const sawCall =
          written.some((item) =>
            prefixes.some((guard) => guard.forms.some((form) => isPathInside(item, form))),
          ) &&
          readerMatches(rule, callSubject) &&
          othersMatch(rule, call);
        if (!sawCall) guarded.push(...prefixes);
      }
      return guarded;
    },
  });
}

// Whether the criteria of types other than tool, tag and path_prefix match the call itself.
function othersMatch(rule: CompiledRule, call: MatchSubject): boolean {
  for (const criterion of rule.criteria) {
    const definition = criterion.definition;
    if (isToolMatcher(definition) || definition === tagMatcher || definition === pathPrefixMatcher)
      continue;
    if (criterion.test(call) !== true) return false;
  }
  return true;
}

// Whether a rule's tool and tag criteria match a call whose paths are not known; other criteria
// (the path itself, or a type contributed later that may look at anything) count as matching.
function readerMatches(rule: CompiledRule, subject: MatchSubject): boolean {
  for (const criterion of rule.criteria) {
    if (!isToolMatcher(criterion.definition) && criterion.definition !== tagMatcher) continue;
    if (criterion.test(subject) !== true) return false;
  }
  return true;
}

function addToBuckets(
  buckets: Map<string, CompiledRule[]>,
  keys: readonly string[],
  rule: CompiledRule,
): void {
  for (const key of new Set(keys)) {
    const bucket = buckets.get(key);
    if (bucket === undefined) buckets.set(key, [rule]);
    else bucket.push(rule);
  }
}

// A path lies under a prefix iff the prefix is the path or one of its ancestors, so walking each
// subject form up to the root finds every path rule that can match, whatever the number of rules.
function prefixCandidates(
  byPrefix: Map<string, CompiledRule[]>,
  subject: MatchSubject,
  context: CompileContext,
): CompiledRule[] {
  const forms = context.pathForms.subject(subject);
  let found: CompiledRule[] = NO_CANDIDATES;
  for (const form of forms) {
    let current = form;
    for (;;) {
      const bucket = byPrefix.get(current);
      if (bucket !== undefined) {
        for (const rule of bucket) {
          if (found === NO_CANDIDATES) found = [rule];
          else if (!found.includes(rule)) found.push(rule);
        }
      }
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  if (found.length > 1) found.sort((left, right) => left.ruleIndex - right.ruleIndex);
  return found;
}

// Evaluates the remaining criteria of three ascending, disjoint candidate lists (by tool, by path,
// unindexed), merged in order. A rule with a path filter must also be among the rules whose prefixes
// the subject's paths lie under, found (once, when first needed) by the same walk as `byPrefix`.
function evaluate(
  first: CompiledRule[],
  second: CompiledRule[],
  group: EventGroup,
  subject: MatchSubject,
  context: CompileContext,
): number[] {
  const third = group.unindexed;
  let pathHits: CompiledRule[] | undefined;
  let matched = EMPTY;
  let firstAt = 0;
  let secondAt = 0;
  let thirdAt = 0;
  for (;;) {
    const a =
      firstAt < first.length ? (first[firstAt] as CompiledRule).ruleIndex : Number.MAX_SAFE_INTEGER;
    const b =
      secondAt < second.length
        ? (second[secondAt] as CompiledRule).ruleIndex
        : Number.MAX_SAFE_INTEGER;
    const c =
      thirdAt < third.length ? (third[thirdAt] as CompiledRule).ruleIndex : Number.MAX_SAFE_INTEGER;
    let candidate: CompiledRule;
    if (a < b && a < c) candidate = first[firstAt++] as CompiledRule;
    else if (b < c) candidate = second[secondAt++] as CompiledRule;
    else if (c !== Number.MAX_SAFE_INTEGER) candidate = third[thirdAt++] as CompiledRule;
    else return matched;
    if (candidate.pathFilter !== undefined) {
      pathHits ??= prefixCandidates(group.byFilterPrefix, subject, context);
      if (!pathHits.includes(candidate)) continue;
    }
    if (!passes(candidate.remaining, subject)) continue;
    if (matched === EMPTY) matched = [candidate.ruleIndex];
    else matched.push(candidate.ruleIndex);
  }
}

function passes(criteria: Criterion[], subject: MatchSubject): boolean {
  for (let position = 0; position < criteria.length; position++) {
    if ((criteria[position] as Criterion).test(subject) !== true) return false;
  }
  return true;
}

function explainRule(rule: CompiledRule, subject: MatchSubject): RuleExplanation {
  for (const criterion of rule.criteria) {
    const result = criterion.test(subject);
    if (result === true) continue;
    const miss: MatchMiss =
      result !== false
        ? result
        : (criterion.test.describeMiss?.(subject) ?? {
            expected: formatOptions(criterion.options),
            actual: '(no match)',
          });
    return {
      ruleIndex: rule.ruleIndex,
      matched: false,
      criterion: criterion.type,
      expected: miss.expected,
      actual: miss.actual,
    };
  }
  return { ruleIndex: rule.ruleIndex, matched: true };
}

function formatOptions(options: unknown): string {
  if (typeof options === 'string') return options;
  if (Array.isArray(options) && options.every((item) => typeof item === 'string')) {
    return options.join(' | ');
  }
  return showValue(options);
}
