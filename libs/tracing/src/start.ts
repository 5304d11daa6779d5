import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TracingEnv } from './env.js';
import { samplerOf } from './sampler.js';
import { setTracingApi } from './state.js';

export interface TracingOptions {
  /** Names the process in its spans when `OTEL_SERVICE_NAME` does not. */
  service: string;
  /** Where spans go instead of the OTLP endpoint (tests: `InMemorySpanExporter`), exported one by one. */
  exporter?: SpanExporter;
}

export interface Tracing {
  /** Exports what is still buffered; call before the process exits. */
  flush(): Promise<void>;
}

const NOTHING_TO_FLUSH: Tracing = { flush: async () => {} };
let started: Tracing | undefined;

/**
 * Starts OpenTelemetry's Node SDK for this process when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (or
 * an exporter is given): W3C Trace Context propagation, the sampler the environment names, spans
 * batched to `<endpoint>/v1/traces` over OTLP/HTTP. Otherwise nothing of OpenTelemetry is
 * imported, not even its API, so an untraced process carries none of it. Once per process:
 * later calls answer the first one's handle.
 *
 * @example
 *   const tracing = await startTracing(env, { service: 'gateway' });
 *   // … on SIGTERM, after the last request:
 *   await tracing.flush();
 */
export async function startTracing(env: TracingEnv, options: TracingOptions): Promise<Tracing> {
  if (started) return started;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint && !options.exporter) return NOTHING_TO_FLUSH;
  const [api, { NodeSDK }, base, { W3CTraceContextPropagator }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/core'),
  ]);
  let processor: SpanProcessor;
  if (options.exporter) processor = new base.SimpleSpanProcessor(options.exporter);
  else {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    processor = new base.BatchSpanProcessor(new OTLPTraceExporter({ url: new URL('v1/traces', endpoint!.endsWith('/') ? endpoint : `${endpoint}/`).href }));
  }
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? options.service,
    sampler: samplerOf(base, env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG),
    spanProcessors: [processor],
    textMapPropagator: new W3CTraceContextPropagator(),
    // Traces only: metrics are Prometheus's (@svc/metrics), logs winston's.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  setTracingApi(api);
  started = { flush: () => processor.forceFlush() };
  return started;
}
