import type { Attributes, Span, SpanKind } from '@opentelemetry/api';
import { tracingApi } from './state.js';

export interface SpanSettings {
  kind?: SpanKind;
  attributes?: Attributes;
  /**
   * What carries the parent's `traceparent` (an arriving message's headers, a runner call's
   * context), instead of the active span; read only when the process traces.
   */
  parentFrom?: object;
}

/** OTLP's ERROR status. */
const ERROR = 2;

/**
 * Marks a span failed with the class of what was thrown and its code, if it has one: never its
 * message or stack, which may quote a command's input or name a pack's paths.
 */
function recordFailure(span: Span, err: unknown): void {
  const type = err instanceof Error ? err.constructor.name : typeof err;
  span.setStatus({ code: ERROR, message: type });
  span.setAttribute('error.type', type);
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') span.setAttribute('error.code', code);
}

/**
 * Runs `work` inside a span named `name`, active for everything `work` starts (messages it
 * sends, HTTP it forwards), ended when `work` settles and marked failed when it throws. When the
 * process does not trace, `work` runs as it is. Either way `work` starts in this very turn.
 *
 * @example
 *   const outcome = await traced('execution.run', { attributes: { 'svc.tenant.id': tenant } }, async () => {
 *     annotate({ 'svc.queue': 'fast' });
 *     return runIt();
 *   });
 */
export function traced<T>(name: string, settings: SpanSettings, work: () => Promise<T>): Promise<T> {
  const api = tracingApi();
  if (!api) return work();
  const parent = settings.parentFrom ? api.propagation.extract(api.ROOT_CONTEXT, settings.parentFrom) : api.context.active();
  const span = api.trace.getTracer('svc').startSpan(name, { kind: settings.kind, attributes: settings.attributes }, parent);
  return api.context.with(api.trace.setSpan(parent, span), async () => {
    try {
      return await work();
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
  tracingApi()?.trace.getActiveSpan()?.setAttributes(attributes);
}

/** Marks the active span failed by `err`, for work that reports a failure rather than throwing it. */
export function markFailed(err: unknown): void {
  const span = tracingApi()?.trace.getActiveSpan();
  if (span) recordFailure(span, err);
}
