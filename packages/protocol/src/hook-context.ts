import { z } from 'zod';
import { HookEventSchema } from './hook-input.js';

const StopContextNodeSchema = z.object({
  kind: z.literal('hook_context'),
  event: z.literal('Stop'),
  hook_id: z.string().min(1).describe('Id of the Stop hook that denied.'),
  reason: z.string().describe('Its reason (or `denied by hook <id>` when it gave none).'),
});

const AddedContextNodeSchema = z.object({
  kind: z.literal('hook_context'),
  event: HookEventSchema.describe('The event whose hook added the context.'),
  hook_id: z.string().min(1).describe('Id of the hook that added it.'),
  text: z
    .string()
    .describe(
      'The context, bounded: over `hooks.inline_result_bytes` its summary and the artifact path.',
    ),
});

/**
 * A hook-context node: what a hook gives the model, rendered by {@link renderHookContext} as a
 * synthetic **user** message (never a system message) on the next model call. Two shapes:
 * - a Stop hook prevented completion (spec §4): `{ kind, event: "Stop", hook_id, reason }`;
 * - a hook added context (spec §13.1, `[hooks] deliver_context = true`):
 *   `{ kind, event, hook_id, text }`, from any event and any dialect.
 */
export const HookContextNodeSchema = z.union([StopContextNodeSchema, AddedContextNodeSchema]);
/** A hook-context node. */
export type HookContextNode = z.infer<typeof HookContextNodeSchema>;
/** The node of context a hook added (spec §13.1). */
export type AddedContextNode = z.infer<typeof AddedContextNodeSchema>;

/**
 * The exact text of the synthetic user message for a hook-context node. A Stop node:
 *
 * ```text
 * Stop hook "<hook_id>" prevented completion: <reason>
 *
 * The task is not finished. Address the reason above, then continue.
 * ```
 *
 * A node of added context:
 *
 * ```text
 * <event> hook "<hook_id>" added context:
 *
 * <text>
 * ```
 */
export function renderHookContext(node: HookContextNode): string {
  if ('reason' in node) {
    return (
      `Stop hook "${node.hook_id}" prevented completion: ${node.reason}\n\n` +
      'The task is not finished. Address the reason above, then continue.'
    );
  }
  return `${node.event} hook "${node.hook_id}" added context:\n\n${node.text}`;
}
