import { trace, type Tracer } from '@opentelemetry/api';

/**
 * Whether this process records spans. Off (no endpoint) the SDK is never loaded and every helper
 * of this package returns at its first line: the hot path pays one boolean test per hop.
 */
let recording = false;

export function isTracing(): boolean {
  return recording;
}

export function setTracing(on: boolean): void {
  recording = on;
}

/** The fleet's one tracer; spans say which process made them through `service.name`. */
export function tracer(): Tracer {
  return trace.getTracer('svc');
}
