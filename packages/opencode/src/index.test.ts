import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('index', () => {
  it('exports only the plugin, named and default, when imported (OpenCode calls every export)', () => {
    expect(Object.keys(api).sort()).toEqual(['SoongHooks', 'default']);
    expect(api.default).toBe(api.SoongHooks);
    expect(typeof api.SoongHooks).toBe('function');
  });
});
