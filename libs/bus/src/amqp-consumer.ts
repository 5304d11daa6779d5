import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import { IntegrationError, ServiceUnavailableError, backoffDelayMs, withTimeout, type Logger } from '@svc/core';
import type { Subscription } from './bus.js';
import type { AmqpConnection } from './amqp-connection.js';
import { errorMessage, errorText, settledWithin } from './async.js';

export interface ConsumerSpec {
  /** Broker name of the queue. */
  queue: string;
  prefetch: number;
  /** Declares the queue (and its bindings) on every channel, so a restarted broker gets them back. */
  declare(channel: Channel): Promise<void>;
  /** Handles one delivery and acks or nacks it on `channel`. */
  handle(message: ConsumeMessage, channel: Channel): Promise<void>;
}

export interface ConsumerContext {
  connection: AmqpConnection;
  logger: Logger;
  /** Backoff of a consumer whose channel the broker closed on a live connection. */
  restart: { baseMs: number; capMs: number };
  drainTimeoutMs: number;
  onCancel(consumer: AmqpConsumer): void;
}

/**
 * One consumer on a channel of its own (so its prefetch is its own), kept by the connection
 * manager across reconnections: declare, prefetch and consume run again on every new channel.
 * When the broker closes its channel alone (the queue deleted, a refused declaration after a
 * reconnection), the consumer opens a new one after a backoff.
 */
export class AmqpConsumer implements Subscription {
  private active = true;
  private wrapper: ChannelWrapper | undefined;
  private consuming: { channel: Channel; tag: string } | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** Channels the broker closed since the last one that consumed: the backoff's attempt. */
  private failures = 0;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly spec: ConsumerSpec,
    private readonly context: ConsumerContext,
  ) {}

  /**
   * Starts consuming; rejects with SERVICE_UNAVAILABLE when no connection comes by `deadline`
   * (epoch ms), with INTEGRATION_ERROR when the broker refuses the queue.
   */
  async start(deadline: number): Promise<void> {
    const { connection } = this.context;
    const model = await connection.ready(deadline);
    const wrapper = connection.channel(this.spec.queue, { confirm: false, onLost: () => this.lost(wrapper) });
    this.wrapper = wrapper;
    await withTimeout(wrapper.waitForConnect(), Math.max(0, deadline - Date.now()), () => new ServiceUnavailableError('Message bus is unavailable'));
    try {
      await wrapper.addSetup(this.setup);
    } catch (err) {
      // A connection lost meanwhile is not a refusal: the new connection runs the setup again.
      if (connection.current() === model) {
        throw new IntegrationError(`Cannot consume from ${this.spec.queue}`, { queue: this.spec.queue, reason: errorMessage(err) }, { cause: err });
      }
    }
  }

  async cancel(): Promise<void> {
    if (!this.active) return;
    this.active = false;
    clearTimeout(this.retry);
    this.context.onCancel(this);
    const { wrapper, consuming } = this;
    this.consuming = undefined;
    if (!wrapper) return;
    await wrapper.removeSetup(this.setup).catch(() => undefined);
    if (consuming) await consuming.channel.cancel(consuming.tag).catch(() => undefined);
    await settledWithin(this.inFlight, this.context.drainTimeoutMs);
    // Closing the channel hands any message still unacked back to the broker for redelivery.
    await wrapper.close().catch(() => undefined);
  }

  private readonly setup = async (channel: Channel): Promise<void> => {
    await this.spec.declare(channel);
    await channel.prefetch(this.spec.prefetch);
    const { consumerTag } = await channel.consume(this.spec.queue, (message) => this.deliver(message, channel));
    this.consuming = { channel, tag: consumerTag };
    this.failures = 0;
  };

  private deliver(message: ConsumeMessage | null, channel: Channel): void {
    if (message === null) {
      // The broker cancelled us (the queue was deleted): a new channel declares it again.
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

  /** A new channel, after a backoff, in place of `wrapper`'s that the broker closed. */
  private lost(wrapper: ChannelWrapper): void {
    if (!this.active || this.wrapper !== wrapper) return;
    this.failures += 1;
    this.context.logger.warn('bus consumer channel closed by the broker; reopening', { queue: this.spec.queue, attempt: this.failures });
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      if (!this.active) return;
      void wrapper.close().catch(() => undefined);
      this.start(Date.now() + this.context.restart.capMs).catch((err: unknown) => {
        this.context.logger.error('bus consumer could not start; retrying', { queue: this.spec.queue, error: errorMessage(err) });
        if (this.wrapper) this.lost(this.wrapper);
      });
    }, backoffDelayMs(this.context.restart, this.failures));
  }
}
