import { ephemeralQueueName, type Bus, type Subscription } from '@svc/bus';
import { EXECUTION_REPLIES, type EphemeralQueue } from '@svc/contracts';
import type { ReplyWaiters } from '../services/reply-waiters.js';

/** This process's reply queue: outcomes of the synchronous calls it is waiting for. */
export function replyQueueName(): EphemeralQueue<typeof EXECUTION_REPLIES> {
  return ephemeralQueueName(EXECUTION_REPLIES);
}

/** Outcomes (and progress reports) the workers send back to this process, each handed to the caller waiting for it. */
export function consumeReplies(bus: Bus, queue: EphemeralQueue<typeof EXECUTION_REPLIES>, waiters: ReplyWaiters): Promise<Subscription> {
  return bus.consume(queue, async (message) => waiters.deliver(message.payload), { ephemeral: true, prefetch: 256 });
}
