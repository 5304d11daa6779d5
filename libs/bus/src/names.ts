import { randomUUID } from 'node:crypto';
import { ValidationError } from '@svc/core';
import type { EphemeralQueue, EphemeralSubscriberName, QueueName } from '@svc/contracts';
import type { ConsumeOptions, SendOptions } from './bus.js';

/** Defaults shared by both adapters, so that they behave the same. */
export const DEFAULT_PREFETCH = 16;
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

const DLQ_SUFFIX = '.dlq';
/** The first character of every ephemeral queue's name, and of no other queue's. */
export const EPHEMERAL_QUEUE_MARK = '~';
// AMQP names are short strings (255 bytes); leave room for a prefix and the `.dlq` suffix.
const MAX_NAME_LENGTH = 200;

/** The name of a queue of this process only (`~<base>.<uuid>`), whatever its base. */
export type EphemeralName = EphemeralQueue<string>;

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

/**
 * An ephemeral queue (`ConsumeOptions.ephemeral`) is marked by its name, so that a sender that only
 * has the name (a `reply_to` in a job) knows not to declare it and lets a message to it drop once
 * its consumer is gone.
 */
export function isEphemeralQueue(queue: string): boolean {
  return queue.startsWith(EPHEMERAL_QUEUE_MARK);
}

/** Dead-letter queues and ephemeral queues have none: a failed message there is logged and dropped. */
export function hasDeadLetterQueue(queue: string): boolean {
  return !isDeadLetterQueue(queue) && !isEphemeralQueue(queue);
}

/**
 * A name no other consumer uses, for an ephemeral queue of this process: `~<base>.<uuid>`. For
 * a queue of `BUS_CONTRACTS` (marked ephemeral there) the name is typed: what is sent to it must
 * be that queue's message. A subscriber of the fleet takes a base the map names
 * (`execution.broadcasts`); a test listening for a while may take any.
 *
 * @example
 *   const replies = ephemeralQueueName('execution.replies'); // '~execution.replies.9b2f…'
 *   await bus.consume(replies, async (m) => settle(m.payload), { ephemeral: true });
 *   await bus.send('exec.fast', { task_id, reply_to: replies });
 */
export function ephemeralQueueName<B extends QueueName | EphemeralSubscriberName>(base: B): EphemeralQueue<B>;
export function ephemeralQueueName(base: string): EphemeralName;
export function ephemeralQueueName(base: string): string {
  if (typeof base !== 'string' || base.length === 0) throw new ValidationError('An ephemeral queue name needs a base', { base });
  const queue = `${EPHEMERAL_QUEUE_MARK}${base}.${randomUUID()}`;
  checkQueueName(queue);
  return queue;
}

/**
 * `ephemeral`, when given, is what the consumer asked for: an ephemeral queue's name must carry
 * the mark and a durable queue's name must not, or senders would treat the queue wrongly.
 */
export function checkQueueName(queue: string, ephemeral?: boolean): void {
  if (typeof queue !== 'string' || queue.length === 0 || queue.length > MAX_NAME_LENGTH) {
    throw new ValidationError(`Queue name must be 1-${MAX_NAME_LENGTH} characters`, { queue });
  }
  if (ephemeral === undefined || ephemeral === isEphemeralQueue(queue)) return;
  if (ephemeral) {
    throw new ValidationError(`An ephemeral queue's name must start with ${EPHEMERAL_QUEUE_MARK} (see ephemeralQueueName)`, { queue });
  }
  throw new ValidationError(`A queue whose name starts with ${EPHEMERAL_QUEUE_MARK} is ephemeral: consume it with { ephemeral: true }`, { queue });
}

/** Longest delay `send` takes: a message is work to be done, not a timer. */
export const MAX_SEND_DELAY_MS = 3_600_000;

/** A delayed `send` goes to a work queue, after a whole number of milliseconds up to `MAX_SEND_DELAY_MS`. */
export function checkDelay(queue: string, options: SendOptions | undefined): void {
  const delayMs = options?.delayMs;
  if (delayMs === undefined) return;
  if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > MAX_SEND_DELAY_MS) {
    throw new ValidationError(`delayMs must be a whole number of milliseconds from 0 to ${MAX_SEND_DELAY_MS}`, { queue, delay_ms: delayMs });
  }
  if (isEphemeralQueue(queue)) throw new ValidationError('An ephemeral queue takes no delayed message: it may be gone when the delay ends', { queue });
}

/** RPC queues are durable and shared by the responders of a service; they are never ephemeral. */
export function checkRpcQueueName(queue: string, options: ConsumeOptions | undefined): void {
  if (options?.ephemeral === true) throw new ValidationError('RPC queues cannot be ephemeral', { queue });
  checkQueueName(queue, false);
}

/** Validates the queue against `options.ephemeral` and tells whether it is ephemeral. */
export function ephemeralOf(queue: string, options: ConsumeOptions | undefined): boolean {
  const ephemeral = options?.ephemeral === true;
  checkQueueName(queue, ephemeral);
  return ephemeral;
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
