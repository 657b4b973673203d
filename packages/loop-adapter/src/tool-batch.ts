import type { HookEngine } from './hook-engine.js';
import type {
  PermissionCallback,
  ToolCall,
  ToolExecute,
  ToolRegistry,
  ToolResult,
} from './tool-call.js';
import { openTelemetryToolCalls } from './tool-call-telemetry.js';
import { ABORTED_TOOL_TEXT, createToolGate, type ToolGate } from './tool-gate.js';

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
 * Runs the tool calls of one model turn in order, with spec §4's deny semantics, and returns exactly
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

/** Options of {@link createToolBatch}: those of {@link executeToolBatch}, or a gate. */
export type CreateToolBatchOptions =
  | (ExecuteToolBatchOptions & { gate?: undefined })
  | {
      /** The session's gate of this turn (`session.toolGate()`): its engine, permission, signal and transcript apply. */
      gate: ToolGate;
      /** The tools that run the calls. @default the gate's tools */
      tools?: ToolRegistry | undefined;
      /** Ignored: the gate's engine runs the hooks. */
      engine?: HookEngine | undefined;
      /** Ignored: the gate's signal applies (give it to `session.toolGate`). */
      signal?: AbortSignal | undefined;
    };

/**
 * {@link executeToolBatch} for a loop that learns the calls of a turn one by one: the same records,
 * results, spans and spec §4 halting, carried from one `run` to the next. One batch per model turn.
 * A batch is a gate and the tools that run its calls: each `run` is `gate.run(call, tool.execute)`.
 */
export function createToolBatch(options: CreateToolBatchOptions): ToolBatch {
  if (options.gate !== undefined) {
    return batchOnGate(options.gate, options.tools ?? (options.gate.tools as ToolRegistry));
  }
  const { tools, engine, signal } = options;
  const gate = createToolGate({
    engine,
    tools,
    permission: options.permission,
    signal,
  });
  return batchOnGate(gate, tools);
}

// The batch knows only its gate, and the registry whose tools it runs.
function batchOnGate(gate: ToolGate, tools: ToolRegistry | undefined): ToolBatch {
  return {
    run(call) {
      return gate.run(call, registryExecute(tools, call), { telemetry: openTelemetryToolCalls });
    },
  };
}

// The registry tool's execute; gate.run calls it only for a call it let run, which names a
// registry tool (a call without one is unknown), unless the registry changed in between.
function registryExecute(tools: ToolRegistry | undefined, call: ToolCall): ToolExecute {
  return async (input, context) => {
    const tool = tools?.get(call.name);
    if (tool === undefined) return { content: ABORTED_TOOL_TEXT, isError: true };
    return tool.execute(input, context);
  };
}
