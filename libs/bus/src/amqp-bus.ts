import { randomUUID } from 'node:crypto';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { IntegrationError, ServiceUnavailableError, createLogger } from '@svc/core';
import type { Logger } from '@svc/core';
import type { RawBus, ConsumeOptions, MessageHandler, RequestHandler, RequestOptions, RetryPolicy, SendOptions } from './bus.js';
import { errorMessage } from './async.js';
import { AmqpConnection } from './amqp-connection.js';
import { AmqpConsumer, type ConsumerSpec } from './amqp-consumer.js';
import { handleRequest, handleWork, type HandlingContext } from './amqp-handlers.js';
import { propertiesOf } from './amqp-message.js';
import { AmqpTopology, brokerSupportsQuorum, type QueueType } from './amqp-topology.js';
import { BATCH_HEADER, EventBatcher, batchMessage } from './event-batches.js';
import { ANSWER_BY_HEADER, prepareMessage, type OutgoingMessage } from './message.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  checkEventName,
  checkPatterns,
  checkDelay,
  checkQueueName,
  checkRpcQueueName,
  deadLetterQueueOf,
  ephemeralOf,
  isEphemeralQueue,
  prefetchOf,
} from './names.js';
import { PendingRequests } from './rpc.js';

/** The direct reply-to pseudo queue: replies come straight back on the asking channel. */
const REPLY_TO = 'amq.rabbitmq.reply-to';

export interface ReconnectOptions {
  /** The pause between attempts to reconnect (the connection manager's, fixed), and the first backoff of a consumer whose channel the broker closed. */
  initialDelayMs: number;
  /** Where that consumer's backoff stops doubling. */
  maxDelayMs: number;
}

/** How amqplib fails the confirm of a publish whose channel closed (with its connection) first. */
const CONFIRM_LOST = 'channel closed';

export interface AmqpBusOptions {
  /** `amqp://user:password@host:5672/vhost`; a `heartbeat` query parameter overrides `heartbeatSeconds`. */
  url: string;
  /** Put in front of every exchange and queue name, e.g. `test-1a2b3c4d.` for a test run. Default ''. */
  prefix?: string;
  logger?: Logger;
  /** Pause between reconnection attempts, and a closed consumer channel's backoff. Default 500 ms, 30 s. */
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
  /** One socket write per round of frames (frame-batching.ts). Default on, off with `SVC_BUS_FRAME_BATCHING=off`. */
  frameBatching?: boolean;
  /**
   * Events published in one turn of the event loop go to the broker as one message per name
   * (event-batches.ts). Default on, off with `SVC_BUS_EVENT_BATCHING=off`; consumers of any
   * version of this adapter read both forms.
   */
  eventBatching?: boolean;
  /** How durable queues are declared (`SVC_BUS_QUEUE_TYPE`); `quorum` falls back to `classic` on a broker before 3.8. Default 'classic'. */
  queueType?: QueueType;
}

/**
 * The RabbitMQ adapter: events on the topic exchange `<prefix>svc.events`, work and RPC on durable
 * queues `<prefix><queue>`, ephemeral queues exclusive to the connection, publisher confirms,
 * manual acks, dead-letter queues, and a connection that comes back by itself after a broker
 * restart (amqp-connection-manager re-runs every channel's setup: the consumers' queues are
 * declared again). Rejects when the broker cannot be reached within `waitForConnectionMs` at start.
 *
 * @example
 *   const bus = await createAmqpBus({ url: env.AMQP_URL, logger: log });
 *   await bus.consume('exec.fast', async (m) => run(m.payload), { prefetch: 8 });
 *   await bus.send('exec.fast', { run_id });
 *   const user = await bus.request('identity.user', { user_id }, { timeoutMs: 2000 });
 */
export async function createAmqpBus(options: AmqpBusOptions): Promise<RawBus> {
  const log = options.logger ?? createLogger({ service: 'bus' });
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
    reconnectDelayMs: reconnect.initialDelayMs,
    connectTimeoutMs: waitMs,
    heartbeatSeconds: options.heartbeatSeconds ?? 5,
    connectionName: options.connectionName ?? 'svc',
    frameBatching: options.frameBatching ?? process.env.SVC_BUS_FRAME_BATCHING !== 'off',
  });
  // Direct replies are addressed to the lost channel; waiting for them would only end in a timeout.
  let model: ChannelModel | undefined;
  connection.manager.on('connect', () => (model = connection.current()));
  connection.manager.on('disconnect', () => {
    if (model) requests.failAll((queue) => new ServiceUnavailableError(`Message bus connection lost before ${queue} answered`), model);
    model = undefined;
  });
  try {
    await connection.start();
  } catch (err) {
    throw new ServiceUnavailableError('Cannot connect to the message bus', { reason: errorMessage(err) }, { cause: err });
  }
  const topology = new AmqpTopology(options.prefix ?? '', queueTypeFor(options.queueType ?? 'classic', connection.current()?.connection.serverProperties.version, log));
  // Events and work go out on a confirm channel; questions on a plain one, whose direct replies come back to it.
  const publisher = connection.channel('publish', { confirm: true, setup: (channel) => topology.declareEvents(channel), onLost: () => connection.reconnect() });
  const asker = connection.channel('rpc', {
    confirm: false,
    setup: async (channel) => {
      await channel.consume(REPLY_TO, (reply) => reply && answered(reply), { noAck: true });
    },
    onLost: () => connection.reconnect(),
  });
  const answered = (reply: ConsumeMessage) => {
    const id = reply.properties.correlationId;
    if (typeof id === 'string') requests.reply(id, reply.content.toString('utf8'));
  };
  await Promise.all([publisher.waitForConnect(), asker.waitForConnect()]);

  const publishEvents = (messages: OutgoingMessage[]): Promise<void> => {
    const name = messages[0]!.name;
    if (messages.length === 1) return publishConfirmed(messages[0]!, topology.events, name);
    return publishConfirmed(batchMessage(messages), topology.events, name, true, { [BATCH_HEADER]: messages.length });
  };
  const batcher = (options.eventBatching ?? process.env.SVC_BUS_EVENT_BATCHING !== 'off') ? new EventBatcher(publishEvents) : undefined;

  const handling: HandlingContext = {
    logger: log,
    unprefixed: (name: string) => topology.unprefixed(name),
    retry: options.retry,
    deadLetter: async (queue, messages) => {
      const dlq = topology.queue(deadLetterQueueOf(queue));
      await Promise.all(messages.map((m) => publishConfirmed(prepareMessage(m.name, m.payload, m), topology.deadLetters, dlq)));
    },
  };

  const ensureOpen = () => {
    if (closed) throw new ServiceUnavailableError('Message bus is closed');
  };

  /** Queues declared on each connection, so that `send` declares each once per connection. */
  const declaredOn = new WeakMap<ChannelModel, Map<string, Promise<void>>>();

  /** Declares `queue` once per connection with `declare`, on a channel of its own (a refusal closes it, not a shared one); a refusal is tried again next time. */
  const ensureDeclared = (on: ChannelModel, queue: string, declare: (channel: Channel) => Promise<void>): Promise<void> => {
    let declared = declaredOn.get(on);
    if (!declared) declaredOn.set(on, (declared = new Map()));
    let done = declared.get(queue);
    if (!done) {
      done = withChannel(on, declare);
      done.catch(() => declared.delete(queue));
      declared.set(queue, done);
    }
    return done;
  };

  /**
   * Publishes and waits for the broker's confirm, within the bus's wait. When the connection
   * drops first, the broker may or may not have the message, and it is published again on the
   * next connection (at least once): by the manager for a message it still holds, here for one
   * whose confirm amqplib failed ('channel closed') as it closed the channels of the lost
   * connection, before the manager had heard of the loss. Only the broker's own refusal (a nack)
   * is INTEGRATION_ERROR; not being able to publish now is SERVICE_UNAVAILABLE.
   */
  const publishConfirmed = async (message: OutgoingMessage, exchange: string, routingKey: string, persistent = true, headers: Record<string, unknown> = {}): Promise<void> => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        await publisher.publish(exchange, routingKey, Buffer.from(message.body), { ...propertiesOf(message, { persistent, headers }), timeout: Math.max(1, deadline - Date.now()) });
        return;
      } catch (err) {
        if (closed) throw new ServiceUnavailableError('Message bus is closed');
        const reason = errorMessage(err);
        if (reason === 'timeout') throw new ServiceUnavailableError('Message broker did not confirm in time', { name: message.name });
        if (reason !== CONFIRM_LOST) throw new IntegrationError('Message broker refused the message', { name: message.name, reason }, { cause: err });
        if (Date.now() >= deadline) throw new ServiceUnavailableError('Message broker connection lost before it confirmed the message', { name: message.name });
        // Once the manager has heard of the loss, the publish waits for the next connection.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  };

  const startConsumer = async (spec: ConsumerSpec): Promise<AmqpConsumer> => {
    const restart = { baseMs: reconnect.initialDelayMs, capMs: reconnect.maxDelayMs };
    const consumer = new AmqpConsumer(spec, { connection, logger: log, restart, drainTimeoutMs, onCancel: (c) => consumers.delete(c) });
    consumers.add(consumer);
    try {
      await consumer.start(Date.now() + waitMs);
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
      await (batcher ? batcher.add(message) : publishConfirmed(message, topology.events, event));
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
      const on = await connection.ready(Date.now() + waitMs);
      // Never declare an ephemeral queue here: once its consumer is gone, the default exchange
      // drops (and confirms) a message routed to it, which is what a late reply deserves.
      if (!isEphemeralQueue(queue)) await ensureDeclared(on, queue, (channel) => topology.declareWorkQueue(channel, queue));
      if (delayMs > 0) {
        const delayQueue = topology.delayQueueOf(queue, delayMs);
        await ensureDeclared(on, delayQueue, (channel) => topology.declareDelayQueue(channel, queue, delayMs));
        return publishConfirmed(message, '', topology.queue(delayQueue), !send?.transient);
      }
      await publishConfirmed(message, '', topology.queue(queue), !send?.transient);
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
      const on = await connection.ready(Date.now() + waitMs);
      const id = randomUUID();
      const answer = requests.wait(id, queue, timeoutMs, on);
      // Not persistent and expiring with the timeout: a question nobody took in time is dropped,
      // by the broker or, past the time it carries, by the responder that takes it.
      const headers = { [ANSWER_BY_HEADER]: String(Date.now() + timeoutMs) };
      const properties = propertiesOf(message, { replyTo: REPLY_TO, correlationId: id, expiration: String(timeoutMs), persistent: false, headers });
      asker.sendToQueue(topology.queue(queue), Buffer.from(message.body), { ...properties, timeout: timeoutMs }).catch((err: unknown) => {
        requests.fail(id, new ServiceUnavailableError('Message bus is unavailable', {}, { cause: err }));
      });
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

    async depth(queue: string) {
      checkQueueName(queue);
      ensureOpen();
      const on = await connection.ready(Date.now() + waitMs);
      // A passive declare: the broker answers with the count, or closes the channel (404) for a queue it does not have.
      return withChannel(on, (channel) => channel.checkQueue(topology.queue(queue))).then(
        (ok) => ok.messageCount,
        (err: { code?: number }) => {
          if (err.code === 404) return 0;
          throw new IntegrationError(`Cannot read the depth of ${queue}`, { queue, reason: errorMessage(err) }, { cause: err });
        },
      );
    },

    async healthy() {
      return connection.current() !== undefined;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...consumers].map((consumer) => consumer.cancel()));
      await batcher?.drain();
      requests.failAll((queue) => new ServiceUnavailableError(`Message bus closed before ${queue} answered`));
      await connection.close();
    },
  };
  return bus;
}

/** The queue type asked for, unless the broker predates quorum queues. */
function queueTypeFor(asked: QueueType, brokerVersion: unknown, log: Logger): QueueType {
  if (asked === 'classic' || brokerSupportsQuorum(brokerVersion)) return asked;
  log.warn('the broker has no quorum queues (RabbitMQ 3.8 or later); declaring classic queues', { broker_version: String(brokerVersion) });
  return 'classic';
}

/** A short-lived channel on `model`. */
async function withChannel<T>(model: ChannelModel, use: (channel: Channel) => Promise<T>): Promise<T> {
  const channel = await model.createChannel();
  channel.on('error', () => undefined);
  try {
    return await use(channel);
  } finally {
    channel.close().catch(() => undefined);
  }
}
