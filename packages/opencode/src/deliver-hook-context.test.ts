import type { HookContextNode } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import { deliverHookContext } from './deliver-hook-context.js';
import type { OpencodeMessage } from './opencode-types.js';

const history = (): OpencodeMessage[] => [
  {
    info: {
      id: 'msg_1',
      role: 'user',
      sessionID: 'ses_1',
      agent: 'build',
      model: { providerID: 'p', modelID: 'm' },
    },
    parts: [{ type: 'text', text: 'fix the tests' }],
  },
  {
    info: { id: 'msg_2', role: 'assistant', sessionID: 'ses_1' },
    parts: [{ type: 'tool', callID: 'c1' }],
  },
];
const node = (hook_id: string, reason: string): HookContextNode => ({
  kind: 'hook_context',
  event: 'Stop',
  hook_id,
  reason,
});

describe('deliverHookContext', () => {
  it('appends one synthetic user message with one part per node, in hook order, after the last message', () => {
    const messages = history();
    expect(deliverHookContext(messages, [node('first', 'one'), node('second', 'two')])).toBe(2);
    expect(messages).toHaveLength(3);
    const added = messages[2] as OpencodeMessage;
    expect(added.info).toMatchObject({
      role: 'user',
      sessionID: 'ses_1',
      agent: 'build',
      model: { providerID: 'p', modelID: 'm' },
    });
    expect(added.info.id).not.toBe('msg_1');
    expect(added.parts.map((part) => part.type)).toEqual(['text', 'text']);
    expect(
      added.parts.every((part) => part.synthetic === true && part.messageID === added.info.id),
    ).toBe(true);
    expect(added.parts[0]?.text).toContain('"first"');
    expect(added.parts[0]?.text).toContain('one');
    expect(added.parts[1]?.text).toContain('"second"');
    // Never a system message.
    expect(messages.some((message) => message.info.role === 'system')).toBe(false);
  });

  it('changes nothing without nodes', () => {
    const messages = history();
    expect(deliverHookContext(messages, [])).toBe(0);
    expect(messages).toEqual(history());
  });
});
