import { tracingApi } from './state.js';

/** The W3C Trace Context headers (`traceparent`, `tracestate`): what carries a trace between processes. */
export const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;

/**
 * Writes the active span's `traceparent` (and `tracestate`) into `carrier`: HTTP headers going
 * to a service, a request handed over in process. Nothing is written when the process does not
 * trace or no span is active.
 */
export function injectTrace(carrier: Record<string, unknown>): void {
  const api = tracingApi();
  api?.propagation.inject(api.context.active(), carrier);
}

/** Removes what a carrier says about a trace (a client's headers the gateway does not take up). */
export function dropTrace(carrier: Record<string, unknown>): void {
  for (const name of TRACE_HEADERS) delete carrier[name];
}

/** The active span's `traceparent`, for a carrier that is not a map of headers (a runner's call); undefined when there is none. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  injectTrace(carrier);
  return carrier.traceparent;
}

/** `headers` with the active trace added (a copy); `headers` itself when the process does not trace. */
export function withTraceHeaders<H extends Record<string, string>>(headers: H | undefined): H | undefined {
  if (!tracingApi()) return headers;
  const carrier = { ...headers } as H;
  injectTrace(carrier);
  return carrier;
}
