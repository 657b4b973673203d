import type { ArtifactRef, RiskClass } from '@soong-agent/protocol';

// The bottom of loop-adapter: the types of one tool call and what every layer above (the engine,
// the gate, the batch, the transcript) shares about it. It imports nothing of the package.

/** One tool call from a model turn. */
export interface ToolCall {
  /** Call id, unique in the session. */
  id: string;
  /** Tool name as the model gave it. */
  name: string;
  /** Input object. */
  input: unknown;
}

/** One call as a host gives it to a tool gate (`gate.run` / `gate.before`). */
export interface ToolGateCall extends ToolCall {
  /** Risk class; overrides the registry's tool. A call with neither is an unknown tool. @default the registry tool's risk */
  risk?: RiskClass;
  /** Extra tags for `tag` matchers. @default the registry tool's tags, else [] */
  tags?: readonly string[];
  /**
   * The paths the call touches (absolute or project-relative). @default the registry tool's
   * `paths(input)`; else, for our canonical file tools (`read_file`, `write_file`, `edit_file`,
   * `list_dir`, `grep`), `input.path` (grep: `.` when absent); else []
   */
  paths?: readonly string[];
}

/** What a tool returns. */
export interface ToolExecutionResult {
  /** The full result text (the gate bounds what hooks and the model see). */
  content: string;
  /** True when the tool failed. */
  isError: boolean;
}

/** What runs a call the hooks let run (`ToolDefinition.execute`, or the host's own function). */
export type ToolExecute = (
  input: unknown,
  context: { signal?: AbortSignal; callId: string },
) => Promise<ToolExecutionResult>;

/** A tool the loop can call. */
export interface ToolDefinition {
  /** Canonical name, e.g. `write_file`. */
  name: string;
  /** Risk class; always one of the tool's tags for matching. */
  risk: RiskClass;
  /** Extra tags for `tag` matchers. @default [] */
  tags?: readonly string[];
  /** The paths a call touches (absolute or project-relative). @default () => [] */
  paths?(input: unknown): string[];
  /**
   * How other agents' hooks (spec §11, §12 dialects) name this tool, per dialect, e.g.
   * `{ "claude-code": "Bash" }`. A dialect not listed maps `name` by its own table (our canonical
   * names: `bash` → `Bash`), and a name it does not know reaches its hooks unchanged. A declared
   * name that is one of the dialect's own tools gets that tool's input conversion. @default {}
   */
  dialectName?: Readonly<Record<string, string>>;
  /**
   * Maps a call's input to the input of our canonical tool of the same kind, for dialect hooks only
   * (e.g. an app's `bash` taking `{ cmd }` → `{ command: cmd }`, which a Claude Code hook then sees
   * as `tool_input.command`). Our own hooks, matchers and records see the input as given. A throw
   * leaves the input as given. @default the input as given
   */
  dialectInput?(input: unknown): unknown;
  /** Runs the call. A throw becomes an `is_error` result. */
  execute: ToolExecute;
}

/** What the permission callback learns of a tool: a {@link ToolDefinition} without `execute`. */
export type ToolDescription = Pick<ToolDefinition, 'name' | 'risk'> &
  Partial<Omit<ToolDefinition, 'name' | 'risk'>>;

/** Exactly one per call of the batch, in order. */
export interface ToolResult {
  callId: string;
  name: string;
  /** What goes back to the model (full text; bound it for the model yourself). */
  content: string;
  isError: boolean;
  /** `ok`/`error`: the tool ran (or is unknown / aborted: `error`); `denied`: hook or permission; `skipped`: after a halt. */
  status: 'ok' | 'error' | 'denied' | 'skipped';
  /** Where the full result was stored, when it was over `inline_result_bytes`. */
  artifactRef?: ArtifactRef;
  /** Bytes of `content` (UTF-8). */
  bytes: number;
}

/** Anything that looks tools up by name (a `Map` works). */
export interface ToolRegistry {
  get(name: string): ToolDefinition | undefined;
}

/** What the tool gate needs to look up: tools without `execute` (a `ToolRegistry` is one). */
export interface ToolDescriptions {
  get(name: string): ToolDescription | undefined;
}

/** Asks whether a call may run, after the PreToolUse hooks allowed it. */
export type PermissionCallback = (request: {
  call: ToolCall;
  /** The tool (the registry's definition, or what a gate call declared of it). */
  tool: ToolDescription;
  risk: RiskClass;
  paths: string[];
  /**
   * Set when a Claude Code hook answered `permissionDecision: "ask"` (spec §7): ask the user even
   * when the risk class is allowed, and tell them that hook `hookId` asked, with `reason`.
   */
  hookAsk?: { hookId: string; reason: string };
}) => Promise<{ allow: true } | { allow: false; reason: string }>;

/**
 * How dialect hooks (spec §11, §12: `"protocol"` other than `"soong"`) see one call of a tool that
 * a host names its own way; built from `ToolDefinition.dialectName` / `dialectInput`. Our own
 * (`soong`) hooks, matchers and records never see it.
 */
export interface ToolDialectView {
  /** The tool's name per dialect, e.g. `{ "claude-code": "Bash" }`; a dialect not listed maps `tool.name` by its own table. */
  names?: Readonly<Record<string, string>>;
  /**
   * The call's input in the shape of the canonical tool the dialect sees (e.g. `{ command }` for
   * `bash`); the dialect converts it like that tool's input. @default tool.input
   */
  input?: unknown;
}

// The views dialectView made, one per call: the engine bounds each once for the whole call.
const callViews = new WeakSet<object>();

/** True for a view {@link dialectView} made (fresh per call, never changed). */
export function isCallDialectView(view: object): boolean {
  return callViews.has(view);
}

/** The per-call view dialect hooks get of a host-named tool (undefined when it declares none). */
export function dialectView(tool: ToolDescription, input: unknown): ToolDialectView | undefined {
  if (tool.dialectName === undefined && tool.dialectInput === undefined) return undefined;
  const view = viewOf(tool, input);
  callViews.add(view);
  return view;
}

function viewOf(tool: ToolDescription, input: unknown): ToolDialectView {
  let mapped: unknown;
  if (tool.dialectInput !== undefined) {
    try {
      mapped = tool.dialectInput(input);
    } catch {
      mapped = undefined;
    }
  }
  return {
    ...(tool.dialectName === undefined ? {} : { names: tool.dialectName }),
    ...(mapped === undefined ? {} : { input: mapped }),
  };
}

/** An `is_error` result of a call that did not run. */
export function textResult(
  call: ToolCall,
  content: string,
  status: ToolResult['status'],
): ToolResult {
  return {
    callId: call.id,
    name: call.name,
    content,
    isError: true,
    status,
    bytes: Buffer.byteLength(content),
  };
}

/** True for a non-null, non-array object (what a tool input must be). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A tool input as an object, serialised: what every layer above reuses instead of serialising it again. */
export interface SerialisedToolInput {
  /** The input, `{ value: input }` when it is not an object. */
  input: Record<string, unknown>;
  /** `JSON.stringify(input)`. */
  json: string;
}

/** The one place a tool input is serialised (a spy on `stringify` counts serialisations per call). */
export const toolInputSerialiser = {
  stringify(value: unknown): string {
    return JSON.stringify(value) ?? '{}';
  },
};

/** Serialises a tool input (a non-object input becomes `{ value: input }`). */
export function serialiseToolInput(input: unknown): SerialisedToolInput {
  const object = isPlainObject(input) ? input : { value: input };
  return { input: object, json: toolInputSerialiser.stringify(object) };
}

// The JSON of `tool.input` by the tool object (`ToolCallInfo`) the gate built for one call: the
// engine composes every hook's stdin around it, so the input is walked once per call. Keyed by the
// per-call tool object, never by the host's input (a host may reuse and change an input object).
const toolInputJson = new WeakMap<object, string>();

/** Remembers `json` as the JSON of `tool.input`; `tool` must be a fresh object no one changes. */
export function rememberToolInputJson(tool: { input: unknown }, json: string): void {
  toolInputJson.set(tool, json);
}

/** The JSON of `tool.input` remembered for this very tool object, if any. */
export function knownToolInputJson(tool: object): string | undefined {
  return toolInputJson.get(tool);
}

/**
 * `JSON.stringify(object)` with `serialised` put in for some of its keys' values: the stdin of a
 * hook is composed from the parts already serialised, never spliced by hand. Same bytes, same
 * key order.
 */
export function composeJson(
  object: Readonly<Record<string, unknown>>,
  serialised: Readonly<Record<string, string | undefined>>,
): string {
  let out = '';
  for (const key of Object.keys(object)) {
    const part = serialised[key] ?? JSON.stringify(object[key]);
    // JSON.stringify leaves out a key whose value is undefined, a function or a symbol.
    if (part === undefined) continue;
    out += `${out === '' ? '{' : ','}${JSON.stringify(key)}:${part}`;
  }
  return out === '' ? '{}' : `${out}}`;
}
