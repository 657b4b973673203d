import path from 'node:path';
import type { z } from 'zod';
import { builtInMatchers } from './built-in-matchers.js';
import type { MatcherContext, MatchPredicate, MatchSubject } from './define-matcher.js';
import { MatcherError } from './matcher-error.js';
import { createMatcherRegistry, type MatcherRegistry } from './matcher-registry.js';
import { type NameList, toNameArray } from './name-list.js';
import { closestMatch } from './suggest.js';
import { toolMatcher } from './tool-matcher.js';

/** One rule as configured: its event and its matcher as written in hooks.json. */
export interface RuleSpec {
  /** The event the rule belongs to (its group key in hooks.json). */
  event: string;
  /** An object of matcher keys, or a bare tool-name string (`"bash"` = `{ "tool": "bash" }`); absent = every occurrence. */
  matcher?: unknown;
}

/** Options of {@link compileRules}. */
export interface CompileRulesOptions {
  /**
   * The matcher types rules may use.
   * @default createMatcherRegistry(builtInMatchers)
   */
  registry?: MatcherRegistry;
  /** The project dir (relative prefixes and subject paths are resolved against it; made absolute). */
  projectDir: string;
  /** The OS home dir, for `~` and `~/…` prefixes (made absolute). */
  homeDir: string;
}

/** Why one rule of the subject's event did or did not match. */
export type RuleExplanation =
  | { ruleIndex: number; matched: true }
  | { ruleIndex: number; matched: false; criterion: string; expected: string; actual: string };

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
}

interface Criterion {
  type: string;
  options: unknown;
  test: MatchPredicate;
}

interface CompiledRule {
  ruleIndex: number;
  /** Every criterion, in the rule's key order (for explain). */
  criteria: Criterion[];
  /** The criteria `match` still has to check once the rule was picked as a candidate. */
  remaining: Criterion[];
  /** Tool names when the rule has a built-in `tool` criterion (used to index it). */
  tools: readonly string[] | undefined;
}

interface EventGroup {
  ruleIndices: readonly number[];
  rules: CompiledRule[];
  byTool: Map<string, CompiledRule[]>;
  withoutTool: CompiledRule[];
}

const EMPTY: number[] = Object.freeze([]) as unknown as number[];
const NO_RULES: readonly number[] = Object.freeze([]);
let defaultRegistry: MatcherRegistry | undefined;

/**
 * Validates and compiles rules once, at load time, into an index keyed by event. An event with no
 * rules costs one map lookup; rules with a `tool` key are indexed by tool name, so rules for other
 * tools cost nothing. Throws `MatcherError` for the first invalid matcher (with `ruleIndex` and the
 * JSON path relative to the rule).
 */
export function compileRules(rules: readonly RuleSpec[], options: CompileRulesOptions): RuleIndex {
  if (options.registry === undefined && defaultRegistry === undefined) {
    defaultRegistry = createMatcherRegistry(builtInMatchers);
  }
  const registry = options.registry ?? (defaultRegistry as MatcherRegistry);
  const context: MatcherContext = Object.freeze({
    projectDir: path.resolve(options.projectDir),
    homeDir: path.resolve(options.homeDir),
  });
  const groups = new Map<string, EventGroup>();
  for (const [ruleIndex, rule] of rules.entries()) {
    const compiled = compileRule(rule, ruleIndex, registry, context);
    let group = groups.get(rule.event);
    if (group === undefined) {
      group = { ruleIndices: [], rules: [], byTool: new Map(), withoutTool: [] };
      groups.set(rule.event, group);
    }
    (group.ruleIndices as number[]).push(ruleIndex);
    group.rules.push(compiled);
    if (compiled.tools === undefined) {
      group.withoutTool.push(compiled);
    } else {
      for (const tool of new Set(compiled.tools)) {
        const list = group.byTool.get(tool);
        if (list === undefined) group.byTool.set(tool, [compiled]);
        else list.push(compiled);
      }
    }
  }
  for (const group of groups.values()) Object.freeze(group.ruleIndices);

  return Object.freeze({
    size: rules.length,
    match(subject: MatchSubject): number[] {
      const group = groups.get(subject.event);
      if (group === undefined) return EMPTY;
      const byTool = subject.tool === undefined ? undefined : group.byTool.get(subject.tool);
      const withoutTool = group.withoutTool;
      let matched: number[] = EMPTY;
      let toolPosition = 0;
      let otherPosition = 0;
      const toolCount = byTool === undefined ? 0 : byTool.length;
      // Two ascending candidate lists (this tool's rules, rules without a tool key), merged in order.
      while (toolPosition < toolCount || otherPosition < withoutTool.length) {
        const fromTool = byTool?.[toolPosition];
        const other = withoutTool[otherPosition];
        let candidate: CompiledRule;
        if (
          fromTool !== undefined &&
          (other === undefined || fromTool.ruleIndex < other.ruleIndex)
        ) {
          candidate = fromTool;
          toolPosition++;
        } else {
          candidate = other as CompiledRule;
          otherPosition++;
        }
        if (!passes(candidate.remaining, subject)) continue;
        if (matched === EMPTY) matched = [candidate.ruleIndex];
        else matched.push(candidate.ruleIndex);
      }
      return matched;
    },
    explain(subject: MatchSubject): RuleExplanation[] {
      const group = groups.get(subject.event);
      if (group === undefined) return [];
      return group.rules.map((rule) => explainRule(rule, subject));
    },
    rulesFor(event: string): readonly number[] {
      return groups.get(event)?.ruleIndices ?? NO_RULES;
    },
  });
}

function passes(criteria: Criterion[], subject: MatchSubject): boolean {
  for (const criterion of criteria) if (criterion.test(subject) !== true) return false;
  return true;
}

function explainRule(rule: CompiledRule, subject: MatchSubject): RuleExplanation {
  for (const criterion of rule.criteria) {
    const result = criterion.test(subject);
    if (result === true) continue;
    const miss =
      result === false
        ? { expected: formatOptions(criterion.options), actual: '(no match)' }
        : result;
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
  if (Array.isArray(options) && options.every((item) => typeof item === 'string'))
    return options.join(' | ');
  return JSON.stringify(options) ?? String(options);
}

function compileRule(
  rule: RuleSpec,
  ruleIndex: number,
  registry: MatcherRegistry,
  context: MatcherContext,
): CompiledRule {
  const criteria: Criterion[] = [];
  let tools: readonly string[] | undefined;
  for (const [type, value, basePath] of matcherEntries(rule.matcher, ruleIndex)) {
    const definition = registry.get(type);
    if (definition === undefined) {
      const suggestion = closestMatch(type, registry.types);
      throw new MatcherError({
        code: 'UNKNOWN_MATCHER_TYPE',
        message:
          `${JSON.stringify(type)} is not a matcher type` +
          (suggestion === undefined ? '' : `; did you mean ${JSON.stringify(suggestion)}?`) +
          ` Known types: ${registry.types.join(', ')}`,
        ruleIndex,
        path: basePath,
        value: type,
        ...(suggestion === undefined ? {} : { suggestion }),
      });
    }
    if (definition.events !== undefined && !definition.events.includes(rule.event)) {
      const events = definition.events.join(', ');
      throw new MatcherError({
        code: 'INVALID_MATCHER',
        message:
          `${JSON.stringify(type)} can never match on ${rule.event}: ${rule.event} has no tool call ` +
          `(the ${type} matcher applies only to ${events}) — remove it or move the rule to ${events}`,
        ruleIndex,
        path: basePath,
        value,
      });
    }
    const parsed = definition.optionsSchema.safeParse(value);
    if (!parsed.success) throw optionsError(type, value, parsed.error.issues, ruleIndex, basePath);
    let test: MatchPredicate;
    try {
      test = definition.create(parsed.data, context);
    } catch (error) {
      if (MatcherError.isInstance(error)) throw error;
      throw new MatcherError({
        code: 'INVALID_MATCHER_OPTIONS',
        message: `${JSON.stringify(value)} cannot be compiled by the ${type} matcher: ${String(error)}`,
        ruleIndex,
        path: basePath,
        value,
        cause: error,
      });
    }
    const criterion = { type, options: parsed.data, test };
    criteria.push(criterion);
    if (definition === toolMatcher && tools === undefined)
      tools = toNameArray(parsed.data as NameList);
  }
  const remaining =
    tools === undefined
      ? criteria
      : criteria.filter((criterion) => criterion.type !== toolMatcher.type);
  return { ruleIndex, criteria, remaining, tools };
}

type MatcherEntry = [type: string, value: unknown, path: (string | number)[]];

function matcherEntries(matcher: unknown, ruleIndex: number): MatcherEntry[] {
  if (matcher === undefined) return [];
  if (typeof matcher === 'string') return [['tool', matcher, ['matcher']]];
  if (typeof matcher !== 'object' || matcher === null || Array.isArray(matcher)) {
    throw new MatcherError({
      code: 'INVALID_MATCHER',
      message:
        `${JSON.stringify(matcher) ?? String(matcher)} is not a matcher; write an object such as ` +
        `{ "tool": ["edit_file", "write_file"], "path_prefix": "src" }, or a tool name such as "bash"`,
      ruleIndex,
      path: ['matcher'],
      value: matcher,
    });
  }
  return Object.entries(matcher).map(([type, value]) => [type, value, ['matcher', type]]);
}

function optionsError(
  type: string,
  value: unknown,
  issues: readonly z.core.$ZodIssue[],
  ruleIndex: number,
  basePath: (string | number)[],
): MatcherError {
  const issue = innermostIssue(issues);
  const issuePath = issue.path.filter(
    (segment): segment is string | number => typeof segment !== 'symbol',
  );
  // An unknown key is reported on its object; point at the key itself.
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined)
    issuePath.push(issue.keys[0]);
  const offending = issuePath.reduce<unknown>(
    (current, segment) => (current as Record<string | number, unknown> | undefined)?.[segment],
    value,
  );
  const suggestion = issue.code === 'custom' ? issue.params?.suggestion : undefined;
  return new MatcherError({
    code: 'INVALID_MATCHER_OPTIONS',
    message:
      issue.code === 'custom'
        ? issue.message
        : `${JSON.stringify(offending) ?? String(offending)} is not a valid ${type} value: ${issue.message}`,
    ruleIndex,
    path: [...basePath, ...issuePath],
    value: offending,
    ...(suggestion === undefined ? {} : { suggestion }),
  });
}

// A union reports its branches' issues nested; the branch that got deepest into the value is the one
// the user meant (["bash", 1] is an array with a bad item, not a bad string).
function innermostIssue(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue {
  const issue = issues[0] as z.core.$ZodIssue;
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  let best: readonly z.core.$ZodIssue[] | undefined;
  for (const branch of issue.errors) {
    const depth = branch[0]?.path.length ?? 0;
    if (depth > 0 && (best === undefined || depth > (best[0]?.path.length ?? 0))) best = branch;
  }
  if (best === undefined) return issue;
  const inner = innermostIssue(best);
  return { ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue;
}
