import { describe, expect, it } from 'vitest';
import * as matcher from './index.js';
import * as internal from './internal.js';

describe('index', () => {
  it('exports exactly the pinned runtime names when imported', () => {
    expect(Object.keys(matcher).sort()).toEqual([
      'MATCHER_ERROR_CODES',
      'MatcherError',
      'TOOL_CALL_EVENTS',
      'builtInMatchers',
      'closestMatch',
      'compileRules',
      'createMatcherRegistry',
      'defineMatcher',
    ]);
  });
});

describe('internal', () => {
  it('exports exactly the pinned names only sibling packages use, none of them public', () => {
    expect(Object.keys(internal).sort()).toEqual([
      'MAX_SHOWN_CHARACTERS',
      'PLAIN_NAME_PATTERN',
      'createBuiltInMatchers',
      'findUnknownTools',
      'mcpServerOf',
      'showValue',
    ]);
    for (const name of Object.keys(internal)) expect(Object.keys(matcher)).not.toContain(name);
  });
});
