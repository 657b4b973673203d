import { describe, expect, it } from 'vitest';
import { builtInMatchers } from './built-in-matchers.js';
import { type AnyMatcherDefinition, defineMatcher } from './define-matcher.js';
import { MatcherError } from './matcher-error.js';
import { createMatcherRegistry } from './matcher-registry.js';
import { mcpServerMatcher } from './mcp-server-matcher.js';
import { pathPrefixMatcher } from './path-prefix-matcher.js';
import { tagMatcher } from './tag-matcher.js';
import { toolMatcher } from './tool-matcher.js';

describe('builtInMatchers', () => {
  it('holds tool, tag, path_prefix and mcp_server in that order, frozen', () => {
    expect(builtInMatchers).toEqual([toolMatcher, tagMatcher, pathPrefixMatcher, mcpServerMatcher]);
    expect(builtInMatchers.map((definition) => definition.type)).toEqual([
      'tool',
      'tag',
      'path_prefix',
      'mcp_server',
    ]);
    expect(Object.isFrozen(builtInMatchers)).toBe(true);
  });

  it('restricts every built-in type to the tool-call events', () => {
    for (const definition of builtInMatchers)
      expect(definition.events).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
  });
});

describe('createMatcherRegistry', () => {
  it('lists and returns the definitions it was built from, in order', () => {
    const registry = createMatcherRegistry(builtInMatchers);
    expect(registry.types).toEqual(['tool', 'tag', 'path_prefix', 'mcp_server']);
    expect(registry.get('tag')).toBe(tagMatcher);
    expect(registry.has('path_prefix')).toBe(true);
    expect(registry.get('regex')).toBeUndefined();
    expect(registry.has('regex')).toBe(false);
  });

  it('builds independent registries when given different lists', () => {
    const extra = defineMatcher({
      type: 'extra',
      optionsSchema: toolMatcher.optionsSchema,
      create: () => () => true,
    });
    const withExtra = createMatcherRegistry([...builtInMatchers, extra]);
    const plain = createMatcherRegistry(builtInMatchers);
    expect(withExtra.has('extra')).toBe(true);
    expect(plain.has('extra')).toBe(false);
    expect(Object.isFrozen(withExtra)).toBe(true);
  });

  it('throws INVALID_MATCHER when a type is registered twice', () => {
    try {
      createMatcherRegistry([...builtInMatchers, toolMatcher]);
      expect.unreachable();
    } catch (error) {
      expect(MatcherError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'INVALID_MATCHER', value: 'tool' });
    }
  });

  it.each([
    { type: '', optionsSchema: toolMatcher.optionsSchema, create: () => () => true },
    { type: 'x', optionsSchema: {}, create: () => () => true },
    { type: 'x', optionsSchema: toolMatcher.optionsSchema },
    null,
  ])('throws INVALID_MATCHER when a definition is malformed (%#)', (definition) => {
    expect(() => createMatcherRegistry([definition as unknown as AnyMatcherDefinition])).toThrow(
      expect.objectContaining({ code: 'INVALID_MATCHER' }),
    );
  });
});
