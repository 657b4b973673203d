import { startSpan } from './telemetry.js';

// This module sits under tool-gate.ts (the gate's `run` is built on it), so it names the shapes it
// reads structurally instead of importing the gate's types: no import cycle.

/** What {@link runToolCall} reads of a call: its id and name, its input for `execute`, its risk when given. */
export interface RunToolCallCall {
  /** Call id, unique in the session. */
  id: string;
  /** Tool name as the host gives it to the gate. */
  name: string;
  /** The input, handed to `execute` as the model wrote it (hooks never rewrite it, SPEC §7). */
  input: unknown;
  /** Risk class the host gives; only read for telemetry. @default the telemetry's own lookup */
  risk?: string | undefined;
}

/** What a tool's run produced: the full text (the gate bounds what hooks and the model see) and whether it failed. */
export interface ToolCallOutput {
  content: string;
  isError: boolean;
}

/** What {@link runToolCall} reads of the result it returns (a `ToolResult` is one). */
export interface ToolCallEnd {
  status: string;
  isError: boolean;
  bytes: number;
}

/** The two steps of a gate {@link runToolCall} drives (a `ToolGate` is one). */
export interface ToolCallSteps<C extends RunToolCallCall, R extends ToolCallEnd> {
  before(
    call: C,
    options?: { signal?: AbortSignal },
  ): Promise<{ run: true } | { run: false; result: R }>;
  after(id: string, result: ToolCallOutput, options?: { signal?: AbortSignal }): Promise<R>;
}

/** What `execute` gets. */
export interface ToolCallExecuteContext {
  /** The call's id. */
  callId: string;
  /** The call's input as given (never rewritten by a hook). */
  input: unknown;
  /** The signal of {@link RunToolCallOptions.signal}, when given: stop the tool when it aborts. */
  signal?: AbortSignal;
}

/**
 * Runs the tool once the hooks and the permission let it. A throw (or a value that is not
 * `{ content, isError }`) is the call's error result `tool <name> failed: <message>`: recorded, and
 * PostToolUseFailure runs.
 */
export type ExecuteToolCall = (context: ToolCallExecuteContext) => Promise<ToolCallOutput>;

/**
 * Wraps one call's whole run (before → execute → after), e.g. in a span that the hooks' spans nest
 * under; must call `run` once and return (or throw) what it does. {@link noToolCallTelemetry} is
 * the default, {@link toolCallSpans} the OpenTelemetry one.
 */
export type ToolCallTelemetry = <R extends ToolCallEnd>(
  call: RunToolCallCall,
  run: () => Promise<R>,
) => Promise<R>;

/** Options of {@link runToolCall} (and `gate.run`). */
export interface RunToolCallOptions {
  /**
   * Cancels the call: its hooks are stopped (a call not let run yet gets `aborted`), and `execute`
   * gets it to stop the tool. @default the gate's signal for the hooks; `execute` gets none
   */
  signal?: AbortSignal | undefined;
  /** Wraps the call's run (spans). @default noToolCallTelemetry */
  telemetry?: ToolCallTelemetry | undefined;
}

/** The default telemetry: runs the call as it is. */
export const noToolCallTelemetry: ToolCallTelemetry = (_call, run) => run();

/**
 * OpenTelemetry telemetry: one `soong_agent.tool` span per call under the caller's active span,
 * parent of its hooks' spans, with the call's name, id and risk (the call's, else `tools`'), and
 * at its end the result's status, `is_error` and bytes (an error status for `error`). Without
 * `@opentelemetry/api` installed it runs the call as it is.
 */
export function toolCallSpans(
  tools?: { get(name: string): { risk: string } | undefined } | undefined,
): ToolCallTelemetry {
  return async <R extends ToolCallEnd>(call: RunToolCallCall, run: () => Promise<R>) => {
    const span = startSpan('soong_agent.tool', {
      'soong_agent.tool.name': call.name,
      'soong_agent.tool.call_id': call.id,
      'soong_agent.tool.risk': call.risk ?? tools?.get(call.name)?.risk,
    });
    if (span === undefined) return run();
    let result: R;
    try {
      result = await span.run(run);
    } catch (error) {
      span.end({}, true);
      throw error;
    }
    span.end(
      {
        'soong_agent.tool.status': result.status,
        'soong_agent.tool.is_error': result.isError,
        'soong_agent.tool.bytes': result.bytes,
      },
      result.status === 'error',
    );
    return result;
  };
}

/**
 * One tool call from start to end, as vercel/ai's `executeToolCall`: `gate.before` (`tool_started`,
 * PreToolUse, the permission), then, only when it lets the call run, `execute`, then `gate.after`
 * with what it produced (`tool_finished`, the transcript, PostToolUseFailure for an error,
 * PostToolUse), all inside `telemetry`. Resolves what the model must see: the denied, skipped or
 * aborted result when the call did not run. Throws only for misuse the gate refuses (a bad call, an
 * id in use) or a session already closed.
 */
export function runToolCall<C extends RunToolCallCall, R extends ToolCallEnd>(
  gate: ToolCallSteps<C, R>,
  call: C,
  execute: ExecuteToolCall,
  options: RunToolCallOptions = {},
): Promise<R> {
  // Not async itself: with the default telemetry the steps' promise is handed back as it is (no
  // extra turns of the microtask queue per call).
  const telemetry = options.telemetry ?? noToolCallTelemetry;
  return telemetry(call, () => runSteps(gate, call, execute, options.signal));
}

async function runSteps<C extends RunToolCallCall, R extends ToolCallEnd>(
  gate: ToolCallSteps<C, R>,
  call: C,
  execute: ExecuteToolCall,
  signal: AbortSignal | undefined,
): Promise<R> {
  const stepOptions = signal === undefined ? {} : { signal };
  const verdict = await gate.before(call, stepOptions);
  if (!verdict.run) return verdict.result;
  const output = await executeOnce(call, execute, signal);
  // Awaited here: resolving with a promise would cost more turns of the microtask queue.
  return await gate.after(call.id, output, stepOptions);
}

// The call is open (`tool_started` is recorded): whatever `execute` does, it ends with a result.
async function executeOnce(
  call: RunToolCallCall,
  execute: ExecuteToolCall,
  signal: AbortSignal | undefined,
): Promise<ToolCallOutput> {
  try {
    const context = { callId: call.id, input: call.input };
    const output: unknown = await execute(signal === undefined ? context : { ...context, signal });
    if (typeof output !== 'object' || output === null || !('content' in output)) {
      return failed(
        call,
        `execute resolved ${describeValue(output)}; expected { content: string, isError: boolean }`,
      );
    }
    const { content, isError } = output as { content: unknown; isError?: unknown };
    return { content: String(content), isError: Boolean(isError) };
  } catch (error) {
    return failed(call, error instanceof Error ? error.message : String(error));
  }
}

function failed(call: RunToolCallCall, message: string): ToolCallOutput {
  return { content: `tool ${call.name} failed: ${message}`, isError: true };
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object without content' : `a ${typeof value}`;
}
