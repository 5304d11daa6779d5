import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError, createLogger, withCorrelationId } from '@svc/core';
import type { Logger } from '@svc/core';
import type { Bus, BusMessage, ConsumeOptions, MessageHandler, RequestHandler, RequestOptions, SendOptions, Subscription } from './bus.js';
import { errorText } from './async.js';
import { prepareMessage } from './message.js';
import { MemoryQueue, type Envelope, type MemoryConsumer } from './memory-queue.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  checkEventName,
  checkPatterns,
  checkQueueName,
  deadLetterQueueOf,
  isDeadLetterQueue,
  prefetchOf,
} from './names.js';
import { PendingRequests, answerRequest } from './rpc.js';
import { topicMatches } from './topic.js';

export interface MemoryBusOptions {
  logger?: Logger;
  /** How long `cancel()`/`close()` wait for running handlers before requeueing their messages. Default 10000. */
  drainTimeoutMs?: number;
}

type QueueKind = 'work' | 'rpc';

/**
 * The in-process adapter: the semantics of the AMQP one (topic routing, durable queues that
 * keep messages until a consumer comes, round-robin, prefetch, dead-letter queues, RPC with
 * timeout) inside one process, for tests and the standalone launcher. Nothing survives the process.
 *
 * @example
 *   const bus = createMemoryBus();
 *   await bus.subscribe('admin.metrics', ['pack.*'], async (m) => record(m.name, m.payload));
 *   await bus.publish('pack.installed', { pack_id });
 */
export function createMemoryBus(options: MemoryBusOptions = {}): Bus {
  const log = options.logger ?? createLogger({ service: 'bus' });
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const queues = new Map<string, MemoryQueue>();
  const bindings = new Map<string, Set<string>>();
  const consumers = new Set<MemoryConsumer>();
  const requests = new PendingRequests();
  let closed = false;

  const ensureOpen = () => {
    if (closed) throw new ServiceUnavailableError('Message bus is closed');
  };

  /** Declares a queue once; work queues get a dead-letter queue, RPC queues do not (see README). */
  const declare = (name: string, kind: QueueKind): MemoryQueue => {
    const existing = queues.get(name);
    if (existing) return existing;
    const deadLetters = kind === 'work' && !isDeadLetterQueue(name) ? declare(deadLetterQueueOf(name), 'work') : undefined;
    const queue = new MemoryQueue(name, (envelope) => {
      if (deadLetters) return deadLetters.enqueue({ ...envelope, redelivered: false });
      log.error('bus message rejected on a queue without dead-letter queue; dropped', {
        queue: name,
        message_id: envelope.messageId,
        body: envelope.body,
      });
    });
    queues.set(name, queue);
    return queue;
  };

  const toMessage = (envelope: Envelope): BusMessage => ({
    name: envelope.name,
    // Parsing per delivery is the deep copy: no handler shares an object with the sender or another handler.
    payload: JSON.parse(envelope.body) as unknown,
    correlationId: envelope.correlationId,
    messageId: envelope.messageId,
    redelivered: envelope.redelivered,
    headers: { ...envelope.headers },
  });

  const startConsumer = (queue: MemoryQueue, handle: (envelope: Envelope) => Promise<boolean>, consume?: ConsumeOptions) => {
    const consumer = queue.consume(handle, prefetchOf(consume), drainTimeoutMs);
    consumers.add(consumer);
    const subscription: Subscription = {
      cancel: async () => {
        consumers.delete(consumer);
        await consumer.cancel();
      },
    };
    return subscription;
  };

  const worker = (queue: string, handler: MessageHandler) => async (envelope: Envelope) => {
    const message = toMessage(envelope);
    try {
      await withCorrelationId(message.correlationId, () => handler(message));
      return true;
    } catch (err) {
      log.error('bus handler failed; message dead-lettered', { queue, message_id: message.messageId, error: errorText(err) });
      return false;
    }
  };

  const responder = (queue: string, handler: RequestHandler) => async (envelope: Envelope) => {
    const message = toMessage(envelope);
    const reply = await withCorrelationId(message.correlationId, () => answerRequest(queue, handler, message, log));
    const replyTo = envelope.replyTo;
    // Replies travel asynchronously too, like everything else on this bus.
    if (replyTo) setImmediate(() => requests.reply(replyTo, reply));
    return true;
  };

  return {
    kind: 'memory',

    async publish(event: string, payload: unknown, send?: SendOptions) {
      checkEventName(event);
      ensureOpen();
      const message = prepareMessage(event, payload, send);
      for (const [queue, patterns] of bindings) {
        if ([...patterns].some((pattern) => topicMatches(pattern, event))) {
          declare(queue, 'work').enqueue({ ...message, redelivered: false });
        }
      }
    },

    async subscribe(queue: string, patterns: string[], handler: MessageHandler, consume?: ConsumeOptions) {
      checkQueueName(queue);
      checkPatterns(patterns);
      ensureOpen();
      const bound = bindings.get(queue) ?? new Set<string>();
      for (const pattern of patterns) bound.add(pattern);
      bindings.set(queue, bound);
      return startConsumer(declare(queue, 'work'), worker(queue, handler), consume);
    },

    async send(queue: string, payload: unknown, send?: SendOptions) {
      checkQueueName(queue);
      ensureOpen();
      declare(queue, 'work').enqueue({ ...prepareMessage(queue, payload, send), redelivered: false });
    },

    async consume(queue: string, handler: MessageHandler, consume?: ConsumeOptions) {
      checkQueueName(queue);
      ensureOpen();
      return startConsumer(declare(queue, 'work'), worker(queue, handler), consume);
    },

    async request<R = unknown>(queue: string, payload: unknown, request?: RequestOptions): Promise<R> {
      checkQueueName(queue);
      ensureOpen();
      const message = prepareMessage(queue, payload, request);
      const timeoutMs = request?.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      const id = randomUUID();
      const answer = requests.wait(id, queue, timeoutMs);
      // Like AMQP's default exchange: a question to a queue nobody declared is dropped (and times out).
      queues.get(queue)?.enqueue({ ...message, redelivered: false, replyTo: id, expiresAt: Date.now() + timeoutMs });
      return (await answer) as R;
    },

    async respond(queue: string, handler: RequestHandler, consume?: ConsumeOptions) {
      checkQueueName(queue);
      ensureOpen();
      return startConsumer(declare(queue, 'rpc'), responder(queue, handler), consume);
    },

    async healthy() {
      return !closed;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...consumers].map((consumer) => consumer.cancel()));
      consumers.clear();
      requests.failAll((queue) => new ServiceUnavailableError(`Message bus closed before ${queue} answered`));
    },
  };
}
