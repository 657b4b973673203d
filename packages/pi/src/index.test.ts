import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('index', () => {
  it('exports exactly the public runtime API when imported', () => {
    expect(Object.keys(api).sort()).toEqual([
      'HOOK_CONTEXT_MESSAGE_TYPE',
      'PI_TOOL_NAMES',
      'STATUS_KEY',
      'createSoongHooks',
      'default',
      'deliverHookContext',
      'hookContextMessage',
      'piToolDescription',
    ]);
  });

  it('default-exports a pi extension factory when imported', () => {
    expect(typeof api.default).toBe('function');
    expect(api.default.length).toBe(1);
  });
});
