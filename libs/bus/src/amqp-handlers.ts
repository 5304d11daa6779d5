import type { Channel, ConsumeMessage } from 'amqplib';
import { withCorrelationId } from '@svc/core';
import type { Logger } from '@svc/core';
import type { MessageHandler, RequestHandler, RetryPolicy } from './bus.js';
import { decodeMessage, settle } from './amqp-message.js';
import { CORRELATION_HEADER } from './message.js';
import { hasDeadLetterQueue } from './names.js';
import { answerRequest, failedReply } from './rpc.js';
import { settlementAfter } from './settlement.js';

export interface HandlingContext {
  logger: Logger;
  retry?: RetryPolicy;
  /** Bus name of a broker name (strips the prefix). */
  unprefixed(name: string): string;
}

/**
 * Events and work: ack when the handler resolves, reject (to the DLQ, or dropped where there is
 * none) when it throws or the body is not JSON, requeue after a pause when the retry policy
 * recognises the failure.
 */
export function handleWork(queue: string, handler: MessageHandler, { logger, unprefixed, retry }: HandlingContext) {
  const fate = hasDeadLetterQueue(queue) ? 'dead-lettered' : 'dropped';
  return async (delivery: ConsumeMessage, channel: Channel): Promise<void> => {
    const message = decodeMessage(delivery, unprefixed);
    if (!message) {
      logger.error(`bus message is not JSON; ${fate}`, { queue, message_id: delivery.properties.messageId });
      return settle(channel, delivery, 'reject');
    }
    try {
      await withCorrelationId(message.correlationId, () => handler(message));
      settle(channel, delivery, 'ack');
    } catch (err) {
      settle(channel, delivery, await settlementAfter(err, { queue, messageId: message.messageId, fate, logger, retry }));
    }
  };
}

/** Questions: always answered (a failure is an answer too), then acked. */
export function handleRequest(queue: string, handler: RequestHandler, { logger, unprefixed, retry }: HandlingContext) {
  return async (delivery: ConsumeMessage, channel: Channel): Promise<void> => {
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
