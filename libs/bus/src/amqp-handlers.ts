import type { Channel, ConsumeMessage } from 'amqplib';
import { withCorrelationId } from '@svc/core';
import type { Logger } from '@svc/core';
import type { BusMessage, MessageHandler, RequestHandler, RetryPolicy } from './bus.js';
import { errorText } from './async.js';
import { decodeDelivery, decodeMessage, settle } from './amqp-message.js';
import { ANSWER_BY_HEADER, CORRELATION_HEADER } from './message.js';
import { hasDeadLetterQueue } from './names.js';
import { answerRequest, failedReply } from './rpc.js';
import { settlementAfter, type Settlement } from './settlement.js';

export interface HandlingContext {
  logger: Logger;
  retry?: RetryPolicy;
  /** Bus name of a broker name (strips the prefix). */
  unprefixed(name: string): string;
  /** Puts `messages`, each a message of its own, on the dead-letter queue of `queue`, with confirms. */
  deadLetter(queue: string, messages: BusMessage[]): Promise<void>;
}

/**
 * Events and work: ack when the handler resolves, reject (to the DLQ, or dropped where there is
 * none) when it throws or the body is not JSON, requeue after a pause when the retry policy
 * recognises the failure. A batch of events (`event-batches.ts`) is handed over as its events'
 * own deliveries would be, all at once; it is acked when every one of them succeeds, requeued
 * whole when one is to be tried again (the others are seen twice, as at-least-once allows), and
 * otherwise acked once those that failed are on the dead-letter queue, each alone.
 */
export function handleWork(queue: string, handler: MessageHandler, context: HandlingContext) {
  const { logger, unprefixed, retry } = context;
  const fate = hasDeadLetterQueue(queue) ? 'dead-lettered' : 'dropped';
  const handled = async (message: BusMessage): Promise<Settlement> => {
    try {
      await withCorrelationId(message.correlationId, () => handler(message));
      return 'ack';
    } catch (err) {
      return settlementAfter(err, { queue, messageId: message.messageId, fate, logger, retry });
    }
  };
  return async (delivery: ConsumeMessage, channel: Channel): Promise<void> => {
    const messages = decodeDelivery(delivery, unprefixed);
    if (!messages) {
      logger.error(`bus message is not JSON; ${fate}`, { queue, message_id: delivery.properties.messageId });
      return settle(channel, delivery, 'reject');
    }
    if (messages.length === 1) return settle(channel, delivery, await handled(messages[0]!));
    const outcomes = await Promise.all(messages.map(handled));
    settle(channel, delivery, await batchSettlement(queue, messages, outcomes, context));
  };
}

/** What becomes of a batch whose events came to `outcomes`. */
async function batchSettlement(queue: string, messages: BusMessage[], outcomes: Settlement[], { deadLetter, logger }: HandlingContext): Promise<Settlement> {
  if (outcomes.includes('requeue')) return 'requeue';
  const rejected = messages.filter((_, i) => outcomes[i] === 'reject');
  if (rejected.length === 0 || !hasDeadLetterQueue(queue)) return 'ack';
  try {
    await deadLetter(queue, rejected);
    return 'ack';
  } catch (err) {
    logger.warn('failed events of a batch could not be dead-lettered; the batch goes back on its queue', { queue, error: errorText(err) });
    return 'requeue';
  }
}

/** Questions: always answered (a failure is an answer too), then acked. */
export function handleRequest(queue: string, handler: RequestHandler, { logger, unprefixed, retry }: HandlingContext) {
  return async (delivery: ConsumeMessage, channel: Channel): Promise<void> => {
    if (Date.now() > Number(delivery.properties.headers?.[ANSWER_BY_HEADER] ?? Infinity)) {
      // Its asker has stopped waiting (and may have asked again): answering would only run it twice.
      logger.debug('bus question taken after its asker stopped waiting; dropped', { queue, message_id: delivery.properties.messageId });
      settle(channel, delivery, 'ack');
      return;
    }
    const message = decodeMessage(delivery, unprefixed);
    let reply = failedReply();
    if (message) reply = await withCorrelationId(message.correlationId, () => answerRequest(queue, handler, message, logger, retry));
    else logger.error('bus request is not JSON', { queue, message_id: delivery.properties.messageId });
    const { replyTo, correlationId } = delivery.properties;
    if (typeof replyTo === 'string' && replyTo) {
      try {
        // RabbitMQ drops a direct reply whose requester has gone; the channel is not harmed.
        channel.sendToQueue(replyTo, Buffer.from(reply), {
          contentType: 'application/json',
          correlationId,
          headers: message ? { [CORRELATION_HEADER]: message.correlationId } : {},
        });
      } catch {
        // This channel died: the question is redelivered or the requester times out.
      }
    }
    settle(channel, delivery, 'ack');
  };
}
