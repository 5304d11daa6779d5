import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '../start.js';

const exporter = new InMemorySpanExporter();

/**
 * Turns tracing on in this test process with spans kept in memory, and answers what was
 * recorded since the last `reset()`. Once on, a process stays traced (as a traced process does).
 *
 * @example
 *   const spans = await recordedSpans();
 *   await bus.send('exec.fast', job);
 *   expect(spans.named('bus.publish exec.fast')).toHaveLength(1);
 */
export async function recordedSpans() {
  await startTracing({ OTEL_TRACES_SAMPLER: 'always_on' }, { service: 'test', exporter });
  return {
    all: (): ReadableSpan[] => exporter.getFinishedSpans(),
    named: (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.name === name),
    reset: () => exporter.reset(),
  };
}

/** The id of a span's parent, whichever way the SDK's version spells it. */
export function parentIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
