import type { BlockList } from 'node:net';
import { egressFetch } from '@svc/egress';
import type { DeliveryRow } from '../db/schema.js';
import type { AttemptOutcome } from '../repositories/delivery.repository.js';
import { signatureHeader } from './signature.js';

export interface SenderSettings {
  /** Whole request, connection to last byte. */
  timeoutMs: number;
  /** Private ranges an operator allows besides public addresses. */
  allowed?: BlockList;
}

/** Answers read from a receiver: enough for the log, never a large body. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const LOGGED_ERROR_CHARS = 500;

/**
 * One try of one delivery: a signed POST through the egress guard, which checks the address
 * connected to (not only the one the URL resolved to when registered). A 2xx is a success;
 * anything else, a refusal, a timeout or a dropped connection is a failure.
 */
export async function sendDelivery(url: string, secret: string, delivery: DeliveryRow, settings: SenderSettings): Promise<AttemptOutcome & { succeeded: boolean }> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'svc-webhooks/1',
    'svc-signature': signatureHeader(secret, delivery.body, Math.floor(Date.now() / 1000)),
    'svc-event-id': delivery.eventId,
    'svc-event-type': delivery.eventType,
    'svc-delivery-id': delivery.id,
    'svc-delivery-attempt': String(delivery.attempts),
  };
  try {
    const response = await egressFetch(url, { method: 'POST', headers, body: delivery.body, timeoutMs: settings.timeoutMs, allowed: settings.allowed, maxResponseBytes: MAX_RESPONSE_BYTES });
    const succeeded = response.status >= 200 && response.status < 300;
    return { attempt: delivery.attempts, responseCode: response.status, latencyMs: latency(), error: succeeded ? null : `HTTP ${response.status}`, succeeded };
  } catch (err) {
    return { attempt: delivery.attempts, responseCode: null, latencyMs: latency(), error: (err as Error).message.slice(0, LOGGED_ERROR_CHARS), succeeded: false };
  }
}
