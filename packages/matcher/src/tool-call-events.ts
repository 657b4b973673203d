/** The events that carry a tool call; the built-in types apply only to them. */
export const TOOL_CALL_EVENTS: readonly string[] = Object.freeze([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
]);
