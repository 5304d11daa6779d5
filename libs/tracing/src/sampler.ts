import type { Sampler } from '@opentelemetry/sdk-trace-base';
import type { SamplerName } from './env.js';

/** The SDK's trace module, imported by the caller only once tracing starts. */
type TraceBase = typeof import('@opentelemetry/sdk-trace-base');

/**
 * The sampler `OTEL_TRACES_SAMPLER` names (default `parentbased_always_on`), with
 * `OTEL_TRACES_SAMPLER_ARG` as the ratio of the `*traceidratio` ones (default 1).
 */
export function samplerOf(base: TraceBase, name: SamplerName = 'parentbased_always_on', ratio = 1): Sampler {
  const root = name.endsWith('always_off') ? new base.AlwaysOffSampler() : name.endsWith('traceidratio') ? new base.TraceIdRatioBasedSampler(ratio) : new base.AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new base.ParentBasedSampler({ root }) : root;
}
