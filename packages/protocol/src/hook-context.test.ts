import { describe, expect, it } from 'vitest';
import { HookContextNodeSchema, renderHookContext } from './index.js';

describe('renderHookContext', () => {
  it('renders the exact synthetic user message when a Stop hook denied', () => {
    expect(
      renderHookContext({
        kind: 'hook_context',
        event: 'Stop',
        hook_id: 'Stop[0][1]',
        reason: 'tests fail',
      }),
    ).toBe(
      'Stop hook "Stop[0][1]" prevented completion: tests fail\n\n' +
        'The task is not finished. Address the reason above, then continue.',
    );
  });

  it('keeps a multi-line reason verbatim when the hook gave one', () => {
    const reason = '2 tests fail:\n  - parses flags\n  - prints help';
    const text = renderHookContext(
      HookContextNodeSchema.parse({
        kind: 'hook_context',
        event: 'Stop',
        hook_id: 'tests',
        reason,
      }),
    );
    expect(text.startsWith(`Stop hook "tests" prevented completion: ${reason}\n\n`)).toBe(true);
  });
});
