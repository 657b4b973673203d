import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/**
 * Registers OpenTelemetry's SDK with an in-memory exporter and an async context manager, so spans
 * nest across awaits; undo it with {@link unregisterSpans} after each test.
 */
export function registerSpanExporter(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  return exporter;
}

/** Removes what {@link registerSpanExporter} registered. */
export function unregisterSpans(): void {
  trace.disable();
  context.disable();
}

/** The spans called `name`, in the order they ended. */
export function spansNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}
