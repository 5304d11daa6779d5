import type { Logger } from '@svc/core';
import { errorText } from './async.js';
import type { RetryPolicy } from './bus.js';

/** What becomes of a delivery: done, dead-lettered (or dropped), or back on its queue. */
export type Settlement = 'ack' | 'reject' | 'requeue';

/** Where a handler fails: its queue, the message, what becomes of it when dropped, and the bus's retry policy. */
export interface FailureContext {
  queue: string;
  messageId: string;
  fate: string;
  logger: Logger;
  retry?: RetryPolicy;
}

/**
 * Thrown by a work or event handler that gives its message back untouched (its process is
 * stopping): the message goes back on its queue at once, for another consumer, without the
 * pause of the retry policy and without a dead letter.
 */
export class HandBack extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'HandBack';
  }
}

/**
 * What a failed handler's message comes to: its queue again after a pause, when the retry
 * policy recognises the failure as passing; else its dead-letter queue (or nowhere).
 */
export async function settlementAfter(err: unknown, at: FailureContext): Promise<Settlement> {
  if (err instanceof HandBack) {
    at.logger.debug('bus message handed back', { queue: at.queue, message_id: at.messageId, reason: err.message });
    return 'requeue';
  }
  if (at.retry?.when(err)) {
    const { delayMs } = at.retry;
    at.logger.warn('bus handler cannot work now; message requeued after a pause', { queue: at.queue, message_id: at.messageId, delay_ms: delayMs, error: errorText(err) });
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return 'requeue';
  }
  at.logger.error(`bus handler failed; message ${at.fate}`, { queue: at.queue, message_id: at.messageId, error: errorText(err) });
  return 'reject';
}
