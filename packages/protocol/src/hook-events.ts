/**
 * The hook events: the five of the design note in the order a session meets them, then the two
 * observe-only events every other agent has (spec §2.3): `SessionEnd` and `Notification`, then the
 * observe-only events of spec §13.2: `PostToolUseFailure` (a tool call whose result is an error)
 * and the events a host fires when it compacts or runs subagents (`PreCompact`, `SubagentStart`,
 * `SubagentStop`; see {@link HOST_EVENTS}).
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
  'PostToolUseFailure',
  'PreCompact',
  'SubagentStart',
  'SubagentStop',
] as const;

/**
 * The events a host fires itself through `session.fire(event, fields)` (spec §13.2): the agent
 * compacts its context (`PreCompact`), starts or ends a subagent (`SubagentStart`, `SubagentStop`).
 * All observe only. The reference agent fires none of them.
 */
export const HOST_EVENTS = ['PreCompact', 'SubagentStart', 'SubagentStop'] as const;

/** An event a host fires through `session.fire`, as {@link HOST_EVENTS} lists them. */
export type HostEventName = (typeof HOST_EVENTS)[number];

/** A hook event name, as {@link HOOK_EVENTS} lists them. */
export type HookEventName = (typeof HOOK_EVENTS)[number];
