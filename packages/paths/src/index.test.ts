import { describe, expect, it } from 'vitest';
import * as paths from './index.js';
import * as internal from './internal.js';

describe('index', () => {
  it('exports exactly the pinned runtime names when imported', () => {
    expect(Object.keys(paths).sort()).toEqual([
      'findGitRoot',
      'gitRootHint',
      'isPathInside',
      'realPathOfLongestAncestor',
    ]);
  });
});

describe('internal', () => {
  it('exports exactly the pinned names only sibling packages use, none of them public', () => {
    expect(Object.keys(internal).sort()).toEqual([
      'expandHome',
      'isNormalizedPathInside',
      'pathForms',
      'resolveUserPath',
    ]);
    for (const name of Object.keys(internal)) expect(Object.keys(paths)).not.toContain(name);
  });
});
