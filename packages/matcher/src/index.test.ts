import { describe, expect, it } from 'vitest';
import * as matcher from './index.js';

describe('index', () => {
  it('exports exactly the pinned runtime names when imported', () => {
    expect(Object.keys(matcher).sort()).toEqual(
      [
        'MATCHER_ERROR_CODES',
        'MatcherError',
        'PLAIN_NAME_PATTERN',
        'TOOL_CALL_EVENTS',
        'builtInMatchers',
        'createBuiltInMatchers',
        'createToolMatcher',
        'closestMatch',
        'compileRules',
        'createMatcherRegistry',
        'defineMatcher',
        'findUnknownTools',
        'isPathUnder',
        'mcpServerMatcher',
        'nameListSchema',
        'normalizePathPrefix',
        'pathPrefixMatcher',
        'suggestExactTools',
        'suggestPathPrefix',
        'tagMatcher',
        'toolMatcher',
      ].sort(),
    );
  });
});
