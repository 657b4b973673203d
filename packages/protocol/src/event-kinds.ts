import type { HookEventName } from './hook-events.js';

// Which events block and which are about a tool call: zod-free like the event list itself, and in
// a module apart from the hook input's schemas, so a host that needs only these facts (config, the
// dialects, a CLI's `hooks validate`) does not build those schemas when it loads.

/** Events whose `deny` blocks something: a tool call (`PreToolUse`) or the end of the loop (`Stop`). */
export const BLOCKING_EVENTS: readonly HookEventName[] = Object.freeze([
  'PreToolUse',
  'Stop',
] as const);

/** True when a `deny` on `event` blocks something (one of {@link BLOCKING_EVENTS}). */
export function isBlockingEvent(event: string): boolean {
  return (BLOCKING_EVENTS as readonly string[]).includes(event);
}

/** Events about one tool call; only these can use the `tool`, `tag` and `path_prefix` matchers. */
export const TOOL_EVENTS: readonly HookEventName[] = Object.freeze([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
] as const);
