import { ValidationError } from '@svc/core';
import type { ConsumeOptions } from './bus.js';

/** Defaults shared by both adapters, so that they behave the same. */
export const DEFAULT_PREFETCH = 16;
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

const DLQ_SUFFIX = '.dlq';
// AMQP names are short strings (255 bytes); leave room for a prefix and the `.dlq` suffix.
const MAX_NAME_LENGTH = 200;

/** The dead-letter queue of a consumed queue. */
export function deadLetterQueueOf(queue: string): string {
  return queue + DLQ_SUFFIX;
}

/**
 * A dead-letter queue has none of its own, so a message whose handler fails there is logged
 * and dropped rather than bounced between queues.
 */
export function isDeadLetterQueue(queue: string): boolean {
  return queue.endsWith(DLQ_SUFFIX);
}

export function checkQueueName(queue: string): void {
  if (typeof queue !== 'string' || queue.length === 0 || queue.length > MAX_NAME_LENGTH) {
    throw new ValidationError(`Queue name must be 1-${MAX_NAME_LENGTH} characters`, { queue });
  }
}

/** Event names are routing keys, so the topic wildcards cannot appear in them. */
export function checkEventName(event: string): void {
  checkQueueName(event);
  if (/[*#]/.test(event)) throw new ValidationError('Event name cannot contain * or #', { event });
}

export function checkPatterns(patterns: string[]): void {
  if (!Array.isArray(patterns) || patterns.length === 0) {
    throw new ValidationError('A subscription needs at least one pattern', { patterns });
  }
  for (const pattern of patterns) checkQueueName(pattern);
}

export function prefetchOf(options: ConsumeOptions | undefined): number {
  const prefetch = options?.prefetch ?? DEFAULT_PREFETCH;
  // AMQP reads 0 as "unlimited", which would defeat the point of a bound.
  if (!Number.isInteger(prefetch) || prefetch < 1 || prefetch > 65_535) {
    throw new ValidationError('prefetch must be an integer from 1 to 65535', { prefetch });
  }
  return prefetch;
}
