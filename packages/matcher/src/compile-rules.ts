import path from 'node:path';
import type { z } from 'zod';
import type { MatchPredicate } from './define-matcher.js';
import { MatcherError } from './matcher-error.js';
import type { MatcherRegistry } from './matcher-registry.js';
import { type NameList, toNameArray } from './name-list.js';
import { type CompileContext, createCompileContext } from './path-forms.js';
import { pathPrefixMatcher } from './path-prefix-matcher.js';
import {
  type CompiledRule,
  type Criterion,
  createRuleIndex,
  type RuleIndex,
} from './rule-index.js';
import { showValue } from './show-value.js';
import { closestMatch } from './suggest.js';
import { TOOL_CALL_EVENTS } from './tool-call-events.js';
import { isToolMatcher } from './tool-matcher.js';

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
   * The matcher types rules may use: `createMatcherRegistry(builtInMatchers)`, plus your own
   * definitions if any. Build it once and pass it to every compilation.
   */
  registry: MatcherRegistry;
  /** The project dir (relative prefixes and subject paths are resolved against it; made absolute). */
  projectDir: string;
  /** The OS home dir, for `~` and `~/…` prefixes (made absolute). */
  homeDir: string;
}

/**
 * Validates and compiles rules once, at load time, into an index keyed by event. An event with no
 * rules costs one map lookup; rules with a `tool` key are indexed by tool name and rules with a
 * `path_prefix` key by prefix, so rules for other tools or folders cost nothing. Throws
 * `MatcherError` for the first invalid matcher (with `ruleIndex` and the JSON path relative to the
 * rule).
 */
export function compileRules(rules: readonly RuleSpec[], options: CompileRulesOptions): RuleIndex {
  const { registry } = options;
  const context = createCompileContext(
    path.resolve(options.projectDir),
    path.resolve(options.homeDir),
  );
  try {
    const compiled = rules.map((rule, ruleIndex) =>
      compileRule(rule, ruleIndex, registry, context),
    );
    return createRuleIndex(compiled, context);
  } finally {
    context.pathForms.finishCompiling();
  }
}

function compileRule(
  rule: RuleSpec,
  ruleIndex: number,
  registry: MatcherRegistry,
  context: CompileContext,
): CompiledRule {
  const criteria: Criterion[] = [];
  for (const [type, value, basePath] of matcherEntries(rule.matcher, ruleIndex)) {
    const definition = registry.get(type);
    if (definition === undefined) {
      // `path` means `path_prefix`, `mcp` or `server` means `mcp_server`: one word of a type's name.
      const suggestion =
        closestMatch(type, registry.types) ??
        registry.types.find((known) => known.split('_').includes(type.toLowerCase()));
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
      const why = definition.events.every((event) => TOOL_CALL_EVENTS.includes(event))
        ? `${rule.event} has no tool call, and the ${type} matcher applies only to ${events}`
        : `the ${type} matcher applies only to ${events}`;
      throw new MatcherError({
        code: 'INVALID_MATCHER',
        message:
          `${typeof rule.matcher === 'string' ? `the tool name ${JSON.stringify(rule.matcher)} (short for { "tool": ${JSON.stringify(rule.matcher)} })` : JSON.stringify(type)} ` +
          `can never match on ${rule.event}: ${why} — remove it or move the rule to ${events}`,
        ruleIndex,
        path: basePath,
        value,
      });
    }
    const parsed = definition.optionsSchema.safeParse(value);
    if (!parsed.success) {
      const error = optionsError(type, value, parsed.error.issues, ruleIndex, basePath);
      throw typeof rule.matcher === 'string' ? bareMatcherError(error, rule.matcher) : error;
    }
    let test: MatchPredicate;
    try {
      test = definition.create(parsed.data, context);
    } catch (error) {
      if (MatcherError.isInstance(error)) {
        throw new MatcherError({
          code: error.code,
          message: error.message,
          ruleIndex,
          path: [...basePath, ...error.path],
          value: error.value,
          suggestion: error.suggestion,
          cause: error,
        });
      }
      throw new MatcherError({
        code: 'INVALID_MATCHER_OPTIONS',
        message: `${showValue(value)} cannot be compiled by the ${type} matcher: ${String(error)}`,
        ruleIndex,
        path: basePath,
        value,
        cause: error,
      });
    }
    criteria.push({ type, options: parsed.data, test, definition });
  }
  return withIndexKey({ ruleIndex, event: rule.event, criteria, remaining: criteria }, context);
}

// The built-in tool and path_prefix criteria (the definitions themselves, not replacements under the
// same key) can select their rules by map lookup; the rule then skips that criterion in match.
// A rule with both is picked by tool, and its prefixes answer the path criterion by lookup too.
function withIndexKey(rule: CompiledRule, context: CompileContext): CompiledRule {
  const byTool = rule.criteria.find((criterion) => isToolMatcher(criterion.definition));
  const byPath = rule.criteria.find((criterion) => criterion.definition === pathPrefixMatcher);
  const prefixes =
    byPath === undefined
      ? undefined
      : toNameArray(byPath.options as NameList).flatMap((prefix) =>
          context.pathForms.prefix(prefix),
        );
  if (byTool !== undefined) {
    rule.indexKey = { kind: 'tool', tools: toNameArray(byTool.options as NameList) };
    if (prefixes !== undefined) rule.pathFilter = prefixes;
  } else if (prefixes !== undefined) {
    rule.indexKey = { kind: 'path', prefixes };
  }
  rule.remaining = rule.criteria.filter(
    (criterion) => criterion !== byTool && criterion !== byPath,
  );
  return rule;
}

type MatcherEntry = [type: string, value: unknown, path: (string | number)[]];

function matcherEntries(matcher: unknown, ruleIndex: number): MatcherEntry[] {
  if (matcher === undefined) return [];
  if (typeof matcher === 'string') return [['tool', matcher, ['matcher']]];
  if (typeof matcher !== 'object' || matcher === null || Array.isArray(matcher)) {
    throw new MatcherError({
      code: 'INVALID_MATCHER',
      message:
        `${showValue(matcher)} is not a matcher; write an object such as ` +
        `{ "tool": ["edit_file", "write_file"], "path_prefix": "src" }, or a tool name such as "bash"`,
      ruleIndex,
      path: ['matcher'],
      value: matcher,
    });
  }
  return Object.entries(matcher).map(([type, value]) => [type, value, ['matcher', type]]);
}

/**
 * The bare-string shorthand has no "tool" key to remove and takes no array: its fix says how to write
 * the matcher itself (`"bash"`, or `{ "tool": [...] }` for several names).
 */
function bareMatcherError(error: MatcherError, matcher: string): MatcherError {
  const names = Array.isArray(error.suggestion) ? (error.suggestion as string[]) : undefined;
  const everyTool = 'or remove "matcher" to match every tool';
  let message: string;
  if (names !== undefined && names.length > 0) {
    const fix =
      names.length === 1
        ? JSON.stringify(names[0])
        : `{ "tool": [${names.map((name) => JSON.stringify(name)).join(', ')}] }`;
    message = `${JSON.stringify(matcher)} looks like a regex or glob; matchers are exact — write ${fix}`;
  } else if (names !== undefined) {
    message = `${JSON.stringify(matcher)} looks like a regex or glob; matchers are exact — list the exact tool names as { "tool": ["bash", …] }, ${everyTool}`;
  } else {
    message = `${showValue(matcher)} is not a tool name (a bare string matcher is one exact tool name, short for { "tool": NAME }); write one such as "bash", ${everyTool}`;
  }
  return new MatcherError({
    code: error.code,
    message,
    ...(error.ruleIndex === undefined ? {} : { ruleIndex: error.ruleIndex }),
    path: error.path,
    value: error.value,
    ...(names === undefined || names.length === 0 ? {} : { suggestion: names }),
    cause: error,
  });
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
        : `${showValue(offending)} is not a valid ${type} value: ${issue.message}`,
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
