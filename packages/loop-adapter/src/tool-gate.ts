import path from 'node:path';
import {
  jsonValueDepth,
  MAX_JSON_DEPTH,
  type RiskClass,
  type ToolCallInfo,
} from '@soong-agent/protocol';
import { RiskClassSchema } from '@soong-agent/protocol/internal';
import type { ArtifactStore } from './artifact-store.js';
import { boundSerialisedToolInput, boundToolResult, textForModel } from './bound-tool-io.js';
import type { ClaudeCodeTranscript } from './claude-code-transcript.js';
import type { HookEngine } from './hook-engine.js';
import { checkOption, LoopAdapterError } from './loop-adapter-error.js';
import { roundMs } from './round-ms.js';
import { takeHead } from './summarize-text.js';
import {
  dialectView,
  isPlainObject,
  type PermissionCallback,
  rememberToolInputJson,
  serialiseToolInput,
  type ToolCall,
  type ToolDescription,
  type ToolDescriptions,
  type ToolDialectView,
  type ToolExecute,
  type ToolExecutionResult,
  type ToolGateCall,
  type ToolResult,
  textResult,
} from './tool-call.js';
import { NO_TOOL_CALL_TELEMETRY, type ToolCallTelemetry } from './tool-call-telemetry.js';

/** Bytes of an error result kept in `tool_finished.error_text` (spec §5). */
const ERROR_TEXT_BYTES = 1024;

/** The text of a call skipped because an earlier call of the turn was denied (spec §4). */
export const SKIPPED_TOOL_TEXT = 'not executed: an earlier tool call in this turn was denied';
/** The text of a call that names no known tool. */
export const UNKNOWN_TOOL_TEXT = 'unknown tool';
/** The text of a call whose input nests deeper than `MAX_JSON_DEPTH` (64) levels: it is not run. */
export const TOO_DEEP_INPUT_TEXT = `invalid tool input: arrays and objects nested more than ${MAX_JSON_DEPTH} levels deep`;
/** The text of a call not run because the batch was cancelled. */
export const ABORTED_TOOL_TEXT = 'aborted';
/** The text of a call not run because its hook session closed first (spec §11). */
export const CLOSED_TOOL_TEXT = 'not executed: the hook session was closed';

/** What {@link ToolGate.before} decided. */
export type ToolGateVerdict = { run: true } | { run: false; result: ToolResult };

/** Options of {@link ToolGate.run}. */
export interface ToolGateRunOptions {
  /** Cancels this call: the running hook is stopped; passed on to `execute`. @default the gate's signal */
  signal?: AbortSignal | undefined;
  /** Told of the call as it starts and ends (e.g. {@link openTelemetryToolCalls}). @default NO_TOOL_CALL_TELEMETRY */
  telemetry?: ToolCallTelemetry | undefined;
}

/**
 * The hooks around the tool calls of one model step (spec §4, §11): `run` each call in the
 * model's order (or, for a host that must run the call itself between two of its own callbacks,
 * `before` each call, the call when told to, then `after` with its result).
 */
export interface ToolGate {
  /**
   * One whole call, as vercel/ai's `executeToolCall`: start (`tool_started`, PreToolUse, which may
   * deny it, then the permission callback), execute (`execute(call.input, { signal, callId })`,
   * only when the call may run; a throw becomes an `is_error` result `tool <name> failed: …`),
   * end (`tool_finished`, PostToolUseFailure for an error, PostToolUse, each observe only).
   * Resolves the one result the model must see (denied, skipped, unknown and cancelled calls
   * included); rejects only for misuse (a malformed call, an id in use: `INVALID_OPTIONS`). The
   * same records as `before` + `after`.
   */
  run(call: ToolGateCall, execute: ToolExecute, options?: ToolGateRunOptions): Promise<ToolResult>;
  /**
   * `tool_started`, PreToolUse, then the permission callback (only when no hook denied), with
   * spec §4's deny state of the step: `{ run: false, result }` for a denied, skipped, unknown,
   * too deeply nested or cancelled call (its records are complete), else `{ run: true }`: run
   * it and call `after`. Give the calls in the model's order, each after the previous one ended.
   */
  before(call: ToolGateCall, options?: { signal?: AbortSignal }): Promise<ToolGateVerdict>;
  /**
   * The result of a call `before` let run: the artifact for a large result, `tool_finished`, the
   * transcript line, then PostToolUseFailure when the result is an error, then PostToolUse (both
   * observe only). Returns what the model must see.
   */
  after(
    id: string,
    result: ToolExecutionResult,
    options?: { signal?: AbortSignal },
  ): Promise<ToolResult>;
  /** The engine that runs the hooks; its sink takes the records. */
  readonly engine: HookEngine;
  /** The tools the gate looks calls up in, when given. */
  readonly tools: ToolDescriptions | undefined;
}

/** Options of {@link createToolGate}. */
export interface ToolGateOptions {
  /** Runs the hooks; its sink and artifact store take the records and large results. */
  engine: HookEngine;
  /** Asked for each call the PreToolUse hooks did not deny. @default allowUnlessAsked (a call a hook asked to confirm is refused: no one to ask) */
  permission?: PermissionCallback | undefined;
  /** Tools by name: risk, tags, paths and dialect names of a call that does not give them. @default none */
  tools?: ToolDescriptions | undefined;
  /** Cancels the step: the running hook is stopped, later calls get `aborted` results. @default undefined */
  signal?: AbortSignal | undefined;
  /** The Claude Code transcript kept current call by call (spec §7). @default undefined */
  transcript?: ClaudeCodeTranscript | undefined;
  /**
   * Told of each call `before` let run until its `after`: `close` ends it (its `tool_finished`, an
   * error) when the session closes first. @default undefined
   */
  openCalls?: Map<string, () => void> | undefined;
  /**
   * The ids of the session's calls between their `before` and their end, shared by its gates: a
   * second call under an id in use is refused (`INVALID_OPTIONS`). @default this gate's own
   */
  activeCallIds?: Set<string> | undefined;
  /**
   * True once the session is closing: a call `before` is still deciding is not let run (it gets
   * {@link CLOSED_TOOL_TEXT}). @default never
   */
  isClosing?: (() => boolean) | undefined;
}

/** The result text of a call the host never gave a result for before the session closed. */
export const UNFINISHED_TOOL_TEXT =
  'not finished: the session closed before the host gave the result';

// What `after` needs of a call `before` let run.
interface OpenCall {
  call: ToolGateCall;
  info: ToolCallInfo;
  dialect: ToolDialectView | undefined;
  started: number;
}

/**
 * The permission of a host that has no one to ask: every call is allowed, except one a hook asked
 * to confirm (`permissionDecision: "ask"`), which is refused, as Claude Code's `-p` does.
 */
export const allowUnlessAsked: PermissionCallback = async ({ hookAsk }) =>
  hookAsk === undefined
    ? { allow: true }
    : {
        allow: false,
        reason: `hook ${hookAsk.hookId} asked for confirmation (${hookAsk.reason}) and this host has no one to ask, so the call is refused`,
      };

// What the calls of one gate share: its options and the step's deny state.
interface GateState {
  options: ToolGateOptions;
  engine: HookEngine;
  tools: ToolDescriptions | undefined;
  transcript: ClaudeCodeTranscript | undefined;
  permission: PermissionCallback;
  active: Set<string>;
  isClosing: () => boolean;
  artifacts: ArtifactStore | undefined;
  limitBytes: number;
  /** The denial that halts (or, after a readonly denial, may halt) the step. */
  denial: { callId: string; risk: RiskClass } | undefined;
  halted: boolean;
  open: Map<string, OpenCall>;
}

/**
 * A tool gate for one model step; see {@link ToolGate}. `executeToolBatch` and `createToolBatch`
 * are built on it, so a host that runs its tools itself gets the same records and results.
 */
export function createToolGate(options: ToolGateOptions): ToolGate {
  const { engine, tools } = options;
  const state: GateState = {
    options,
    engine,
    tools,
    transcript: options.transcript,
    permission: options.permission ?? allowUnlessAsked,
    active: options.activeCallIds ?? new Set<string>(),
    isClosing: options.isClosing ?? (() => false),
    artifacts: engine.artifacts,
    limitBytes: engine.config.settings.hooks.inline_result_bytes,
    denial: undefined,
    halted: false,
    open: new Map(),
  };
  const { active, open } = state;
  // Calls are decided in the order `before` was called, each after the one before it: a host that
  // does not await one `before` before the next still gets the step's deny state (spec §4).
  let previous: Promise<unknown> = Promise.resolve();

  const before: ToolGate['before'] = (call, callOptions = {}) => {
    try {
      checkCall(call);
    } catch (error) {
      return Promise.reject(error);
    }
    if (active.has(call.id)) {
      return Promise.reject(
        new LoopAdapterError({
          code: 'INVALID_OPTIONS',
          message: `gate.before: call id ${JSON.stringify(call.id)} is already in use by a call of this session that has not ended; give every call of a session its own id`,
        }),
      );
    }
    active.add(call.id);
    const turn = previous.then(() => decide(state, call, callOptions.signal ?? options.signal));
    previous = turn.catch(() => undefined);
    return turn.then(
      (verdict) => {
        if (!verdict.run) active.delete(call.id);
        return verdict;
      },
      (error: unknown) => {
        active.delete(call.id);
        throw error;
      },
    );
  };

  const after: ToolGate['after'] = async (id, executed, callOptions = {}) => {
    const entry = open.get(id);
    if (entry === undefined) {
      throw new LoopAdapterError({
        code: 'INVALID_OPTIONS',
        message: `gate.after("${id}"): no call ${JSON.stringify(id)} is waiting for its result (call before() first and after() once per call it let run)`,
      });
    }
    open.delete(id);
    active.delete(id);
    options.openCalls?.delete(id);
    return finishCall(state, entry, executed, callOptions.signal ?? options.signal);
  };

  // start → execute → end.
  const runCall = async (
    call: ToolGateCall,
    execute: ToolExecute,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult> => {
    const callOptions = signal === undefined ? {} : { signal };
    const verdict = await before(call, callOptions);
    if (!verdict.run) return verdict.result;
    return after(call.id, await executeSafely(call, execute, signal), callOptions);
  };

  return {
    engine,
    tools,
    before,
    after,
    async run(call, execute, runOptions = {}) {
      checkCall(call);
      checkOption(
        typeof execute === 'function',
        'execute',
        execute,
        'pass the function that runs the call: (input, { signal, callId }) => Promise<{ content, isError }>',
      );
      const signal = runOptions.signal ?? options.signal;
      const telemetry = runOptions.telemetry ?? NO_TOOL_CALL_TELEMETRY;
      // Inside the telemetry's scope when it traces the call (its hooks' spans are children).
      const scope = telemetry.startToolCall(call, call.risk ?? tools?.get(call.name)?.risk);
      if (scope === undefined) return runCall(call, execute, signal);
      const result = await scope.run(() => runCall(call, execute, signal));
      scope.end(result);
      return result;
    },
  };
}

// A call that does not run: its result, in the transcript too.
function closed(
  state: GateState,
  call: ToolCall,
  content: string,
  status: ToolResult['status'],
): { run: false; result: ToolResult } {
  const result = textResult(call, content, status);
  state.transcript?.toolResults([result]);
  return { run: false, result };
}

// A call whose tool_started was recorded and that does not run: closed with its tool_finished.
function finishWithError(
  state: GateState,
  call: ToolCall,
  content: string,
  status: ToolResult['status'],
): { run: false; result: ToolResult } {
  const verdict = closed(state, call, content, status);
  state.engine.sink.emit({
    type: 'tool_finished',
    call_id: call.id,
    tool: call.name,
    is_error: true,
    bytes: verdict.result.bytes,
    ...errorText(true, content),
  });
  return verdict;
}

// The start of a call: its records, the spec §4 deny state, PreToolUse, the permission.
async function decide(
  state: GateState,
  call: ToolGateCall,
  signal: AbortSignal | undefined,
): Promise<ToolGateVerdict> {
  const { sink } = state.engine;
  const tool = state.tools?.get(call.name);
  const risk = call.risk ?? tool?.risk;
  // Computed once per call: the transcript and the dialect hooks see the same view. The
  // transcript names every call a hook is asked about, before its result.
  const dialect = tool === undefined ? undefined : dialectView(tool, call.input);
  const toolUse = (json?: string) => state.transcript?.toolUse(call, dialect, json);
  if (signal?.aborted) {
    toolUse();
    return closed(state, call, ABORTED_TOOL_TEXT, 'error');
  }
  const { denial } = state;
  if (denial && (denial.risk !== 'readonly' || risk !== 'readonly')) state.halted = true;
  if (state.halted && denial) {
    toolUse();
    sink.emit({
      type: 'tool_skipped',
      call_id: call.id,
      tool: call.name,
      denied_call_id: denial.callId,
    });
    return closed(state, call, SKIPPED_TOOL_TEXT, 'skipped');
  }
  if (jsonValueDepth(call.input) > MAX_JSON_DEPTH) {
    toolUse();
    // Serialising it would overflow the stack: not run, not shown to hooks, and recorded without
    // the input; a non-halting error like an unknown tool.
    sink.emit({
      type: 'tool_started',
      call_id: call.id,
      tool: call.name,
      risk: risk ?? 'dangerous',
      input: { truncated_json: `not recorded: nested more than ${MAX_JSON_DEPTH} levels deep` },
      input_truncated: true,
    });
    return finishWithError(state, call, TOO_DEEP_INPUT_TEXT, 'error');
  }
  // The input is serialised here, once: the bound measures it and every hook's stdin reuses it.
  const { bounded, json } = await boundSerialisedToolInput(serialiseToolInput(call.input), {
    limitBytes: state.limitBytes,
    artifacts: state.artifacts,
  });
  // The input's own JSON (not its `{ value }` wrapping) when it was given as an object.
  toolUse(isPlainObject(call.input) && !bounded.input_truncated ? json : undefined);
  if (risk === undefined) {
    // Nothing can run and no hook sees it; the records still pair up (spec §5). An unknown
    // tool is recorded with the most cautious risk class.
    sink.emit({
      type: 'tool_started',
      call_id: call.id,
      tool: call.name,
      risk: 'dangerous',
      unknown_tool: true,
      ...bounded,
    });
    return finishWithError(state, call, UNKNOWN_TOOL_TEXT, 'error');
  }
  const name = tool?.name ?? call.name;
  const { projectDir } = state.engine;
  const paths =
    call.paths === undefined
      ? toolPaths(tool, name, call.input, projectDir)
      : call.paths.map((item) => path.resolve(projectDir, item));
  sink.emit({ type: 'tool_started', call_id: call.id, tool: name, risk, ...bounded });
  const info: ToolCallInfo = {
    name,
    call_id: call.id,
    risk,
    tags: [...new Set([risk, ...(call.tags ?? tool?.tags ?? [])])],
    paths,
    ...bounded,
  };
  rememberToolInputJson(info, json);
  return askHooksAndPermission(state, { call, tool, info, dialect, signal });
}

// PreToolUse, then (when no hook denied) the permission callback; an allowed call is opened.
async function askHooksAndPermission(
  state: GateState,
  started: {
    call: ToolGateCall;
    tool: ToolDescription | undefined;
    info: ToolCallInfo;
    dialect: ToolDialectView | undefined;
    signal: AbortSignal | undefined;
  },
): Promise<ToolGateVerdict> {
  const { call, tool, info, dialect, signal } = started;
  const { name, risk, paths } = info;
  const { sink } = state.engine;
  const pre = await state.engine.run(
    'PreToolUse',
    { tool: info, ...(dialect === undefined ? {} : { dialect }) },
    { signal, callId: call.id },
  );
  if (pre.decision === 'deny') {
    const reason = pre.reason ?? 'denied';
    sink.emit({
      type: 'tool_denied',
      call_id: call.id,
      tool: name,
      source: 'hook',
      reason,
      ...(pre.hookId ? { hook_id: pre.hookId } : {}),
    });
    state.denial ??= { callId: call.id, risk };
    return closed(state, call, `denied by hook ${pre.hookId}: ${reason}`, 'denied');
  }
  // tool_started was recorded: close the call with its one tool_finished.
  if (signal?.aborted || pre.cancelled) {
    return finishWithError(state, call, ABORTED_TOOL_TEXT, 'error');
  }
  if (state.isClosing()) return finishWithError(state, call, CLOSED_TOOL_TEXT, 'error');

  const verdict = await askPermission(state.permission, {
    call: { id: call.id, name: call.name, input: call.input },
    tool: tool ?? { name, risk, ...(call.tags === undefined ? {} : { tags: call.tags }) },
    risk,
    paths,
    ...(pre.ask === undefined ? {} : { hookAsk: pre.ask }),
  });
  if (!verdict.allow) {
    sink.emit({ type: 'permission_denied', call_id: call.id, tool: name, reason: verdict.reason });
    sink.emit({
      type: 'tool_denied',
      call_id: call.id,
      tool: name,
      source: 'permission',
      reason: verdict.reason,
    });
    state.denial ??= { callId: call.id, risk };
    return closed(state, call, `denied by permission: ${verdict.reason}`, 'denied');
  }
  // The session began to close while the permission was asked: never run after close().
  if (state.isClosing()) return finishWithError(state, call, CLOSED_TOOL_TEXT, 'error');
  state.open.set(call.id, { call, info, dialect, started: performance.now() });
  state.options.openCalls?.set(call.id, () => {
    state.open.delete(call.id);
    state.active.delete(call.id);
    finishWithError(state, call, UNFINISHED_TOOL_TEXT, 'error');
  });
  return { run: true };
}

// The end of a call the gate let run: the result bounded and recorded, then the observe-only
// PostToolUseFailure (for an error) and PostToolUse.
async function finishCall(
  state: GateState,
  entry: OpenCall,
  executed: ToolExecutionResult,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const { call, info, dialect } = entry;
  const { artifacts, limitBytes, engine } = state;
  const durationMs = roundMs(performance.now() - entry.started);
  const content = String(executed.content);
  const isError = Boolean(executed.isError);
  if (artifacts === undefined) {
    throw new LoopAdapterError({
      code: 'INVALID_OPTIONS',
      message:
        'the hook engine has no artifact store: create it with { artifacts } (openHookSession does)',
    });
  }
  const { payload, artifactRef } = await boundToolResult(content, isError, {
    limitBytes,
    artifacts,
  });
  engine.sink.emit({
    type: 'tool_finished',
    call_id: call.id,
    tool: info.name,
    is_error: isError,
    bytes: payload.bytes,
    ...(artifactRef ? { artifact_ref: artifactRef } : {}),
    duration_ms: durationMs,
    ...errorText(isError, content),
  });
  const result: ToolResult = {
    callId: call.id,
    name: call.name,
    content: textForModel(content, payload.bytes, limitBytes, artifactRef, 'result'),
    isError,
    status: isError ? 'error' : 'ok',
    bytes: payload.bytes,
    ...(artifactRef ? { artifactRef } : {}),
  };
  // The transcript bounds results its own way (head and tail of the whole text).
  state.transcript?.toolResults([{ ...result, content }]);
  const fields = {
    tool: info,
    result: payload,
    duration_ms: durationMs,
    ...(dialect === undefined ? {} : { dialect }),
  };
  const runOptions = { signal, callId: call.id };
  // A failed call runs PostToolUseFailure first (spec §13.2), then PostToolUse, whose hooks of a
  // dialect with a failure event of its own (claude-code, copilot, cursor) the engine skips.
  if (isError) {
    await engine.run(
      'PostToolUseFailure',
      { ...fields, error: takeHead(content, ERROR_TEXT_BYTES) },
      runOptions,
    );
  }
  await engine.run('PostToolUse', fields, runOptions);
  return result;
}

function checkCall(call: ToolGateCall): void {
  checkOption(
    typeof call === 'object' && call !== null,
    'call',
    call,
    'pass { id, name, input, risk?, tags?, paths? }',
  );
  checkOption(
    typeof call.id === 'string' && call.id !== '',
    'call.id',
    call.id,
    'pass the id of the tool call',
  );
  checkOption(
    typeof call.name === 'string' && call.name !== '',
    'call.name',
    call.name,
    'pass the tool name',
  );
  checkOption(
    call.risk === undefined || RiskClassSchema.safeParse(call.risk).success,
    'call.risk',
    call.risk,
    'use "readonly", "write" or "dangerous"',
  );
}

// The head of an error result, so a failed call can be understood from the log alone.
function errorText(isError: boolean, content: string): { error_text?: string } {
  return isError ? { error_text: takeHead(content, ERROR_TEXT_BYTES) } : {};
}

// A permission callback that throws fails closed: the call is denied, the step goes on.
async function askPermission(
  permission: PermissionCallback,
  request: Parameters<PermissionCallback>[0],
): Promise<Awaited<ReturnType<PermissionCallback>>> {
  try {
    return await permission(request);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { allow: false, reason: `permission check failed: ${message}` };
  }
}

// Our canonical tools whose call names one path, `input.path` (spec §11).
const PATH_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'write_file',
  'edit_file',
  'list_dir',
  'grep',
]);

function toolPaths(
  tool: ToolDescription | undefined,
  name: string,
  input: unknown,
  projectDir: string,
): string[] {
  if (tool?.paths === undefined) {
    // A host that gives neither paths nor a paths function still names a canonical tool: a
    // path_prefix guard must never see an empty list for it.
    if (!PATH_TOOLS.has(name)) return [];
    const given = (input as { path?: unknown } | null | undefined)?.path;
    const file = typeof given === 'string' ? given : name === 'grep' ? '.' : undefined;
    return file === undefined ? [] : [path.resolve(projectDir, file)];
  }
  try {
    return tool.paths(input).map((item) => path.resolve(projectDir, item));
  } catch {
    // Bad input: the tool's own validation reports it when it runs.
    return [];
  }
}

// What execute returned, as a result: a throw (or a malformed answer) becomes an error result.
async function executeSafely(
  call: ToolCall,
  execute: ToolExecute,
  signal: AbortSignal | undefined,
): Promise<ToolExecutionResult> {
  try {
    const output: unknown = await execute(
      call.input,
      signal ? { signal, callId: call.id } : { callId: call.id },
    );
    if (typeof output !== 'object' || output === null || !('content' in output)) {
      return failedResult(
        call,
        `execute resolved ${describeValue(output)}; expected { content: string, isError: boolean }`,
      );
    }
    const { content, isError } = output as { content: unknown; isError?: unknown };
    return { content: String(content), isError: Boolean(isError) };
  } catch (error) {
    return failedResult(call, error instanceof Error ? error.message : String(error));
  }
}

function failedResult(call: ToolCall, message: string): ToolExecutionResult {
  return { content: `tool ${call.name} failed: ${message}`, isError: true };
}

// How a malformed answer of execute is named in its error result.
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object without content' : `a ${typeof value}`;
}
