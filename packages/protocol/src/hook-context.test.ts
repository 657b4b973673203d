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

  it('renders added context as a user message naming the event and hook when a hook added context', () => {
    const node = HookContextNodeSchema.parse({
      kind: 'hook_context',
      event: 'PostToolUse',
      hook_id: 'lint',
      text: 'src/a.ts:3: unused import',
    });
    expect(renderHookContext(node)).toBe(
      'PostToolUse hook "lint" added context:\n\nsrc/a.ts:3: unused import',
    );
  });
});

describe('HookContextNodeSchema', () => {
  it('accepts a node of added context from every event when it carries text', () => {
    for (const event of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']) {
      const node = { kind: 'hook_context', event, hook_id: 'h', text: 'hello' };
      expect(HookContextNodeSchema.parse(node)).toEqual(node);
    }
  });

  it('rejects a node that has neither a reason nor a text', () => {
    const result = HookContextNodeSchema.safeParse({
      kind: 'hook_context',
      event: 'Stop',
      hook_id: 'h',
    });
    expect(result.success).toBe(false);
  });

  it('rejects a Stop-shaped reason on another event when it has no text', () => {
    const result = HookContextNodeSchema.safeParse({
      kind: 'hook_context',
      event: 'PreToolUse',
      hook_id: 'h',
      reason: 'r',
    });
    expect(result.success).toBe(false);
  });
});
