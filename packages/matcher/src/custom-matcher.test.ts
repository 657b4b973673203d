import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtInMatchers } from './built-in-matchers.js';
import { compileRules } from './compile-rules.js';
import { defineMatcher } from './define-matcher.js';
import { MatcherError } from './matcher-error.js';
import { createMatcherRegistry } from './matcher-registry.js';
import { BUILT_IN_REGISTRY } from './test-helpers/registry.js';
import { TOOL_CALL_EVENTS } from './tool-call-events.js';

// A brand-new matcher type, defined here with no change to the package: the proof that adding a
// type is one definition. The README's "Adding a matcher type" section shows the same code.
const inputFieldMatcher = defineMatcher({
  type: 'input_field',
  events: TOOL_CALL_EVENTS,
  optionsSchema: z.strictObject({ key: z.string().min(1), equals: z.string() }),
  create({ key, equals }) {
    return (subject) => {
      const input = subject.input;
      const actual =
        typeof input === 'object' && input !== null
          ? (input as Record<string, unknown>)[key]
          : undefined;
      return actual === equals
        ? true
        : {
            expected: `${key} = ${JSON.stringify(equals)}`,
            actual: `${key} = ${JSON.stringify(actual) ?? '(absent)'}`,
          };
    };
  },
});

const registry = createMatcherRegistry([...builtInMatchers, inputFieldMatcher]);
const CONTEXT = { projectDir: '/project', homeDir: '/home/user', registry };

describe('defineMatcher', () => {
  it('adds a working matcher type through the registry when defined outside the package', () => {
    const index = compileRules(
      [
        {
          event: 'PreToolUse',
          matcher: { tool: 'bash', input_field: { key: 'command', equals: 'rm -rf /' } },
        },
        { event: 'PreToolUse', matcher: { input_field: { key: 'command', equals: 'ls' } } },
        { event: 'PreToolUse', matcher: 'bash' },
      ],
      CONTEXT,
    );
    expect(
      index.match({ event: 'PreToolUse', tool: 'bash', input: { command: 'rm -rf /' } }),
    ).toEqual([0, 2]);
    expect(index.match({ event: 'PreToolUse', tool: 'bash', input: { command: 'ls' } })).toEqual([
      1, 2,
    ]);
    expect(
      index.match({ event: 'PreToolUse', tool: 'grep', input: { command: 'rm -rf /' } }),
    ).toEqual([]);
    expect(index.explain({ event: 'PreToolUse', tool: 'bash', input: {} })).toEqual([
      {
        ruleIndex: 0,
        matched: false,
        criterion: 'input_field',
        expected: 'command = "rm -rf /"',
        actual: 'command = (absent)',
      },
      {
        ruleIndex: 1,
        matched: false,
        criterion: 'input_field',
        expected: 'command = "ls"',
        actual: 'command = (absent)',
      },
      { ruleIndex: 2, matched: true },
    ]);
  });

  it('validates the new type options with its schema, reporting the precise path', () => {
    try {
      compileRules(
        [
          {
            event: 'PreToolUse',
            matcher: { input_field: { key: 'command', equals: 'x', extra: 1 } },
          },
        ],
        CONTEXT,
      );
      expect.unreachable();
    } catch (error) {
      expect(MatcherError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'INVALID_MATCHER_OPTIONS', ruleIndex: 0 });
      expect((error as MatcherError).path).toEqual(['matcher', 'input_field', 'extra']);
    }
  });

  it('applies the new type events restriction when used on another event', () => {
    expect(() =>
      compileRules(
        [{ event: 'Stop', matcher: { input_field: { key: 'a', equals: 'b' } } }],
        CONTEXT,
      ),
    ).toThrow(
      expect.objectContaining({ code: 'INVALID_MATCHER', path: ['matcher', 'input_field'] }),
    );
  });

  it('leaves the new type unknown to registries built without it', () => {
    expect(() =>
      compileRules([{ event: 'PreToolUse', matcher: { input_field: { key: 'a', equals: 'b' } } }], {
        registry: BUILT_IN_REGISTRY,
        projectDir: '/project',
        homeDir: '/home/user',
      }),
    ).toThrow(expect.objectContaining({ code: 'UNKNOWN_MATCHER_TYPE' }));
  });
});
