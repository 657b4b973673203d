import path from 'node:path';
import {
  type ArtifactRef,
  jsonValueDepth,
  MAX_JSON_DEPTH,
  type RiskClass,
  type ToolCallInfo,
} from '@soong-agent/protocol';
import type { ArtifactStore } from './artifact-store.js';
import { boundToolInput, boundToolResult } from './bound-tool-io.js';
import type { EventSink } from './event-sink.js';
import type { HookEngine, ToolDialectView } from './hook-engine.js';
import { roundMs } from './round-ms.js';
import { takeHead } from './summarize-text.js';
import { startSpan } from './telemetry.js';

/** Bytes of an error result kept in `tool_finished.error_text` (SPEC §5). */
const ERROR_TEXT_BYTES = 1024;

// The head of an error result, so a failed call can be understood from the log alone.
function errorText(isError: boolean, content: string): { error_text?: string } {
  return isError ? { error_text: takeHead(content, ERROR_TEXT_BYTES) } : {};
}

/** The text of a call skipped because an earlier call of the turn was denied (SPEC §4). */
export const SKIPPED_TOOL_TEXT = 'not executed: an earlier tool call in this turn was denied';
/** The text of a call that names no known tool. */
export const UNKNOWN_TOOL_TEXT = 'unknown tool';
/** The text of a call whose input nests deeper than `MAX_JSON_DEPTH` (64) levels: it is not run. */
export const TOO_DEEP_INPUT_TEXT = `invalid tool input: arrays and objects nested more than ${MAX_JSON_DEPTH} levels deep`;
/** The text of a call not run because the batch was cancelled. */
export const ABORTED_TOOL_TEXT = 'aborted';

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
   * How other agents' hooks (SPEC §11, §12 dialects) name this tool, per dialect, e.g.
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
  execute(
    input: unknown,
    context: { signal?: AbortSignal; callId: string },
  ): Promise<ToolExecutionResult>;
}

/** What a tool returns. */
export interface ToolExecutionResult {
  /** The full result text (the batch bounds what hooks see). */
  content: string;
  /** True when the tool failed. */
  isError: boolean;
}

/** One tool call from a model turn. */
export interface ToolCall {
  /** Call id, unique in the session. */
  id: string;
  /** Tool name as the model gave it. */
  name: string;
  /** Input object. */
  input: unknown;
}

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

/** Asks whether a call may run, after the PreToolUse hooks allowed it. */
export type PermissionCallback = (request: {
  call: ToolCall;
  tool: ToolDefinition;
  risk: RiskClass;
  paths: string[];
  /**
   * Set when a Claude Code hook answered `permissionDecision: "ask"` (SPEC §7): ask the user even
   * when the risk class is allowed, and tell them that hook `hookId` asked, with `reason`.
   */
  hookAsk?: { hookId: string; reason: string };
}) => Promise<{ allow: true } | { allow: false; reason: string }>;

/** Options of {@link executeToolBatch}. */
export interface ExecuteToolBatchOptions {
  /** The tools, by canonical name. */
  tools: ToolRegistry;
  /** Runs PreToolUse / PostToolUse hooks. */
  engine: HookEngine;
  /** Called for each call that the hooks did not deny. */
  permission: PermissionCallback;
  /** Where large results (and inputs) go. */
  artifacts: ArtifactStore;
  /** Where tool records go (normally the engine's sink). */
  sink: EventSink;
  /** Cancels the batch: the running hook or tool is stopped and the remaining calls get `aborted` results. @default undefined */
  signal?: AbortSignal | undefined;
}

/**
 * Runs the tool calls of one model turn in order, with SPEC §4's deny semantics, and returns exactly
 * one result per call, in order. A PreToolUse deny skips the permission callback; after any deny a
 * `readonly` denial lets later `readonly` calls run and halts at the first other one, a `write` or
 * `dangerous` denial halts at once; halted calls are skipped. Denials are results, never throws.
 */
export async function executeToolBatch(
  calls: readonly ToolCall[],
  options: ExecuteToolBatchOptions,
): Promise<ToolResult[]> {
  const batch = createToolBatch(options);
  const results: ToolResult[] = [];
  for (const call of calls) results.push(await batch.run(call));
  return results;
}

/** A tool batch fed one call at a time (see {@link createToolBatch}). */
export interface ToolBatch {
  /**
   * Runs the next call of the batch with the deny semantics of the calls before it and resolves its
   * one result. Calls must be given in the model's order, each after the previous one resolved.
   */
  run(call: ToolCall): Promise<ToolResult>;
}

/**
 * {@link executeToolBatch} for a loop that learns the calls of a turn one by one (e.g. an SDK that
 * starts each call's `execute` itself): the same records, results, spans and SPEC §4 halting,
 * carried from one `run` to the next. One batch per model turn.
 */
export function createToolBatch(options: ExecuteToolBatchOptions): ToolBatch {
  const { tools, engine, permission, artifacts, sink, signal } = options;
  const limitBytes = engine.config.settings.hooks.inline_result_bytes;
  // The denial that halts (or, after a readonly denial, may halt) the batch.
  let denial: { callId: string; risk: RiskClass } | undefined;
  let halted = false;

  const processCall = async (call: ToolCall): Promise<ToolResult> => {
    if (signal?.aborted) {
      return textResult(call, ABORTED_TOOL_TEXT, 'error');
    }
    const tool = tools.get(call.name);
    if (denial && (denial.risk !== 'readonly' || tool?.risk !== 'readonly')) halted = true;
    if (halted && denial) {
      sink.emit({
        type: 'tool_skipped',
        call_id: call.id,
        tool: call.name,
        denied_call_id: denial.callId,
      });
      return textResult(call, SKIPPED_TOOL_TEXT, 'skipped');
    }
    if (jsonValueDepth(call.input) > MAX_JSON_DEPTH) {
      // Serialising it would overflow the stack (issue 11): not run, not shown to hooks, and
      // recorded without the input; a non-halting error like an unknown tool.
      sink.emit({
        type: 'tool_started',
        call_id: call.id,
        tool: call.name,
        risk: tool?.risk ?? 'dangerous',
        input: { truncated_json: `not recorded: nested more than ${MAX_JSON_DEPTH} levels deep` },
        input_truncated: true,
      });
      return finishWithError(sink, call, TOO_DEEP_INPUT_TEXT, 'error');
    }
    const bounded = await boundToolInput(call.input, { limitBytes, artifacts });
    if (!tool) {
      // Nothing can run and no hook sees it; the records still pair up (SPEC §5). An unknown
      // tool is recorded with the most cautious risk class.
      sink.emit({
        type: 'tool_started',
        call_id: call.id,
        tool: call.name,
        risk: 'dangerous',
        unknown_tool: true,
        ...bounded,
      });
      return finishWithError(sink, call, UNKNOWN_TOOL_TEXT, 'error');
    }

    const paths = toolPaths(tool, call.input, engine.projectDir);
    sink.emit({
      type: 'tool_started',
      call_id: call.id,
      tool: tool.name,
      risk: tool.risk,
      ...bounded,
    });
    const info: ToolCallInfo = {
      name: tool.name,
      call_id: call.id,
      risk: tool.risk,
      tags: [...new Set([tool.risk, ...(tool.tags ?? [])])],
      paths,
      ...bounded,
    };

    const dialect = dialectView(tool, call.input);
    const pre = await engine.run(
      'PreToolUse',
      { tool: info, ...(dialect === undefined ? {} : { dialect }) },
      { signal, callId: call.id },
    );
    if (pre.decision === 'deny') {
      const reason = pre.reason ?? 'denied';
      sink.emit({
        type: 'tool_denied',
        call_id: call.id,
        tool: tool.name,
        source: 'hook',
        reason,
        ...(pre.hookId ? { hook_id: pre.hookId } : {}),
      });
      denial ??= { callId: call.id, risk: tool.risk };
      return textResult(call, `denied by hook ${pre.hookId}: ${reason}`, 'denied');
    }
    if (signal?.aborted) {
      // tool_started was recorded: close the call with its one tool_finished.
      return finishWithError(sink, call, ABORTED_TOOL_TEXT, 'error');
    }

    const verdict = await askPermission(permission, {
      call,
      tool,
      risk: tool.risk,
      paths,
      ...(pre.ask === undefined ? {} : { hookAsk: pre.ask }),
    });
    if (!verdict.allow) {
      sink.emit({
        type: 'permission_denied',
        call_id: call.id,
        tool: tool.name,
        reason: verdict.reason,
      });
      sink.emit({
        type: 'tool_denied',
        call_id: call.id,
        tool: tool.name,
        source: 'permission',
        reason: verdict.reason,
      });
      denial ??= { callId: call.id, risk: tool.risk };
      return textResult(call, `denied by permission: ${verdict.reason}`, 'denied');
    }

    const started = performance.now();
    const executed = await execute(tool, call, signal);
    const durationMs = roundMs(performance.now() - started);
    const { payload, artifactRef } = await boundToolResult(executed.content, executed.isError, {
      limitBytes,
      artifacts,
    });
    sink.emit({
      type: 'tool_finished',
      call_id: call.id,
      tool: tool.name,
      is_error: executed.isError,
      bytes: payload.bytes,
      ...(artifactRef ? { artifact_ref: artifactRef } : {}),
      duration_ms: durationMs,
      ...errorText(executed.isError, executed.content),
    });
    const result: ToolResult = {
      callId: call.id,
      name: call.name,
      content: executed.content,
      isError: executed.isError,
      status: executed.isError ? 'error' : 'ok',
      bytes: payload.bytes,
      ...(artifactRef ? { artifactRef } : {}),
    };
    await engine.run(
      'PostToolUse',
      {
        tool: info,
        result: payload,
        duration_ms: durationMs,
        ...(dialect === undefined ? {} : { dialect }),
      },
      { signal, callId: call.id },
    );
    return result;
  };

  return {
    async run(call) {
      // One span per tool call when OpenTelemetry is present, parent of its hooks' spans.
      const span = startSpan('soong_agent.tool', {
        'soong_agent.tool.name': call.name,
        'soong_agent.tool.call_id': call.id,
        'soong_agent.tool.risk': tools.get(call.name)?.risk,
      });
      if (span === undefined) return processCall(call);
      const result = await span.run(() => processCall(call));
      span.end(
        {
          'soong_agent.tool.status': result.status,
          'soong_agent.tool.is_error': result.isError,
          'soong_agent.tool.bytes': result.bytes,
        },
        result.status === 'error',
      );
      return result;
    },
  };
}

async function execute(
  tool: ToolDefinition,
  call: ToolCall,
  signal: AbortSignal | undefined,
): Promise<ToolExecutionResult> {
  try {
    const result = await tool.execute(
      call.input,
      signal ? { signal, callId: call.id } : { callId: call.id },
    );
    return { content: String(result.content), isError: Boolean(result.isError) };
  } catch (error) {
    return {
      content: `tool ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`,
      isError: true,
    };
  }
}

// A permission callback that throws fails closed: the call is denied, the batch goes on.
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

/** The per-call view dialect hooks get of a host-named tool (undefined when it declares none). */
export function dialectView(tool: ToolDefinition, input: unknown): ToolDialectView | undefined {
  if (tool.dialectName === undefined && tool.dialectInput === undefined) return undefined;
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

function toolPaths(tool: ToolDefinition, input: unknown, projectDir: string): string[] {
  if (!tool.paths) return [];
  try {
    return tool.paths(input).map((item) => path.resolve(projectDir, item));
  } catch {
    // Bad input: the tool's own validation reports it when it runs.
    return [];
  }
}

// An error result for a call that was recorded as started, with its closing tool_finished.
function finishWithError(
  sink: EventSink,
  call: ToolCall,
  content: string,
  status: ToolResult['status'],
): ToolResult {
  const result = textResult(call, content, status);
  sink.emit({
    type: 'tool_finished',
    call_id: call.id,
    tool: call.name,
    is_error: true,
    bytes: result.bytes,
    ...errorText(true, content),
  });
  return result;
}

function textResult(call: ToolCall, content: string, status: ToolResult['status']): ToolResult {
  return {
    callId: call.id,
    name: call.name,
    content,
    isError: true,
    status,
    bytes: Buffer.byteLength(content),
  };
}
