import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('index', () => {
  it('exports exactly the public runtime API when imported', () => {
    expect(Object.keys(api).sort()).toEqual(['createSoongHooks', 'default', 'deliverHookContext']);
  });

  it('default-exports a pi extension factory when imported', () => {
    expect(typeof api.default).toBe('function');
    expect(api.default.length).toBe(1);
  });
});
