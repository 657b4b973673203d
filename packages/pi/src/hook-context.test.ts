import { hookContextToMessage } from '@soong-agent/loop-adapter';
import type { HookContextNode } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import {
  deliverHookContext,
  HOOK_CONTEXT_MESSAGE_TYPE,
  hookContextMessage,
} from './hook-context.js';
import type { PiCustomMessage } from './pi-types.js';

const node = (hookId: string, reason: string): HookContextNode => ({
  kind: 'hook_context',
  event: 'Stop',
  hook_id: hookId,
  reason,
});

describe('hookContextMessage', () => {
  it('is undefined for no nodes', () => {
    expect(hookContextMessage([])).toBeUndefined();
  });

  it("joins the nodes' texts in hook order into one displayed custom message", () => {
    const nodes = [node('a', 'first'), node('b', 'second')];
    const message = hookContextMessage(nodes);
    expect(message).toMatchObject({ customType: HOOK_CONTEXT_MESSAGE_TYPE, display: true });
    expect(message?.content).toBe(
      `${hookContextToMessage(nodes[0] as HookContextNode).content}\n\n${hookContextToMessage(nodes[1] as HookContextNode).content}`,
    );
  });
});

describe('deliverHookContext', () => {
  // pi's sendMessage as pi calls it: a recording of the messages and options it was given.
  function recorder() {
    const sent: { message: PiCustomMessage; options: unknown }[] = [];
    return {
      sent,
      pi: {
        sendMessage: (message: PiCustomMessage, options?: unknown) =>
          sent.push({ message, options }),
      },
    };
  }

  it('sends one message per node with the delivery mode of each moment', () => {
    const cases = [
      ['next-prompt', { deliverAs: 'nextTurn' }],
      ['next-request', { deliverAs: 'steer' }],
      ['continue', { deliverAs: 'followUp', triggerTurn: true }],
    ] as const;
    for (const [when, options] of cases) {
      const { sent, pi } = recorder();
      expect(deliverHookContext(pi, [node('a', 'one'), node('b', 'two')], when)).toBe(2);
      expect(sent.map((entry) => entry.options)).toEqual([options, options]);
      expect(sent.map((entry) => entry.message.content)).toEqual([
        hookContextToMessage(node('a', 'one')).content,
        hookContextToMessage(node('b', 'two')).content,
      ]);
    }
  });

  it('sends nothing for no nodes', () => {
    const { sent, pi } = recorder();
    expect(deliverHookContext(pi, [], 'continue')).toBe(0);
    expect(sent).toEqual([]);
  });
});
