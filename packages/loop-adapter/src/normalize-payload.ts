import path from 'node:path';
import {
  HOOK_EVENTS,
  type HookEvent,
  parseHookInput,
  type ToolCallInfo,
} from '@soong-agent/protocol';
import { RiskClassSchema } from '@soong-agent/protocol/internal';
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
 */
export function checkHookInput(event: HookEvent, input: Record<string, unknown>): void {
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
