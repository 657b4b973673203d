import path from 'node:path';
import {
  HOOK_EVENTS,
  type HookEvent,
  HookInputSchema,
  parseHookInput,
  TOOL_EVENTS,
  type ToolCallInfo,
} from '@soong-agent/protocol';
import { ArtifactRefSchema, RiskClassSchema } from '@soong-agent/protocol/internal';
import type { z } from 'zod';
import { util as zodUtil } from 'zod/v4/core';
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
 *
 * This is the one check of the tool: what it returns is a valid spec §2.1 `tool` (a property test
 * holds it to the protocol's `ToolCallInfoSchema`, both ways), so {@link checkHookInput} leaves the
 * field out. Each field is checked by hand, for an error that names it and says what to pass.
 */
export function normalizeToolCall(tool: unknown, projectDir: string): ToolCallInfo {
  checkOption(
    isPlainObject(tool),
    'payload.tool',
    tool,
    'pass { name, call_id, input, risk, tags, paths } for a tool event',
  );
  // Every tool call passes here, also with no rule to match: plain checks, no closures.
  const {
    name,
    call_id: callId,
    input,
    risk,
    tags,
    paths,
    input_truncated: truncated,
    input_artifact_ref: artifactRef,
  } = tool as Record<string, unknown>;
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
  checkOption(
    truncated === undefined || typeof truncated === 'boolean',
    'payload.tool.input_truncated',
    truncated,
    'pass true when long strings of input were summarised, false, or leave it out',
  );
  checkOption(
    artifactRef === undefined || ArtifactRefSchema.safeParse(artifactRef).success,
    'payload.tool.input_artifact_ref',
    artifactRef,
    'pass the { id, path, bytes, sha256 } of the stored input, or leave it out',
  );
  const objectInput = isPlainObject(input);
  checkOption(
    !objectInput || isRecord(input),
    'payload.tool.input',
    input,
    "pass the call's arguments as a plain object with string keys (any other value is passed as { value })",
  );
  const info = tool as ToolCallInfo;
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
 * engine's own (its session, its dirs, the hook's id, its clock), valid by construction, and a tool
 * event's `tool` was checked whole by {@link normalizeToolCall}; so each call's check walks only
 * the other fields the caller gave, with the event's schema without those keys. An input that
 * fails it is parsed whole, for the same error as the whole schema gives.
 */
export function checkHookInput(
  event: HookEvent,
  fields: Record<string, unknown>,
  input: Record<string, unknown>,
): void {
  const schema = eventFieldsSchema(event);
  if (schema === undefined || schema.safeParse(fields).success) return;
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

const eventFieldsSchemas = new Map<HookEvent, z.ZodObject | undefined>();

// The schema of one event's input without its common fields and its `tool`, made once per event;
// undefined when nothing is left to check (PreToolUse).
function eventFieldsSchema(event: HookEvent): z.ZodObject | undefined {
  if (eventFieldsSchemas.has(event)) return eventFieldsSchemas.get(event);
  const whole = (HookInputSchema.options as readonly z.ZodObject[]).find(
    (option) => (option.shape.event as z.ZodLiteral).value === event,
  );
  if (whole === undefined) throw new Error(`no spec §2.1 input schema for ${event}`);
  const mask: Record<string, true> = { ...COMMON_INPUT_KEYS };
  // Left out only where the engine ran normalizeToolCall on it: the tool events.
  if (TOOL_EVENTS.includes(event)) mask.tool = true;
  const rest = whole.omit(mask);
  const schema = Object.keys(rest.shape).length === 0 ? undefined : rest;
  eventFieldsSchemas.set(event, schema);
  return schema;
}

// What the schema's `z.record(z.string(), z.unknown())` takes: a plain object (zod's own test: a
// Date, a Map or a class instance is not) with no enumerable symbol key.
function isRecord(value: object): boolean {
  if (!zodUtil.isPlainObject(value)) return false;
  for (const key of Object.getOwnPropertySymbols(value)) {
    if (Object.prototype.propertyIsEnumerable.call(value, key)) return false;
  }
  return true;
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
