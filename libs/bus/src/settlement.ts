import type { Logger } from '@svc/core';
import { errorText } from './async.js';
import { RetryLater } from './bus.js';

/** What becomes of a delivery: done, dead-lettered (or dropped), or back on its queue. */
export type Settlement = 'ack' | 'reject' | 'requeue';

/**
 * What a failed handler's message comes to: after RetryLater's pause, its queue again; else
 * its dead-letter queue (or nowhere).
 */
export async function settlementAfter(err: unknown, at: { queue: string; messageId: string; fate: string; logger: Logger }): Promise<Settlement> {
  if (err instanceof RetryLater) {
    at.logger.warn('bus handler cannot work now; message requeued after a pause', { queue: at.queue, message_id: at.messageId, delay_ms: err.delayMs, error: errorText(err.cause) });
    await new Promise((resolve) => setTimeout(resolve, err.delayMs));
    return 'requeue';
  }
  at.logger.error(`bus handler failed; message ${at.fate}`, { queue: at.queue, message_id: at.messageId, error: errorText(err) });
  return 'reject';
}
