import { describe, expect, it } from 'vitest';
import * as paths from './index.js';

describe('index', () => {
  it('exports exactly the pinned runtime names when imported', () => {
    expect(Object.keys(paths).sort()).toEqual(
      [
        'expandHome',
        'findGitRoot',
        'gitRootHint',
        'isNormalizedPathInside',
        'isPathInside',
        'pathForms',
        'realPathOfLongestAncestor',
        'resolveUserPath',
      ].sort(),
    );
  });
});
