export { tracingEnv, SAMPLERS, type SamplerName, type TracingEnv } from './env.js';
export { startTracing, type Tracing, type TracingOptions } from './start.js';
export { isTracing, SpanKind } from './state.js';
export { annotate, markFailed, traced, type SpanSettings } from './spans.js';
export { currentTraceparent, dropTrace, injectTrace, TRACE_HEADERS, withTraceHeaders } from './propagation.js';
export { httpTracing, type HttpTracingOptions } from './http.js';
