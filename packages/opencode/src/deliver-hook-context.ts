import { hookContextToMessage } from '@soong-agent/loop-adapter';
import type { HookContextNode } from '@soong-agent/protocol';
import type { OpencodeMessage } from './opencode-types.js';

/**
 * Adds hook-context nodes to the request OpenCode is about to send (spec §13.1), from its
 * `experimental.chat.messages.transform` hook: one synthetic **user** message at the end of
 * `messages` (never a system message), one text part per node in the order given (hook order),
 * each the text of `hookContextToMessage(node)`. The message exists only in this request: OpenCode
 * does not store what the transform adds, so each node reaches the model once. `[]` changes nothing.
 * Returns the number of nodes delivered.
 */
export function deliverHookContext(
  messages: OpencodeMessage[],
  nodes: readonly HookContextNode[],
): number {
  if (nodes.length === 0) return 0;
  // The synthetic message speaks for the same agent and model as the user's last message.
  const lastUser = messages.findLast((message) => message.info.role === 'user');
  const last = messages.at(-1);
  const sessionID = last?.info.sessionID ?? lastUser?.info.sessionID ?? '';
  const id = `msg_soong_context_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  messages.push({
    info: {
      ...(lastUser?.info ?? {}),
      id,
      role: 'user',
      sessionID,
      time: { created: Date.now() },
    },
    parts: nodes.map((node, index) => ({
      id: `prt_soong_context_${index}_${id.slice(18)}`,
      sessionID,
      messageID: id,
      type: 'text',
      text: hookContextToMessage(node).content,
      synthetic: true,
    })),
  });
  return nodes.length;
}
