import { randomUUID } from 'node:crypto';
import type { Channel, ConfirmChannel } from 'amqplib';
import { AppError, IntegrationError, ServiceUnavailableError, createLogger, withTimeout } from '@svc/core';
import type { Logger } from '@svc/core';
import type { RawBus, ConsumeOptions, MessageHandler, RequestHandler, RequestOptions, RetryPolicy, SendOptions } from './bus.js';
import { errorMessage } from './async.js';
import { AmqpConnection, REPLY_TO, type AmqpSession, type ReconnectOptions } from './amqp-connection.js';
import { AmqpConsumer, type ConsumerSpec } from './amqp-consumer.js';
import { handleRequest, handleWork } from './amqp-handlers.js';
import { propertiesOf } from './amqp-message.js';
import { AmqpTopology } from './amqp-topology.js';
import { prepareMessage, type OutgoingMessage } from './message.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  checkEventName,
  checkPatterns,
  checkDelay,
  checkQueueName,
  checkRpcQueueName,
  ephemeralOf,
  isEphemeralQueue,
  prefetchOf,
} from './names.js';
import { PendingRequests } from './rpc.js';

export interface AmqpBusOptions {
  /** `amqp://user:password@host:5672/vhost`; a `heartbeat` query parameter overrides `heartbeatSeconds`. */
  url: string;
  /** Put in front of every exchange and queue name, e.g. `test-1a2b3c4d.` for a test run. Default ''. */
  prefix?: string;
  logger?: Logger;
  /** Backoff between reconnection attempts, doubling from the first to the cap. Default 500 ms → 30 s. */
  reconnect?: Partial<ReconnectOptions>;
  /** How long publish/send/request/consume wait for a lost connection to come back. Default 5000. */
  waitForConnectionMs?: number;
  /** How long `cancel()`/`close()` wait for running handlers before their messages go back to the queue. Default 10000. */
  drainTimeoutMs?: number;
  /** AMQP heartbeat, so that a silent network partition is noticed too. Default 5. */
  heartbeatSeconds?: number;
  /** Failures of work and event handlers that put the message back on its queue; none by default. */
  retry?: RetryPolicy;
  /** Shown in the RabbitMQ management UI. Default 'svc'. */
  connectionName?: string;
}

/**
 * The RabbitMQ adapter: events on the topic exchange `<prefix>svc.events`, work and RPC on durable
 * queues `<prefix><queue>`, ephemeral queues exclusive to the connection, publisher confirms,
 * manual acks, dead-letter queues, and a connection that comes back by itself after a broker
 * restart (re-declaring every consumer's queue). Rejects when the broker is unreachable at start.
 *
 * @example
 *   const bus = await createAmqpBus({ url: env.AMQP_URL, logger: log });
 *   await bus.consume('exec.fast', async (m) => run(m.payload), { prefetch: 8 });
 *   await bus.send('exec.fast', { run_id });
 *   const user = await bus.request('identity.user', { user_id }, { timeoutMs: 2000 });
 */
export async function createAmqpBus(options: AmqpBusOptions): Promise<RawBus> {
  const log = options.logger ?? createLogger({ service: 'bus' });
  const topology = new AmqpTopology(options.prefix ?? '');
  const reconnect: ReconnectOptions = {
    initialDelayMs: options.reconnect?.initialDelayMs ?? 500,
    maxDelayMs: options.reconnect?.maxDelayMs ?? 30_000,
  };
  const waitMs = options.waitForConnectionMs ?? 5_000;
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const consumers = new Set<AmqpConsumer>();
  const requests = new PendingRequests();
  let closed = false;

  const connection = new AmqpConnection({
    url: options.url,
    logger: log,
    reconnect,
    connectTimeoutMs: waitMs,
    heartbeatSeconds: options.heartbeatSeconds ?? 5,
    connectionName: options.connectionName ?? 'svc',
    prepare: (session) => topology.declareEvents(session.confirm),
    onReply: (reply) => {
      const id = reply.properties.correlationId;
      if (typeof id === 'string') requests.reply(id, reply.content.toString('utf8'));
    },
    onOpen: (session) => {
      for (const consumer of consumers) consumer.restart(session);
    },
    // Direct replies are addressed to the lost channel; waiting for them would only end in a timeout.
    onLost: (session) =>
      requests.failAll((queue) => new ServiceUnavailableError(`Message bus connection lost before ${queue} answered`), session),
  });
  try {
    await connection.start();
  } catch (err) {
    throw new ServiceUnavailableError('Cannot connect to the message bus', { reason: errorMessage(err) }, { cause: err });
  }

  const handling = { logger: log, unprefixed: (name: string) => topology.unprefixed(name), retry: options.retry };

  const ensureOpen = () => {
    if (closed) throw new ServiceUnavailableError('Message bus is closed');
  };

  /** A short-lived channel: a declaration the broker refuses closes it, not a shared one. */
  const withChannel = async <T>(session: AmqpSession, use: (channel: Channel) => Promise<T>): Promise<T> => {
    const channel = await session.model.createChannel();
    channel.on('error', () => undefined);
    try {
      return await use(channel);
    } finally {
      channel.close().catch(() => undefined);
    }
  };

  /** Declares `queue` once per connection with `declare`; a refusal is tried again next time. */
  const ensureDeclared = (session: AmqpSession, queue: string, declare: (channel: Channel) => Promise<void>): Promise<void> => {
    let declared = session.declared.get(queue);
    if (!declared) {
      declared = withChannel(session, declare);
      declared.catch(() => session.declared.delete(queue));
      session.declared.set(queue, declared);
    }
    return declared;
  };

  const ensureWorkQueue = (session: AmqpSession, queue: string): Promise<void> => ensureDeclared(session, queue, (channel) => topology.declareWorkQueue(channel, queue));

  /**
   * Publishes and waits for the broker's confirm. When the connection drops first, the broker
   * may or may not have the message; it is published again on the next connection (at least once).
   */
  const publishConfirmed = async (
    message: OutgoingMessage,
    route: (session: AmqpSession) => Promise<{ exchange: string; routingKey: string }>,
  ): Promise<void> => {
    const deadline = Date.now() + waitMs;
    const properties = propertiesOf(message, { persistent: true });
    for (;;) {
      const session = await connection.ready(deadline);
      try {
        const { exchange, routingKey } = await route(session);
        const confirmed = confirm(session.confirm, exchange, routingKey, Buffer.from(message.body), properties);
        await withTimeout(confirmed, waitMs, () => new ServiceUnavailableError('Message broker did not confirm in time'));
        return;
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (session.alive) {
          throw new IntegrationError('Message broker refused the message', { name: message.name, reason: errorMessage(err) }, { cause: err });
        }
        log.warn('bus connection lost before the broker confirmed; publishing again', { name: message.name, message_id: message.messageId });
      }
    }
  };

  const startConsumer = async (spec: ConsumerSpec): Promise<AmqpConsumer> => {
    const consumer = new AmqpConsumer(spec, { connection, logger: log, reconnect, drainTimeoutMs, onCancel: (c) => consumers.delete(c) });
    consumers.add(consumer);
    try {
      const session = await connection.ready(Date.now() + waitMs);
      await consumer.start(session).catch((err: unknown) => {
        // A connection lost meanwhile is not a refusal: the reconnection starts this consumer.
        if (session.alive) throw new IntegrationError(`Cannot consume from ${spec.queue}`, { queue: spec.queue, reason: errorMessage(err) }, { cause: err });
      });
      return consumer;
    } catch (err) {
      await consumer.cancel();
      throw err;
    }
  };

  const bus: RawBus = {
    kind: 'amqp',

    async publish(event: string, payload: unknown, send?: SendOptions) {
      checkEventName(event);
      ensureOpen();
      const message = prepareMessage(event, payload, send);
      await publishConfirmed(message, async () => ({ exchange: topology.events, routingKey: event }));
    },

    async subscribe(queue: string, patterns: string[], handler: MessageHandler, consume?: ConsumeOptions) {
      ephemeralOf(queue, consume);
      checkPatterns(patterns);
      ensureOpen();
      return startConsumer({
        queue: topology.queue(queue),
        prefetch: prefetchOf(consume),
        declare: (channel) => topology.declareSubscription(channel, queue, patterns),
        handle: handleWork(queue, handler, handling),
      });
    },

    async send(queue: string, payload: unknown, send?: SendOptions) {
      checkQueueName(queue);
      checkDelay(queue, send);
      ensureOpen();
      const message = prepareMessage(queue, payload, send);
      const delayMs = send?.delayMs ?? 0;
      await publishConfirmed(message, async (session) => {
        // Never declare an ephemeral queue here: once its consumer is gone, the default exchange
        // drops (and confirms) a message routed to it, which is what a late reply deserves.
        if (!isEphemeralQueue(queue)) await ensureWorkQueue(session, queue);
        if (delayMs > 0) {
          await ensureDeclared(session, topology.delayQueueOf(queue, delayMs), (channel) => topology.declareDelayQueue(channel, queue, delayMs));
          return { exchange: '', routingKey: topology.queue(topology.delayQueueOf(queue, delayMs)) };
        }
        return { exchange: '', routingKey: topology.queue(queue) };
      });
    },

    async consume(queue: string, handler: MessageHandler, consume?: ConsumeOptions) {
      const ephemeral = ephemeralOf(queue, consume);
      ensureOpen();
      return startConsumer({
        queue: topology.queue(queue),
        prefetch: prefetchOf(consume),
        declare: (channel) => (ephemeral ? topology.declareEphemeralQueue(channel, queue) : topology.declareWorkQueue(channel, queue)),
        handle: handleWork(queue, handler, handling),
      });
    },

    async request<R = unknown>(queue: string, payload: unknown, request?: RequestOptions): Promise<R> {
      checkQueueName(queue);
      ensureOpen();
      const message = prepareMessage(queue, payload, request);
      const timeoutMs = request?.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      const session = await connection.ready(Date.now() + waitMs);
      const id = randomUUID();
      const answer = requests.wait(id, queue, timeoutMs, session);
      try {
        // Not persistent and expiring with the timeout: a question nobody took in time is dropped.
        const properties = propertiesOf(message, { replyTo: REPLY_TO, correlationId: id, expiration: String(timeoutMs), persistent: false });
        session.rpc.sendToQueue(topology.queue(queue), Buffer.from(message.body), properties);
      } catch (err) {
        requests.fail(id, new ServiceUnavailableError('Message bus is unavailable', {}, { cause: err }));
      }
      return (await answer) as R;
    },

    async respond(queue: string, handler: RequestHandler, consume?: ConsumeOptions) {
      checkRpcQueueName(queue, consume);
      ensureOpen();
      return startConsumer({
        queue: topology.queue(queue),
        prefetch: prefetchOf(consume),
        declare: (channel) => topology.declareRpcQueue(channel, queue),
        handle: handleRequest(queue, handler, handling),
      });
    },

    async healthy() {
      return connection.current()?.alive === true;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...consumers].map((consumer) => consumer.cancel()));
      requests.failAll((queue) => new ServiceUnavailableError(`Message bus closed before ${queue} answered`));
      await connection.close();
    },
  };
  return bus;
}

function confirm(channel: ConfirmChannel, exchange: string, routingKey: string, body: Buffer, properties: object): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.publish(exchange, routingKey, body, properties, (err: unknown) => (err ? reject(err) : resolve()));
  });
}
