import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError, createLogger, withCorrelationId } from '@svc/core';
import type { Logger } from '@svc/core';
import type { RawBus, BusMessage, ConsumeOptions, MessageHandler, RequestHandler, RequestOptions, RetryPolicy, SendOptions, Subscription } from './bus.js';
import { prepareMessage } from './message.js';
import { MemoryQueue, envelopeOf, type Deliver, type Envelope, type MemoryConsumer } from './memory-queue.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  checkEventName,
  checkPatterns,
  checkQueueName,
  checkRpcQueueName,
  checkDelay,
  deadLetterQueueOf,
  ephemeralOf,
  hasDeadLetterQueue,
  isEphemeralQueue,
  prefetchOf,
} from './names.js';
import { PendingRequests, answerRequest } from './rpc.js';
import { settlementAfter } from './settlement.js';
import { topicMatches } from './topic.js';

export interface MemoryBusOptions {
  logger?: Logger;
  /** How long `cancel()`/`close()` wait for running handlers before requeueing their messages. Default 10000. */
  drainTimeoutMs?: number;
  /** Failures of work and event handlers that put the message back on its queue; none by default. */
  retry?: RetryPolicy;
}

type QueueKind = 'work' | 'rpc' | 'ephemeral';

/**
 * The in-process adapter: the semantics of the AMQP one (topic routing, durable queues that
 * keep messages until a consumer comes, ephemeral queues that go with their consumer,
 * round-robin, prefetch, dead-letter queues, RPC with timeout) inside one process, for tests and
 * the standalone launcher. Nothing survives the process.
 *
 * @example
 *   const bus = createMemoryBus();
 *   await bus.subscribe('admin.metrics', ['pack.*'], async (m) => record(m.name, m.payload));
 *   await bus.publish('pack.installed', { pack_id });
 */
export function createMemoryBus(options: MemoryBusOptions = {}): RawBus {
  const log = options.logger ?? createLogger({ service: 'bus' });
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const queues = new Map<string, MemoryQueue>();
  const bindings = new Map<string, Set<string>>();
  /** The queues bound to each event name, worked out on its first publish and forgotten when a binding changes: every run publishes a few events. */
  const routes = new Map<string, string[]>();
  const routeOf = (event: string): string[] => {
    let queuesOf = routes.get(event);
    if (!queuesOf) {
      queuesOf = [...bindings].filter(([, patterns]) => [...patterns].some((pattern) => topicMatches(pattern, event))).map(([queue]) => queue);
      routes.set(event, queuesOf);
    }
    return queuesOf;
  };
  const consumers = new Set<MemoryConsumer>();
  const requests = new PendingRequests();
  /** Messages sent with a delay, not yet on their queue; dropped when the bus closes, as all else is. */
  const delayed = new Set<NodeJS.Timeout>();
  let closed = false;

  const ensureOpen = () => {
    if (closed) throw new ServiceUnavailableError('Message bus is closed');
  };

  /**
   * Declares a queue once; work queues get a dead-letter queue, RPC and ephemeral queues do not
   * (see README). An ephemeral queue is removed, with its bindings, when its last consumer goes.
   */
  const declare = (name: string, kind: QueueKind): MemoryQueue => {
    const existing = queues.get(name);
    if (existing) return existing;
    const deadLetters = kind === 'work' && hasDeadLetterQueue(name) ? declare(deadLetterQueueOf(name), 'work') : undefined;
    const reject = (envelope: Envelope) => {
      if (deadLetters) return deadLetters.enqueue(envelopeOf(envelope));
      log.error('bus message rejected on a queue without dead-letter queue; dropped', {
        queue: name,
        message_id: envelope.messageId,
        body: envelope.body,
      });
    };
    const queue = new MemoryQueue(name, reject, kind === 'ephemeral' ? remove : undefined);
    queues.set(name, queue);
    return queue;
  };

  const remove = (queue: MemoryQueue) => {
    if (queues.get(queue.name) !== queue) return;
    queues.delete(queue.name);
    bindings.delete(queue.name);
    routes.clear();
  };

  /** Where a message to `name` goes: a work queue is declared if need be, an ephemeral one must still exist. */
  const destination = (name: string): MemoryQueue | undefined => (isEphemeralQueue(name) ? queues.get(name) : declare(name, 'work'));

  const toMessage = (envelope: Envelope): BusMessage => ({
    name: envelope.name,
    // Parsing per delivery is the deep copy: no handler shares an object with the sender or another handler.
    payload: JSON.parse(envelope.body) as unknown,
    correlationId: envelope.correlationId,
    messageId: envelope.messageId,
    redelivered: envelope.redelivered,
    headers: { ...envelope.headers },
  });

  const startConsumer = (queue: MemoryQueue, handle: Deliver, prefetch: number) => {
    const consumer = queue.consume(handle, prefetch, drainTimeoutMs);
    consumers.add(consumer);
    const subscription: Subscription = {
      cancel: async () => {
        consumers.delete(consumer);
        await consumer.cancel();
      },
    };
    return subscription;
  };

  const worker = (queue: string, handler: MessageHandler): Deliver => {
    const fate = hasDeadLetterQueue(queue) ? 'dead-lettered' : 'dropped';
    return async (envelope: Envelope) => {
      const message = toMessage(envelope);
      try {
        await withCorrelationId(message.correlationId, () => handler(message));
        return 'ack';
      } catch (err) {
        return settlementAfter(err, { queue, messageId: message.messageId, fate, logger: log, retry: options.retry });
      }
    };
  };

  const responder = (queue: string, handler: RequestHandler): Deliver => async (envelope) => {
    const message = toMessage(envelope);
    const reply = await withCorrelationId(message.correlationId, () => answerRequest(queue, handler, message, log, options.retry));
    const replyTo = envelope.replyTo;
    // Replies travel asynchronously too, like everything else on this bus.
    if (replyTo) setImmediate(() => requests.reply(replyTo, reply));
    return 'ack';
  };

  return {
    kind: 'memory',

    async publish(event: string, payload: unknown, send?: SendOptions) {
      checkEventName(event);
      ensureOpen();
      const message = prepareMessage(event, payload, send);
      for (const queue of routeOf(event)) destination(queue)?.enqueue(envelopeOf(message));
    },

    async subscribe(queue: string, patterns: string[], handler: MessageHandler, consume?: ConsumeOptions) {
      const ephemeral = ephemeralOf(queue, consume);
      checkPatterns(patterns);
      const prefetch = prefetchOf(consume);
      ensureOpen();
      const declared = declare(queue, ephemeral ? 'ephemeral' : 'work');
      const bound = bindings.get(queue) ?? new Set<string>();
      for (const pattern of patterns) bound.add(pattern);
      bindings.set(queue, bound);
      routes.clear();
      return startConsumer(declared, worker(queue, handler), prefetch);
    },

    async send(queue: string, payload: unknown, send?: SendOptions) {
      checkQueueName(queue);
      ensureOpen();
      const envelope = envelopeOf(prepareMessage(queue, payload, send));
      checkDelay(queue, send);
      if (send?.delayMs) {
        const timer = setTimeout(() => {
          delayed.delete(timer);
          destination(queue)?.enqueue(envelope);
        }, send.delayMs);
        delayed.add(timer);
        return;
      }
      // A message to an ephemeral queue that is gone is dropped, as RabbitMQ's default exchange does.
      destination(queue)?.enqueue(envelope);
    },

    async consume(queue: string, handler: MessageHandler, consume?: ConsumeOptions) {
      const ephemeral = ephemeralOf(queue, consume);
      const prefetch = prefetchOf(consume);
      ensureOpen();
      return startConsumer(declare(queue, ephemeral ? 'ephemeral' : 'work'), worker(queue, handler), prefetch);
    },

    async request<R = unknown>(queue: string, payload: unknown, request?: RequestOptions): Promise<R> {
      checkQueueName(queue);
      ensureOpen();
      const message = prepareMessage(queue, payload, request);
      const timeoutMs = request?.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      const id = randomUUID();
      const answer = requests.wait(id, queue, timeoutMs);
      // Like AMQP's default exchange: a question to a queue nobody declared is dropped (and times out).
      const question = envelopeOf(message);
      question.replyTo = id;
      question.expiresAt = Date.now() + timeoutMs;
      queues.get(queue)?.enqueue(question);
      return (await answer) as R;
    },

    async respond(queue: string, handler: RequestHandler, consume?: ConsumeOptions) {
      checkRpcQueueName(queue, consume);
      ensureOpen();
      return startConsumer(declare(queue, 'rpc'), responder(queue, handler), prefetchOf(consume));
    },

    async depth(queue: string) {
      checkQueueName(queue);
      return queues.get(queue)?.waiting ?? 0;
    },

    async healthy() {
      return !closed;
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const timer of delayed) clearTimeout(timer);
      delayed.clear();
      await Promise.all([...consumers].map((consumer) => consumer.cancel()));
      consumers.clear();
      requests.failAll((queue) => new ServiceUnavailableError(`Message bus closed before ${queue} answered`));
    },
  };
}
