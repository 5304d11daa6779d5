import { z } from 'zod';

/** The samplers of the OpenTelemetry specification's `OTEL_TRACES_SAMPLER`. */
export const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/**
 * The variables of the OpenTelemetry specification a process honours. Unset
 * `OTEL_EXPORTER_OTLP_ENDPOINT`: no traces, and the SDK is not even loaded.
 */
export const tracingEnv = {
  /** Base URL of an OTLP/HTTP receiver (a collector); spans go to `<url>/v1/traces`. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().refine((value) => /^https?:$/.test(new URL(value).protocol), 'must be an http(s) URL').optional(),
  /** Names the process in its spans; default: the process's own name (`gateway`, `execution-worker`, …). */
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  /** Which traces are recorded; default `parentbased_always_on` (every trace the gateway starts). */
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS).optional(),
  /** The ratio of the `*traceidratio` samplers, 0 to 1; default 1. */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
};

export type TracingEnv = z.infer<z.ZodObject<typeof tracingEnv>>;
