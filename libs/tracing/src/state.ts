import type * as Api from '@opentelemetry/api';

/**
 * OpenTelemetry's API, once tracing started; undefined in a process that does not trace. Off,
 * not one module of OpenTelemetry is loaded and every helper of this package returns at its
 * first line on this test: the hot path pays one comparison per hop.
 */
let api: typeof Api | undefined;

/** The API when this process traces. */
export function tracingApi(): typeof Api | undefined {
  return api;
}

export function setTracingApi(loaded: typeof Api): void {
  api = loaded;
}

export function isTracing(): boolean {
  return api !== undefined;
}

/** Span kinds by name, as the API numbers them (kept here so that an untraced process need not load the API for them). */
export const SpanKind = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 } as const satisfies Record<string, Api.SpanKind>;
export type SpanKindName = keyof typeof SpanKind;
