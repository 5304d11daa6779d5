import type { Channel, ConsumeMessage } from 'amqplib';
import { backoffDelayMs, type Logger } from '@svc/core';
import type { Subscription } from './bus.js';
import type { AmqpConnection, AmqpSession, ReconnectOptions } from './amqp-connection.js';
import { errorMessage, errorText, settledWithin } from './async.js';

export interface ConsumerSpec {
  /** Broker name of the queue. */
  queue: string;
  prefetch: number;
  /** Declares the queue (and its bindings) on every (re)start, so a restarted broker gets them back. */
  declare(channel: Channel): Promise<void>;
  /** Handles one delivery and acks or nacks it on `channel`. */
  handle(message: ConsumeMessage, channel: Channel): Promise<void>;
}

export interface ConsumerContext {
  connection: AmqpConnection;
  logger: Logger;
  reconnect: ReconnectOptions;
  drainTimeoutMs: number;
  onCancel(consumer: AmqpConsumer): void;
}

/**
 * One consumer on its own channel (so its prefetch is its own). It comes back by itself when its
 * channel fails or the broker cancels it, and the bus restarts it on every new connection.
 */
export class AmqpConsumer implements Subscription {
  private active = true;
  private session: AmqpSession | undefined;
  private channel: Channel | undefined;
  private consumerTag: string | undefined;
  private retry: NodeJS.Timeout | undefined;
  // Starts run one after another, so two reconnect paths never open two channels for one consumer.
  private starting: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly spec: ConsumerSpec,
    private readonly context: ConsumerContext,
  ) {}

  /** Consumes on `session` unless already doing so; rejects when the broker refuses. */
  start(session: AmqpSession): Promise<void> {
    const next = this.starting.catch(() => undefined).then(() => this.open(session));
    this.starting = next;
    return next;
  }

  /** `start` for background paths: a failure is logged and retried with backoff. */
  restart(session: AmqpSession, attempt = 1): void {
    this.start(session).catch((err: unknown) => {
      this.context.logger.error('bus consumer could not start; retrying', { queue: this.spec.queue, error: errorMessage(err) });
      this.scheduleRestart(attempt + 1);
    });
  }

  async cancel(): Promise<void> {
    if (!this.active) return;
    this.active = false;
    clearTimeout(this.retry);
    this.context.onCancel(this);
    await this.starting.catch(() => undefined);
    const { channel, consumerTag } = this;
    this.channel = undefined;
    if (channel && consumerTag) await channel.cancel(consumerTag).catch(() => undefined);
    await settledWithin(this.inFlight, this.context.drainTimeoutMs);
    // Closing the channel hands any message still unacked back to the broker for redelivery.
    if (channel) await channel.close().catch(() => undefined);
  }

  private async open(session: AmqpSession): Promise<void> {
    if (!this.active || !session.alive || (this.session === session && this.channel)) return;
    const channel = await session.model.createChannel();
    channel.on('error', (err: unknown) => this.context.logger.warn('bus consumer channel error', { queue: this.spec.queue, error: errorMessage(err) }));
    channel.on('close', () => this.closed(channel));
    this.session = session;
    this.channel = channel;
    try {
      await this.spec.declare(channel);
      await channel.prefetch(this.spec.prefetch);
      const { consumerTag } = await channel.consume(this.spec.queue, (message) => this.deliver(message, channel));
      this.consumerTag = consumerTag;
    } catch (err) {
      if (this.channel === channel) this.channel = undefined;
      await channel.close().catch(() => undefined);
      throw err;
    }
  }

  private deliver(message: ConsumeMessage | null, channel: Channel): void {
    if (message === null) {
      // The broker cancelled us (the queue was deleted): start over, which declares it again.
      this.context.logger.warn('bus consumer cancelled by the broker; re-subscribing', { queue: this.spec.queue });
      channel.close().catch(() => undefined);
      return;
    }
    const handled: Promise<void> = this.spec
      .handle(message, channel)
      .catch((err: unknown) => {
        this.context.logger.error('bus delivery failed', { queue: this.spec.queue, error: errorText(err) });
      })
      .finally(() => this.inFlight.delete(handled));
    this.inFlight.add(handled);
  }

  private closed(channel: Channel): void {
    if (this.channel !== channel) return;
    this.channel = undefined;
    this.consumerTag = undefined;
    if (this.active) this.scheduleRestart(1);
  }

  /** A lost connection is restored by the bus; this covers a channel lost on a live connection. */
  /** The `attempt`-th restart, after its backoff. */
  private scheduleRestart(attempt: number): void {
    const { initialDelayMs, maxDelayMs } = this.context.reconnect;
    clearTimeout(this.retry);
    this.retry = setTimeout(
      () => {
        const session = this.context.connection.current();
        if (this.active && session) this.restart(session, attempt);
      },
      backoffDelayMs({ baseMs: initialDelayMs, capMs: maxDelayMs }, attempt),
    );
  }
}
