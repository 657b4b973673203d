import path from 'node:path';
import {
  HOOK_EVENTS,
  type HookEvent,
  HookInputSchema,
  parseHookInput,
  type ToolCallInfo,
} from '@soong-agent/protocol';
import { RiskClassSchema } from '@soong-agent/protocol/internal';
import type { z } from 'zod';
import { checkOption, LoopAdapterError } from './loop-adapter-error.js';
import { isPlainObject } from './tool-call.js';

const EVENT_NAMES: ReadonlySet<string> = new Set(HOOK_EVENTS);
const RISK_CLASSES: ReadonlySet<unknown> = new Set(RiskClassSchema.options);

/** Throws `INVALID_OPTIONS` unless `event` is one of the five hook events. */
export function checkHookEvent(event: unknown): asserts event is HookEvent {
  if (!EVENT_NAMES.has(event as string)) {
    checkOption(false, 'event', event, `use one of ${HOOK_EVENTS.join(', ')}`);
  }
}

/**
 * Checks a tool event's `payload.tool` and returns it as matchers and hooks see it (spec §1.2,
 * §2.1): a non-object `input` becomes `{ value: input }`, relative `paths` are resolved against
 * `projectDir`, and the risk class is one of the `tags`. Returns `tool` itself when nothing changes
 * (the common case costs no allocation).
 */
export function normalizeToolCall(tool: unknown, projectDir: string): ToolCallInfo {
  checkOption(
    isPlainObject(tool),
    'payload.tool',
    tool,
    'pass { name, call_id, input, risk, tags, paths } for a tool event',
  );
  // Every tool call passes here, also with no rule to match: plain checks, no closures.
  const { name, call_id: callId, input, risk, tags, paths } = tool as Record<string, unknown>;
  checkOption(
    nonEmptyString(name),
    'payload.tool.name',
    name,
    'pass the tool name, e.g. "write_file"',
  );
  checkOption(
    nonEmptyString(callId),
    'payload.tool.call_id',
    callId,
    'pass the id of the tool call',
  );
  checkOption(
    RISK_CLASSES.has(risk),
    'payload.tool.risk',
    risk,
    'use "readonly", "write" or "dangerous"',
  );
  checkOption(
    stringArray(tags),
    'payload.tool.tags',
    tags,
    'pass an array of strings ([] for none)',
  );
  checkOption(
    stringArray(paths),
    'payload.tool.paths',
    paths,
    'pass an array of path strings ([] for none; relative ones are resolved against the project dir)',
  );
  const info = tool as ToolCallInfo;
  const objectInput = isPlainObject(input);
  const hasRiskTag = info.tags.includes(info.risk);
  const relative = hasRelative(info.paths);
  if (objectInput && hasRiskTag && !relative) return info;
  return {
    ...info,
    input: objectInput ? info.input : { value: input },
    tags: hasRiskTag ? info.tags : [info.risk, ...info.tags],
    paths: relative ? info.paths.map((item) => path.resolve(projectDir, item)) : info.paths,
  };
}

/**
 * Throws `INVALID_OPTIONS` (with the protocol's issues as `cause`) unless `input` is a valid spec
 * §2.1 hook input: what a direct caller passed as the payload is checked before any hook sees it.
 * `fields` are the input's event fields (all but the common ones): the common fields are the
 * engine's own (its session, its dirs, the hook's id, its clock), valid by construction, so each
 * call's check walks only the fields the caller gave, with the event's schema without the common
 * keys. An input that fails it is parsed whole, for the same error as the whole schema gives.
 */
export function checkHookInput(
  event: HookEvent,
  fields: Record<string, unknown>,
  input: Record<string, unknown>,
): void {
  if (eventFieldsSchema(event).safeParse(fields).success) return;
  try {
    parseHookInput(input);
  } catch (error) {
    throw new LoopAdapterError({
      code: 'INVALID_OPTIONS',
      message: `payload of ${event} is not a valid hook input (spec §2.1): ${
        error instanceof Error ? error.message : String(error)
      }`,
      cause: error,
    });
  }
  // Not reached while the whole schema holds the event's fields; failed closed all the same.
  throw new LoopAdapterError({
    code: 'INVALID_OPTIONS',
    message: `payload of ${event} is not a valid hook input (spec §2.1)`,
  });
}

/** The spec §2.1 common fields of every hook input, set by the engine (a mask for `omit`). */
export const COMMON_INPUT_KEYS = {
  protocol_version: true,
  event: true,
  session_id: true,
  project_dir: true,
  agent_home: true,
  hook_id: true,
  timestamp: true,
} as const;

const eventFieldsSchemas = new Map<HookEvent, z.ZodObject>();

// The schema of one event's input without its common fields, made once per event.
function eventFieldsSchema(event: HookEvent): z.ZodObject {
  let schema = eventFieldsSchemas.get(event);
  if (schema === undefined) {
    const whole = (HookInputSchema.options as readonly z.ZodObject[]).find(
      (option) => (option.shape.event as z.ZodLiteral).value === event,
    );
    if (whole === undefined) throw new Error(`no spec §2.1 input schema for ${event}`);
    schema = whole.omit(COMMON_INPUT_KEYS);
    eventFieldsSchemas.set(event, schema);
  }
  return schema;
}

function nonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function stringArray(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string') return false;
  return true;
}

function hasRelative(paths: readonly string[]): boolean {
  for (const item of paths) if (!path.isAbsolute(item)) return true;
  return false;
}
