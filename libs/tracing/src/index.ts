export { SpanKind, type Span } from '@opentelemetry/api';
export { tracingEnv, SAMPLERS, type SamplerName, type TracingEnv } from './env.js';
export { startTracing, type Tracing, type TracingOptions } from './start.js';
export { isTracing } from './state.js';
export { annotate, traced, recordFailure, type SpanSettings } from './spans.js';
export { currentTraceparent, dropTrace, extractTrace, injectTrace, TRACE_HEADERS, withTraceHeaders } from './propagation.js';
export { httpTracing } from './http.js';
