import { SpanKind, traced, withTraceHeaders } from '@svc/tracing';
import type { BusMessage, RawBus, SendOptions } from './bus.js';

type Leaving = 'publish' | 'request';
type Arriving = 'consume' | 'respond';

const KINDS = { publish: SpanKind.PRODUCER, request: SpanKind.CLIENT, consume: SpanKind.CONSUMER, respond: SpanKind.SERVER } as const;

function attributesOf(bus: RawBus['kind'], destination: string, operation: Leaving | Arriving) {
  return { 'messaging.system': bus === 'amqp' ? 'rabbitmq' : 'svc.in-process', 'messaging.destination.name': destination, 'messaging.operation.type': operation === 'publish' || operation === 'request' ? 'send' : 'process' };
}

/**
 * A message leaving in a span of its own (`bus.publish <name>`, `bus.request <name>`), whose
 * `traceparent` travels in the message's headers: AMQP headers on RabbitMQ, the envelope's
 * headers in process. `name` is the contract name (an ephemeral queue's base), so that span
 * names stay few.
 */
export function sendTraced<T>(bus: RawBus['kind'], operation: Leaving, name: string, options: SendOptions | undefined, send: (options: SendOptions | undefined) => Promise<T>): Promise<T> {
  return traced(`bus.${operation} ${name}`, { kind: KINDS[operation], attributes: attributesOf(bus, name, operation) }, () => {
    const headers = withTraceHeaders(options?.headers);
    return send(headers === options?.headers ? options : { ...options, headers });
  });
}

/** A message handled in a span (`bus.consume <queue>`, `bus.respond <name>`) that continues the sender's trace. */
export function handleTraced<T>(bus: RawBus['kind'], operation: Arriving, queue: string, message: BusMessage, handle: () => Promise<T>): Promise<T> {
  return traced(`bus.${operation} ${queue}`, { kind: KINDS[operation], parentFrom: message.headers, attributes: attributesOf(bus, queue, operation) }, handle);
}
