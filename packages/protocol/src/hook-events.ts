/**
 * The hook events: the five of the design note in the order a session meets them, then the two
 * observe-only events every other agent has (SPEC §2.3): `SessionEnd` and `Notification`.
 *
 * This module imports nothing (no zod), so a CLI can list the events in its `--help` without
 * loading the schemas: `import { HOOK_EVENTS } from '@soong-agent/protocol/events'`.
 */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'SessionEnd',
  'Notification',
] as const;

/** A hook event name, as {@link HOOK_EVENTS} lists them. */
export type HookEventName = (typeof HOOK_EVENTS)[number];
