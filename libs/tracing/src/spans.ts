import { context, SpanStatusCode, trace, type Attributes, type Span, type SpanKind } from '@opentelemetry/api';
import { extractTrace } from './propagation.js';
import { isTracing, tracer } from './state.js';

/** The span handed to work when nothing is recorded: every call on it does nothing. */
const UNRECORDED: Span = trace.wrapSpanContext({ traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 });

export interface SpanSettings {
  kind?: SpanKind;
  attributes?: Attributes;
  /**
   * Headers whose `traceparent` names the parent (an arriving message's), instead of the active
   * span; read only when the process traces.
   */
  parentFrom?: Record<string, unknown>;
}

/** Marks a span failed with what was thrown, without the stack (it may name a pack's paths). */
export function recordFailure(span: Span, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.setAttribute('error.type', err instanceof Error ? err.constructor.name : typeof err);
}

/**
 * Runs `work` inside a span named `name`, active for everything `work` starts (messages it
 * sends, HTTP it forwards), ended when `work` settles and marked failed when it throws. When the
 * process does not trace, `work` runs as it is with a span that records nothing.
 *
 * @example
 *   const outcome = await traced('execution.run', { attributes: { 'svc.command': 'ns/hello' } }, async (span) => {
 *     span.setAttribute('svc.mode', 'sync');
 *     return runIt();
 *   });
 */
export function traced<T>(name: string, settings: SpanSettings, work: (span: Span) => Promise<T>): Promise<T> {
  if (!isTracing()) return work(UNRECORDED);
  const parent = settings.parentFrom ? extractTrace(settings.parentFrom) : context.active();
  const span = tracer().startSpan(name, { kind: settings.kind, attributes: settings.attributes }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await work(span);
    } catch (err) {
      recordFailure(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Adds attributes to the active span (what is known only part-way through its work); nothing
 * when the process does not trace.
 *
 * @example
 *   annotate({ 'svc.command': `${task.namespace}/${task.command}` });
 */
export function annotate(attributes: Attributes): void {
  if (isTracing()) trace.getActiveSpan()?.setAttributes(attributes);
}
