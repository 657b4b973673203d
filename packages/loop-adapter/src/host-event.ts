import { HOST_EVENTS, type HostEventName } from '@soong-agent/protocol';
import {
  PreCompactInputSchema,
  SubagentStartInputSchema,
  SubagentStopInputSchema,
} from '@soong-agent/protocol/internal';
import { checkOption, LoopAdapterError } from './loop-adapter-error.js';
import { COMMON_INPUT_KEYS as COMMON } from './normalize-payload.js';

// The event fields a host gives, strict: a misspelt key is the host's bug, not data for hooks.
const FIELDS_SCHEMAS = {
  PreCompact: PreCompactInputSchema.omit(COMMON).strict(),
  SubagentStart: SubagentStartInputSchema.omit(COMMON).strict(),
  SubagentStop: SubagentStopInputSchema.omit(COMMON).strict(),
} as const;

const HOST_EVENT_NAMES: ReadonlySet<string> = new Set(HOST_EVENTS);

/**
 * Checks the event and fields of `session.fire` (spec §13.2) and returns the fields as the hooks
 * get them. Throws `LoopAdapterError` `INVALID_OPTIONS` naming the event or the field and the fix.
 */
export function checkHostEventFields(event: unknown, fields: unknown): Record<string, unknown> {
  if (!HOST_EVENT_NAMES.has(event as string)) {
    checkOption(
      false,
      'event',
      event,
      `session.fire runs the events a host fires itself: ${HOST_EVENTS.join(', ')} (the others run through userPrompt, toolGate, stop, notify and close)`,
    );
  }
  const schema = FIELDS_SCHEMAS[event as HostEventName];
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length === 0 ? 'fields' : `fields.${issue.path.join('.')}`;
    return `${where}: ${issue.message}`;
  });
  throw new LoopAdapterError({
    code: 'INVALID_OPTIONS',
    message: `session.fire("${String(event)}"): ${problems.join('; ')} (${event} takes ${Object.keys(schema.shape).join(', ')})`,
    cause: parsed.error,
  });
}
