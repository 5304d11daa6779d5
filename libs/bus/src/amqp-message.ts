import { randomUUID } from 'node:crypto';
import type { Channel, ConsumeMessage, Options } from 'amqplib';
import type { BusMessage } from './bus.js';
import { BATCH_HEADER, eventsOfBatch } from './event-batches.js';
import { CORRELATION_HEADER, NAME_HEADER, publicHeaders, type OutgoingMessage } from './message.js';
import type { Settlement } from './settlement.js';

/** AMQP properties of an outgoing message; `extra` adds what the kind of message needs. */
export function propertiesOf(message: OutgoingMessage, extra: Options.Publish = {}): Options.Publish {
  return {
    contentType: 'application/json',
    messageId: message.messageId,
    timestamp: Math.floor(Date.now() / 1000),
    ...extra,
    headers: { ...message.headers, ...extra.headers, [CORRELATION_HEADER]: message.correlationId, [NAME_HEADER]: message.name },
  };
}

/** The BusMessage of a delivery, or undefined when its body is not JSON. */
export function decodeMessage(delivery: ConsumeMessage, unprefixed: (name: string) => string): BusMessage | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(delivery.content.toString('utf8'));
  } catch {
    return undefined;
  }
  const { properties, fields } = delivery;
  const headers = (properties.headers ?? {}) as Record<string, unknown>;
  const name = headers[NAME_HEADER];
  const correlationId = headers[CORRELATION_HEADER];
  return {
    name: typeof name === 'string' ? name : unprefixed(fields.routingKey),
    payload,
    correlationId: typeof correlationId === 'string' ? correlationId : randomUUID(),
    messageId: typeof properties.messageId === 'string' ? properties.messageId : randomUUID(),
    redelivered: fields.redelivered,
    headers: publicHeaders(headers),
  };
}

/**
 * The messages of a delivery: itself, or the events of a batch (`event-batches.ts`); undefined
 * when its body is not JSON, or not a batch where it says it is one.
 */
export function decodeDelivery(delivery: ConsumeMessage, unprefixed: (name: string) => string): BusMessage[] | undefined {
  const message = decodeMessage(delivery, unprefixed);
  if (!message) return undefined;
  if (delivery.properties.headers?.[BATCH_HEADER] === undefined) return [message];
  return eventsOfBatch(message.payload, message.name, message.redelivered);
}

/**
 * Acks, rejects without requeueing (which dead-letters) or requeues. A channel that died
 * meanwhile cannot settle anything, and needs not: the broker redelivers what it never saw
 * acknowledged.
 */
export function settle(channel: Channel, delivery: ConsumeMessage, settlement: Settlement): void {
  try {
    if (settlement === 'ack') channel.ack(delivery);
    else channel.nack(delivery, false, settlement === 'requeue');
  } catch {
    // channel closed: see above
  }
}
