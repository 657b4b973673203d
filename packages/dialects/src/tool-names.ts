import { HOOK_EVENTS, type HookEvent } from '@soong-agent/protocol';
import type { Dialect } from './dialect.js';
import { invert } from './shared.js';

/** Our event names, each mapped to itself (soong's and Claude Code's event map). Frozen. */
export const OUR_EVENT_NAMES: Readonly<Record<string, HookEvent>> = Object.freeze(
  Object.fromEntries(HOOK_EVENTS.map((event) => [event, event])),
);

/** The name `table` (ours → theirs) gives one of our tools; its own name when not listed. */
export function theirToolName(table: Readonly<Record<string, string>>, ours: string): string {
  return Object.hasOwn(table, ours) ? (table[ours] as string) : ours;
}

/** Our name of one of their tools in `table` (theirs → ours), or undefined. */
export function ourToolNameIn(
  table: Readonly<Record<string, string>>,
  theirs: string,
): string | undefined {
  return Object.hasOwn(table, theirs) ? table[theirs] : undefined;
}

/**
 * A dialect's tool names back to ours: its `ourToolNames` when it has them, else the inverse of
 * `toolNames` (the first of ours wins where two of ours share one of theirs). Frozen.
 */
export function dialectToolAliases(dialect: Dialect): Readonly<Record<string, string>> {
  return dialect.ourToolNames ?? Object.freeze(invert(dialect.toolNames));
}
