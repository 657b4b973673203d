import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRules, type RuleSpec } from './compile-rules.js';
import type { MatchSubject } from './define-matcher.js';
import { normalizePathPrefix } from './path-forms.js';
import { BUILT_IN_REGISTRY } from './test-helpers/registry.js';

// A project dir that does not exist: no symlinks can be involved, so the written forms decide.
const CONTEXT = {
  registry: BUILT_IN_REGISTRY,
  projectDir: '/nonexistent-soong-matcher/project',
  homeDir: '/nonexistent-soong-matcher/home',
};
const EVENTS = ['PreToolUse', 'PostToolUse', 'Stop'] as const;
const TOOLS = ['bash', 'grep', 'edit_file', 'write_file'] as const;
const TAGS = ['readonly', 'write', 'dangerous', 'test'] as const;

const segment = fc.constantFrom('a', 'b', 'ab', 'src', 'a.b', '[id]', '{g}', 'x-y');
const segments = fc.array(segment, { minLength: 1, maxLength: 4 });
const relativePath = segments.map((parts) => parts.join('/'));
// Few, overlapping names and shallow paths, so that generated rules and subjects often meet
// (prefix hits, siblings such as `a` and `ab`, several candidate lists at once).
const densePath = fc
  .array(fc.constantFrom('a', 'ab', 'b'), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join('/'));
const noisyPath = fc
  .tuple(segments, fc.array(fc.constantFrom('.', 'zz/..', ''), { maxLength: 3 }), fc.boolean())
  .map(([parts, noise, trailing]) => [...noise, ...parts].join('/') + (trailing ? '/' : ''));

const oneOrMany = <T>(values: readonly T[]) =>
  fc.oneof(
    fc.constantFrom(...values),
    fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 3 }),
  );

const toolMatcherValue = fc.record(
  {
    tool: oneOrMany(TOOLS),
    tag: oneOrMany(TAGS),
    path_prefix: fc.oneof(densePath, fc.array(densePath, { minLength: 1, maxLength: 2 })),
  },
  { requiredKeys: [] },
);

const ruleArbitrary: fc.Arbitrary<RuleSpec> = fc.oneof(
  fc.constantFrom(...EVENTS).map((event) => ({ event })),
  fc.record({ event: fc.constantFrom('PreToolUse', 'PostToolUse'), matcher: toolMatcherValue }),
  fc.record({
    event: fc.constantFrom('PreToolUse', 'PostToolUse'),
    matcher: fc.constantFrom(...TOOLS),
  }),
);

const rulesArbitrary = fc.array(ruleArbitrary, { maxLength: 12 });

const subjectArbitrary: fc.Arbitrary<MatchSubject> = fc.record(
  {
    event: fc.constantFrom(...EVENTS, 'SessionStart'),
    tool: fc.constantFrom(...TOOLS, 'list_dir'),
    tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
    paths: fc.array(densePath, { maxLength: 3 }),
  },
  { requiredKeys: ['event'] },
);

function asList<T>(value: T | T[] | undefined): T[] | undefined {
  return value === undefined ? undefined : Array.isArray(value) ? value : [value];
}

// The semantics of spec §1.2 written as plainly as possible, to check the indexed implementation.
function referenceMatch(rules: readonly RuleSpec[], subject: MatchSubject): number[] {
  const result: number[] = [];
  for (const [ruleIndex, rule] of rules.entries()) {
    if (rule.event !== subject.event) continue;
    const matcher = (
      typeof rule.matcher === 'string' ? { tool: rule.matcher } : (rule.matcher ?? {})
    ) as {
      tool?: string | string[];
      tag?: string | string[];
      path_prefix?: string | string[];
    };
    const tools = asList(matcher.tool);
    const tags = asList(matcher.tag);
    const prefixes = asList(matcher.path_prefix)?.map((prefix) =>
      normalizePathPrefix(prefix, CONTEXT),
    );
    const paths = (subject.paths ?? []).map((written) => normalizePathPrefix(written, CONTEXT));
    if (tools !== undefined && (subject.tool === undefined || !tools.includes(subject.tool)))
      continue;
    if (tags !== undefined && !(subject.tags ?? []).some((tag) => tags.includes(tag))) continue;
    if (
      prefixes !== undefined &&
      !paths.some((candidate) =>
        prefixes.some((prefix) => candidate === prefix || candidate.startsWith(`${prefix}/`)),
      )
    ) {
      continue;
    }
    result.push(ruleIndex);
  }
  return result;
}

describe('compileRules (properties)', () => {
  it('matches a prefix and every path under it but never a sibling that extends its last segment', () => {
    fc.assert(
      fc.property(
        relativePath,
        relativePath,
        fc.constantFrom('x', '2', '.bak', '-old'),
        (prefix, below, suffix) => {
          const index = compileRules(
            [{ event: 'PreToolUse', matcher: { path_prefix: prefix } }],
            CONTEXT,
          );
          const matches = (written: string) =>
            index.match({ event: 'PreToolUse', paths: [written] }).length === 1;
          expect(matches(prefix)).toBe(true);
          expect(matches(`${prefix}/${below}`)).toBe(true);
          expect(matches(`${prefix}${suffix}`)).toBe(false);
          expect(matches(`${prefix}${suffix}/${below}`)).toBe(false);
        },
      ),
    );
  });

  it('normalises idempotently and matches the same whether a path is written plainly or noisily', () => {
    fc.assert(
      fc.property(noisyPath, noisyPath, (prefix, written) => {
        const once = normalizePathPrefix(prefix, CONTEXT);
        expect(normalizePathPrefix(once, CONTEXT)).toBe(once);
        const noisy = compileRules(
          [{ event: 'PreToolUse', matcher: { path_prefix: prefix } }],
          CONTEXT,
        );
        const normal = compileRules(
          [{ event: 'PreToolUse', matcher: { path_prefix: once } }],
          CONTEXT,
        );
        const subject = { event: 'PreToolUse', paths: [written] };
        const normalSubject = {
          event: 'PreToolUse',
          paths: [normalizePathPrefix(written, CONTEXT)],
        };
        expect(noisy.match(subject)).toEqual(normal.match(normalSubject));
      }),
    );
  });

  it('returns ascending indices of the subject event rules, equal to the plain semantics, for any rules', () => {
    fc.assert(
      fc.property(rulesArbitrary, subjectArbitrary, (rules, subject) => {
        const index = compileRules(rules, CONTEXT);
        const matched = index.match(subject);
        expect(matched).toEqual([...matched].sort((left, right) => left - right));
        expect(new Set(matched).size).toBe(matched.length);
        const ofEvent = index.rulesFor(subject.event);
        for (const ruleIndex of matched) expect(ofEvent).toContain(ruleIndex);
        expect(matched).toEqual(referenceMatch(rules, subject));
      }),
      { numRuns: 500 },
    );
  });

  it('explains exactly the rules of the event and agrees with match on every subject', () => {
    fc.assert(
      fc.property(rulesArbitrary, subjectArbitrary, (rules, subject) => {
        const index = compileRules(rules, CONTEXT);
        const explanations = index.explain(subject);
        expect(explanations.map((explanation) => explanation.ruleIndex)).toEqual([
          ...index.rulesFor(subject.event),
        ]);
        expect(
          explanations
            .filter((explanation) => explanation.matched)
            .map((explanation) => explanation.ruleIndex),
        ).toEqual(index.match(subject));
        for (const explanation of explanations) {
          if (!explanation.matched)
            expect(['tool', 'tag', 'path_prefix']).toContain(explanation.criterion);
        }
      }),
      { numRuns: 500 },
    );
  });
});
