import { z } from 'zod';

/**
 * A hook-context node: appended to the session when a Stop hook prevents completion, and rendered
 * by {@link renderHookContext} as a synthetic **user** message on the next model call.
 */
export const HookContextNodeSchema = z.object({
  kind: z.literal('hook_context'),
  event: z.literal('Stop'),
  hook_id: z.string().min(1).describe('Id of the Stop hook that denied.'),
  reason: z.string().describe('Its reason (or `denied by hook <id>` when it gave none).'),
});
/** A hook-context node. */
export type HookContextNode = z.infer<typeof HookContextNodeSchema>;

/**
 * The exact text of the synthetic user message for a hook-context node:
 *
 * ```text
 * Stop hook "<hook_id>" prevented completion: <reason>
 *
 * The task is not finished. Address the reason above, then continue.
 * ```
 */
export function renderHookContext(node: HookContextNode): string {
  return (
    `Stop hook "${node.hook_id}" prevented completion: ${node.reason}\n\n` +
    'The task is not finished. Address the reason above, then continue.'
  );
}
