import { randomUUID } from 'node:crypto';
import { ValidationError, currentCorrelationId } from '@svc/core';
import type { SendOptions } from './bus.js';

/** Carries the correlation id across the broker (the AMQP `correlationId` property is RPC's). */
export const CORRELATION_HEADER = 'x-correlation-id';
/** The event or queue name, kept as a header so that it survives dead-lettering. */
export const NAME_HEADER = 'x-bus-name';
/**
 * When a question's asker stops waiting (epoch ms, its clock): a responder that takes it later
 * drops it. The broker's expiry alone is not enough: a quorum queue counts it from when the
 * message reached the queue's leader, which can be well after it was sent on a busy broker.
 */
export const ANSWER_BY_HEADER = 'x-bus-answer-by';

// Headers the bus or RabbitMQ set; they never reach a handler's `headers`, in either adapter.
const RESERVED = [CORRELATION_HEADER, 'x-bus-', 'x-death', 'x-first-death-', 'x-last-death-', 'x-delivery-count'];

/** A message ready to leave: payload serialised once, ids resolved. */
export interface OutgoingMessage {
  name: string;
  body: string;
  correlationId: string;
  messageId: string;
  headers: Record<string, string>;
}

export function prepareMessage(name: string, payload: unknown, options: SendOptions = {}): OutgoingMessage {
  return {
    name,
    body: encodeJson(payload),
    correlationId: options.correlationId ?? currentCorrelationId() ?? randomUUID(),
    messageId: options.messageId ?? randomUUID(),
    headers: publicHeaders(options.headers),
  };
}

/** JSON is the wire format of both adapters, so `undefined` travels as `null` in both. */
export function encodeJson(payload: unknown): string {
  try {
    return JSON.stringify(payload) ?? 'null';
  } catch (err) {
    throw new ValidationError('Message payload is not JSON-serialisable', {}, { cause: err });
  }
}

/** String-valued headers that are not reserved by the bus or the broker. */
export function publicHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (typeof value !== 'string') continue;
    if (RESERVED.some((reserved) => key.startsWith(reserved))) continue;
    result[key] = value;
  }
  return result;
}
