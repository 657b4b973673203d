import { hookContextToMessage } from '@soong-agent/loop-adapter';
import type { HookContextNode } from '@soong-agent/protocol';
import type { PiCustomMessage, PiExtensionAPI } from './pi-types.js';

/** The `customType` of the messages this package adds to a pi session. */
export const HOOK_CONTEXT_MESSAGE_TYPE = 'soong-hook-context';

/** When {@link deliverHookContext} delivers. */
export type HookContextDelivery =
  /** pi is idle (e.g. at `session_start`): with the next prompt, after it. */
  | 'next-prompt'
  /** A loop runs (a tool call or result): before the loop's next model request. */
  | 'next-request'
  /** The loop would end (a Stop hook prevented it): the model is called again at once. */
  | 'continue';

/**
 * One pi custom message for hook-context nodes (spec §4 Stop, §13.1): pi sends a custom message to
 * the model as a **user** message, never a system one. Several nodes are one message, their texts
 * in hook order. `undefined` for no nodes. For a `before_agent_start` handler, which can add one
 * message to the prompt.
 */
export function hookContextMessage(nodes: readonly HookContextNode[]): PiCustomMessage | undefined {
  if (nodes.length === 0) return undefined;
  return {
    customType: HOOK_CONTEXT_MESSAGE_TYPE,
    content: nodes.map((node) => hookContextToMessage(node).content).join('\n\n'),
    display: true,
    details: { nodes: nodes.map((node) => ({ event: node.event, hook_id: node.hook_id })) },
  };
}

/**
 * Delivers hook-context nodes to pi's model, one custom message per node in hook order, through
 * `pi.sendMessage`: `next-prompt` queues them for the next prompt (`deliverAs: "nextTurn"`),
 * `next-request` steers them into the running loop after the current tool calls (`"steer"`),
 * `continue` makes pi go on (`"followUp"` with `triggerTurn`, which starts a new model call when
 * the loop already ended). Returns how many messages were sent.
 */
export function deliverHookContext(
  pi: Pick<PiExtensionAPI, 'sendMessage'>,
  nodes: readonly HookContextNode[],
  when: HookContextDelivery,
): number {
  const options =
    when === 'continue'
      ? { deliverAs: 'followUp' as const, triggerTurn: true }
      : { deliverAs: when === 'next-prompt' ? ('nextTurn' as const) : ('steer' as const) };
  for (const node of nodes) {
    const message = hookContextMessage([node]);
    if (message !== undefined) pi.sendMessage(message, options);
  }
  return nodes.length;
}
