import type { RiskClass } from '@soong-agent/protocol';
import { startSpan } from './telemetry.js';
import type { ToolGateCall, ToolResult } from './tool-call.js';

/** One traced tool call: its hooks and its `execute` run inside `run`; `end` is called once with its result. */
export interface ToolCallScope {
  /** Runs the whole call (PreToolUse, execute, PostToolUse) as the active scope. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** The call's one result (denied, skipped and unknown calls included). */
  end(result: ToolResult): void;
}

/**
 * What `gate.run` tells of each call, as vercel/ai's `executeToolCall` takes a tracer: passed in,
 * with {@link NO_TOOL_CALL_TELEMETRY} as the default.
 */
export interface ToolCallTelemetry {
  /** Called as a call starts: the scope it runs in, or undefined when nothing is traced. */
  startToolCall(call: ToolGateCall, risk: RiskClass | undefined): ToolCallScope | undefined;
}

/** Traces nothing: the default of `gate.run`. */
export const NO_TOOL_CALL_TELEMETRY: ToolCallTelemetry = Object.freeze({
  startToolCall: () => undefined,
});

/**
 * One OpenTelemetry span `soong_agent.tool` per call (when `@opentelemetry/api` is installed), the
 * parent of its hooks' spans: name, call id and risk, then status, `is_error` and bytes. Never the
 * input or the result text. The tool batch uses it.
 */
export const openTelemetryToolCalls: ToolCallTelemetry = Object.freeze({
  startToolCall(call: ToolGateCall, risk: RiskClass | undefined): ToolCallScope | undefined {
    const span = startSpan('soong_agent.tool', {
      'soong_agent.tool.name': call.name,
      'soong_agent.tool.call_id': call.id,
      'soong_agent.tool.risk': risk,
    });
    if (span === undefined) return undefined;
    return {
      run: (fn) => span.run(fn),
      end(result) {
        span.end(
          {
            'soong_agent.tool.status': result.status,
            'soong_agent.tool.is_error': result.isError,
            'soong_agent.tool.bytes': result.bytes,
          },
          result.status === 'error',
        );
      },
    };
  },
});
