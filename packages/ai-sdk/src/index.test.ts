import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('index', () => {
  it('exports exactly the public runtime API when imported', () => {
    expect(Object.keys(api).sort()).toEqual(['createHookSession']);
  });
});
