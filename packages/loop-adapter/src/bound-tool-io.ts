import type { ArtifactRef } from '@soong-agent/protocol';
import type { ToolResultPayload } from '@soong-agent/protocol/internal';
import type { ArtifactStore } from './artifact-store.js';
import { summarizeText } from './summarize-text.js';
import { isPlainObject, type SerialisedToolInput } from './tool-call.js';

/** Per-string head/tail kept when a tool input is bounded; a second, tighter pass if still too big. */
const INPUT_STRING_PASSES = [
  { headBytes: 1024, tailBytes: 1024 },
  { headBytes: 128, tailBytes: 128 },
] as const;

/** A tool input as hooks and the event log see it (spec §2.1). */
export interface BoundedToolInput {
  /** The input, or a copy with long strings replaced by head-and-tail summaries. */
  input: Record<string, unknown>;
  /** True when `input` is not the full input. */
  input_truncated?: true;
  /** The full input (JSON), when truncated and an artifact store was given. */
  input_artifact_ref?: ArtifactRef;
}

/** Options of {@link boundSerialisedToolInput} and {@link boundToolResult}. */
export interface BoundOptions {
  /** The `hooks.inline_result_bytes` limit. */
  limitBytes: number;
  /** Where the full content goes when over the limit. @default undefined (no artifact) */
  artifacts?: ArtifactStore | undefined;
}

/**
 * Bounds a tool call's input: when its JSON exceeds `limitBytes`, long string values (at any
 * depth) become head-and-tail summaries, `input_truncated` is set and the full input is stored as an
 * artifact. If summarising strings is not enough (e.g. a huge array of numbers), the input becomes
 * `{ "truncated_json": <summary of the JSON> }`. A non-object input is wrapped as `{ "value": input }`.
 * The input comes serialised once (`serialiseToolInput` of the tool-call module); the JSON returned is what hooks
 * get: the same JSON when the input fits (the common case), else the bounded one's.
 */
export async function boundSerialisedToolInput(
  serialised: SerialisedToolInput,
  options: BoundOptions,
): Promise<{ bounded: BoundedToolInput; json: string }> {
  const { input, json } = serialised;
  if (fitsInline(json, options.limitBytes)) return { bounded: { input }, json };
  return boundLargeToolInput(input, json, options);
}

/**
 * True when a serialised tool input goes to hooks as it is (within `limitBytes`): what a caller
 * on the hot path checks before it awaits {@link boundSerialisedToolInput} for an input to bound.
 */
export function fitsInline(json: string, limitBytes: number): boolean {
  // A UTF-8 byte is at most 3 per UTF-16 unit: short JSON is measured without encoding it.
  return json.length <= limitBytes / 3 || Buffer.byteLength(json) <= limitBytes;
}

async function boundLargeToolInput(
  object: Record<string, unknown>,
  json: string,
  options: BoundOptions,
): Promise<{ bounded: BoundedToolInput; json: string }> {
  let bounded: Record<string, unknown> | undefined;
  let boundedJson = '';
  for (const pass of INPUT_STRING_PASSES) {
    const candidate = summarizeStrings(object, pass) as Record<string, unknown>;
    boundedJson = JSON.stringify(candidate);
    if (Buffer.byteLength(boundedJson) <= options.limitBytes) {
      bounded = candidate;
      break;
    }
  }
  if (bounded === undefined) {
    bounded = { truncated_json: summarizeText(json) };
    boundedJson = JSON.stringify(bounded);
  }
  const result: BoundedToolInput = { input: bounded, input_truncated: true };
  if (options.artifacts) result.input_artifact_ref = await options.artifacts.put(json);
  return { bounded: result, json: boundedJson };
}

/** A bounded tool result: what the PostToolUse hook gets, and the artifact when one was written. */
export interface BoundedToolResult {
  payload: ToolResultPayload;
  artifactRef?: ArtifactRef;
}

/**
 * Bounds a tool result (spec §2.1/§4): up to `limitBytes` it is passed inline
 * (`{ is_error, bytes, content }`); above, it is written to the artifact store first and passed as
 * `{ is_error, bytes, summary, artifact_ref }`.
 */
export async function boundToolResult(
  content: string,
  isError: boolean,
  options: BoundOptions & { artifacts: ArtifactStore },
): Promise<BoundedToolResult> {
  const bytes = Buffer.byteLength(content);
  if (bytes <= options.limitBytes) return { payload: { is_error: isError, bytes, content } };
  const artifactRef = await options.artifacts.put(content);
  return {
    payload: {
      is_error: isError,
      bytes,
      summary: summarizeText(content),
      artifact_ref: artifactRef,
    },
    artifactRef,
  };
}

/**
 * What the model sees of a text the session gives it (a tool result, a hook's context): the text
 * when it fits `limitBytes`; else its head and tail with the byte count and where the full text is
 * stored (spec §6, §11, §13.1).
 */
export function textForModel(
  content: string,
  bytes: number,
  limitBytes: number,
  artifactRef: ArtifactRef | undefined,
  what: 'result' | 'context',
): string {
  if (bytes <= limitBytes) return content;
  const where = artifactRef === undefined ? '' : `; full ${what} stored at ${artifactRef.path}`;
  const label = what === 'result' ? 'tool result' : 'hook context';
  return `${summarizeText(content)}\n[${label}: ${bytes} bytes${where}]`;
}

/** A hook's context bounded for the model: the text it gets, its bytes, and the artifact when stored. */
export interface BoundedContext {
  /** The context, or its head and tail with the byte count and the artifact path. */
  text: string;
  /** Bytes (UTF-8) of the context as the hook gave it. */
  bytes: number;
  /** Where the full context was stored, when it was over the limit and a store was given. */
  artifactRef?: ArtifactRef;
}

/**
 * Bounds a hook's context as a tool result is bounded (spec §13.1): up to `limitBytes` it is given
 * whole; above, it is written to the artifact store and the model gets its summary and the path.
 */
export async function boundContext(
  content: string,
  options: BoundOptions,
): Promise<BoundedContext> {
  const bytes = Buffer.byteLength(content);
  if (bytes <= options.limitBytes) return { text: content, bytes };
  const artifactRef =
    options.artifacts === undefined ? undefined : await options.artifacts.put(content);
  return {
    text: textForModel(content, bytes, options.limitBytes, artifactRef, 'context'),
    bytes,
    ...(artifactRef === undefined ? {} : { artifactRef }),
  };
}

/** Each string of `value` (at any depth) kept at its head and tail; a copy. */
export function summarizeStrings(
  value: unknown,
  pass: { headBytes: number; tailBytes: number },
): unknown {
  if (typeof value === 'string') return summarizeText(value, pass);
  if (Array.isArray(value)) return value.map((item) => summarizeStrings(item, pass));
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = summarizeStrings(item, pass);
    return copy;
  }
  return value;
}
