import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ChannelModel } from 'amqplib';
import { ServiceUnavailableError, withTimeout } from '@svc/core';
import type { Logger } from '@svc/core';
import { errorMessage } from './async.js';
import { batchFrameWrites } from './frame-batching.js';

export interface AmqpConnectionOptions {
  url: string;
  logger: Logger;
  /** Pause between attempts to reconnect. */
  reconnectDelayMs: number;
  connectTimeoutMs: number;
  heartbeatSeconds: number;
  connectionName: string;
  /** Corks the socket around each round of frames (frame-batching.ts); on unless turned off. */
  frameBatching: boolean;
}

/**
 * amqp-connection-manager (and amqplib under it), loaded by the first connection made: a process
 * whose bus is in memory (the embedded platform) never loads them. Connections are made in a
 * constructor, hence `require`.
 */
const connectionManager = (): typeof import('amqp-connection-manager') => createRequire(import.meta.url)('amqp-connection-manager');

/** What a channel's owner does when the broker closes that channel alone, the connection staying up. */
export type OnChannelLost = () => void;

/**
 * The connection to RabbitMQ, kept by amqp-connection-manager: it is reopened after any loss,
 * each channel made with `channel()` is opened again on the new connection and its setup (queue
 * declarations, consumers) runs again, and confirmed publishes still unconfirmed are sent again.
 * What the manager leaves to its user — a channel the broker closes on a live connection — goes
 * to the channel's owner (`OnChannelLost`).
 */
export class AmqpConnection {
  readonly manager: AmqpConnectionManager;
  private closing = false;
  private opened = false;

  constructor(private readonly options: AmqpConnectionOptions) {
    const { logger } = options;
    this.manager = connectionManager().connect([options.url], {
      heartbeatIntervalInSeconds: options.heartbeatSeconds,
      reconnectTimeInSeconds: options.reconnectDelayMs / 1000,
      connectionOptions: {
        timeout: options.connectTimeoutMs,
        // amqplib writes a message as several small frames; with Nagle's algorithm each waits for
        // the broker's delayed ACK (~40 ms), on every publish and every RPC.
        noDelay: true,
        clientProperties: { connection_name: options.connectionName },
      },
    });
    // Listeners first: the manager runs the channels' setups on 'connect' after these.
    this.manager.on('connect', ({ connection }) => this.opening(connection as unknown as ChannelModel));
    this.manager.on('disconnect', ({ err }) => {
      if (!this.closing) logger.warn('bus connection lost; reconnecting', { reason: err ? errorMessage(err) : 'closed' });
    });
    this.manager.on('connectFailed', ({ err }) => {
      if (this.opened && !this.closing) logger.warn('bus reconnect failed', { error: errorMessage(err), retry_in_ms: options.reconnectDelayMs });
    });
    this.manager.on('blocked', ({ reason }) => logger.warn('bus connection blocked by the broker', { reason }));
  }

  /** Opens the first connection; rejects when the broker cannot be reached within the connect timeout. */
  async start(): Promise<void> {
    try {
      await this.manager.connect({ timeout: this.options.connectTimeoutMs });
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  current(): ChannelModel | undefined {
    return this.manager.connection;
  }

  /** The open connection, waiting for a reconnection until `deadline` (epoch ms). */
  async ready(deadline: number): Promise<ChannelModel> {
    if (this.closing) throw new ServiceUnavailableError('Message bus is closed');
    const open = this.current();
    if (open) return open;
    const left = deadline - Date.now();
    if (left <= 0) throw new ServiceUnavailableError('Message bus is unavailable');
    await withTimeout(once(this.manager, 'connect'), left, () => new ServiceUnavailableError('Message bus is unavailable'));
    return this.ready(deadline);
  }

  /**
   * A channel kept across reconnections. `setup` runs on each of its underlying channels; when the
   * broker closes one on a live connection (a refused declaration, a protocol error, a deleted
   * queue), `onLost` decides what follows.
   */
  channel(name: string, options: { confirm: boolean; setup?: (channel: Channel) => Promise<void>; onLost: OnChannelLost }): ChannelWrapper {
    let wrapperClosed = false;
    const wrapper = this.manager.createChannel({ name, confirm: options.confirm });
    wrapper.on('error', (err: unknown) => this.options.logger.warn('bus channel setup failed', { channel: name, error: errorMessage(err) }));
    wrapper.on('close', () => (wrapperClosed = true));
    void wrapper.addSetup(async (channel: Channel) => {
      const model = this.current();
      channel.on('error', (err: unknown) => this.options.logger.warn('bus channel error', { channel: name, error: errorMessage(err) }));
      // A lost connection closes its channels before the manager hears of it: look once it has.
      channel.on('close', () =>
        setImmediate(() => {
          if (wrapperClosed || this.closing || this.current() !== model) return;
          options.onLost();
        }),
      );
    });
    if (options.setup) void wrapper.addSetup(options.setup).catch(() => undefined);
    return wrapper;
  }

  /** Every channel again on a new connection: the one recovery path for a shared channel. */
  reconnect(): void {
    if (!this.closing) this.manager.reconnect();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.manager.close().catch(() => undefined);
  }

  private opening(model: ChannelModel): void {
    if (this.options.frameBatching && !batchFrameWrites(model)) {
      this.options.logger.warn('amqplib internals changed: frames are written one by one');
    }
    model.on('error', (err: unknown) => this.options.logger.warn('bus connection error', { error: errorMessage(err) }));
    if (this.opened) this.options.logger.info('bus reconnected');
    this.opened = true;
  }
}
