import { createRequire } from 'node:module';
import type * as OpenTelemetry from '@opentelemetry/api';

/** The name of the tracer the engine and the tool batch create spans with. */
export const TRACER_NAME = '@soong-agent/loop-adapter';

/** A span attribute value: never a payload, a reason or an environment value. */
type AttributeValue = string | number | boolean;

/** One started span: `run` makes it the active span for `fn`, `end` ends it once. */
export interface SpanScope {
  run<T>(fn: () => Promise<T>): Promise<T>;
  end(attributes: Readonly<Record<string, AttributeValue | undefined>>, failed?: boolean): void;
}

// @opentelemetry/api is an optional peer: when it is not installed nothing is traced and nothing
// is loaded. It is looked up once, synchronously, so createHookEngine stays synchronous.
const api: typeof OpenTelemetry | undefined = (() => {
  try {
    return createRequire(import.meta.url)('@opentelemetry/api') as typeof OpenTelemetry;
  } catch {
    return undefined;
  }
})();

/**
 * True when `@opentelemetry/api` is installed (spans may be recorded); false: {@link startSpan} is
 * a no-op.
 */
export const TRACING: boolean = api !== undefined;

/**
 * Starts a span under the caller's active context, or returns undefined when nothing can record
 * it: `@opentelemetry/api` is not installed, no SDK is registered (the API would hand out a
 * non-recording span no one sees: the engine passes no trace context on to hooks), or, for a
 * `leaf`, the SDK's sampler drops it. No attribute is computed for a span that is not recorded.
 */
export function startSpan(
  name: string,
  attributes: Readonly<Record<string, AttributeValue | undefined>>,
  options: { leaf?: boolean } = {},
): SpanScope | undefined {
  if (api === undefined) return undefined;
  const tracer = registeredTracer(api);
  if (tracer === undefined) return undefined;
  const span = tracer.startSpan(name);
  if (!span.isRecording()) {
    // A leaf (no span starts under it) that nobody records has nothing to carry: ended at once,
    // and the caller runs as without OpenTelemetry.
    if (options.leaf === true) {
      span.end();
      return undefined;
    }
    return { run: (fn) => fn(), end: () => span.end() };
  }
  setAttributes(span, attributes);
  const context = api.trace.setSpan(api.context.active(), span);
  let ended = false;
  return {
    run: (fn) => (api as typeof OpenTelemetry).context.with(context, fn),
    end(more, failed = false) {
      if (ended) return;
      ended = true;
      setAttributes(span, more);
      if (failed) span.setStatus({ code: (api as typeof OpenTelemetry).SpanStatusCode.ERROR });
      span.end();
    },
  };
}

// The registered SDK's tracer, or undefined while none is registered. Asked on every span, not
// kept: a provider registered after the engine was made is used from then on.
function registeredTracer(otel: typeof OpenTelemetry): OpenTelemetry.Tracer | undefined {
  const provider = otel.trace.getTracerProvider();
  return provider instanceof otel.ProxyTracerProvider
    ? provider.getDelegateTracer(TRACER_NAME)
    : provider.getTracer(TRACER_NAME);
}

function setAttributes(
  span: OpenTelemetry.Span,
  attributes: Readonly<Record<string, AttributeValue | undefined>>,
): void {
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined) span.setAttribute(key, value);
  }
}
