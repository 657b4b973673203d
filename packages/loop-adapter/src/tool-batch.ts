import type { ArtifactRef, RiskClass } from '@soong-agent/protocol';
import type { HookEngine } from './hook-engine.js';
import { startSpan } from './telemetry.js';
import { ABORTED_TOOL_TEXT, createToolGate, type ToolGate, textResult } from './tool-gate.js';

export {
  ABORTED_TOOL_TEXT,
  SKIPPED_TOOL_TEXT,
  TOO_DEEP_INPUT_TEXT,
  UNKNOWN_TOOL_TEXT,
} from './tool-gate.js';

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

/** What the permission callback learns of a tool: a {@link ToolDefinition} without `execute`. */
export type ToolDescription = Pick<ToolDefinition, 'name' | 'risk'> &
  Partial<Omit<ToolDefinition, 'name' | 'risk'>>;

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
   * Set when a Claude Code hook answered `permissionDecision: "ask"` (SPEC §7): ask the user even
   * when the risk class is allowed, and tell them that hook `hookId` asked, with `reason`.
   */
  hookAsk?: { hookId: string; reason: string };
}) => Promise<{ allow: true } | { allow: false; reason: string }>;

/** Options of {@link executeToolBatch}. */
export interface ExecuteToolBatchOptions {
  /** The tools, by canonical name. */
  tools: ToolRegistry;
  /** Runs PreToolUse / PostToolUse hooks; tool records go to its sink, large results to its artifact store. */
  engine: HookEngine;
  /** Called for each call that the hooks did not deny. @default allowUnlessAsked (with `gate`: the gate's) */
  permission?: PermissionCallback | undefined;
  /** Cancels the batch: the running hook or tool is stopped and the remaining calls get `aborted` results. @default undefined */
  signal?: AbortSignal | undefined;
}

/**
 * Runs the tool calls of one model turn in order, with SPEC §4's deny semantics, and returns exactly
 * one result per call, in order. A PreToolUse deny skips the permission callback; after any deny a
 * `readonly` denial lets later `readonly` calls run and halts at the first other one, a `write` or
 * `dangerous` denial halts at once; halted calls are skipped. Denials are results, never throws.
 * Built on the tool gate ({@link createToolGate}): the records are the gate's.
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
 * {@link executeToolBatch} for a loop that learns the calls of a turn one by one: the same records,
 * results, spans and SPEC §4 halting, carried from one `run` to the next. One batch per model turn.
 */
export function createToolBatch(
  options: ExecuteToolBatchOptions & {
    /** The session's gate of this turn (`session.toolGate()`): its permission, signal and transcript apply. @default a gate on `engine` */
    gate?: ToolGate | undefined;
  },
): ToolBatch {
  const { tools, engine, signal } = options;
  const gate =
    options.gate ??
    createToolGate({
      engine,
      tools,
      permission: options.permission,
      signal,
    });

  const processCall = async (call: ToolCall): Promise<ToolResult> => {
    const verdict = await gate.before(call);
    if (!verdict.run) return verdict.result;
    const tool = tools.get(call.name);
    // before() let it run: it is a registry tool (a call without one is unknown).
    if (tool === undefined) return textResult(call, ABORTED_TOOL_TEXT, 'error');
    return gate.after(call.id, await execute(tool, call, signal));
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
