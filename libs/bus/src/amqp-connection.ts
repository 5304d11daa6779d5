import amqp from 'amqplib';
import type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { backoffDelayMs, ServiceUnavailableError } from '@svc/core';
import type { Logger } from '@svc/core';
import { errorMessage, sleep } from './async.js';
import { batchFrameWrites } from './frame-batching.js';

/** The direct reply-to pseudo queue: replies come straight back on the asking channel. */
export const REPLY_TO = 'amq.rabbitmq.reply-to';

export interface ReconnectOptions {
  initialDelayMs: number;
  maxDelayMs: number;
}

/** One live connection with the channels the bus shares; replaced wholesale after a loss. */
export interface AmqpSession {
  readonly model: ChannelModel;
  /** Publisher-confirm channel for events and work. */
  readonly confirm: ConfirmChannel;
  /** Plain channel for RPC: questions go out and direct replies come back on it. */
  readonly rpc: Channel;
  /** Queues already declared on this connection, so `send` declares each once. */
  readonly declared: Map<string, Promise<void>>;
  alive: boolean;
}

export interface AmqpConnectionOptions {
  url: string;
  logger: Logger;
  reconnect: ReconnectOptions;
  connectTimeoutMs: number;
  heartbeatSeconds: number;
  connectionName: string;
  /** Declares what publishing needs (the exchanges) on every new connection. */
  prepare(session: AmqpSession): Promise<void>;
  onReply(message: ConsumeMessage): void;
  onOpen(session: AmqpSession): void;
  onLost(session: AmqpSession): void;
}

/**
 * Owns the connection to RabbitMQ: opens it, notices its loss (a closed socket, a broker restart,
 * a channel error on a shared channel) and reopens it with exponential backoff until `close()`.
 */
export class AmqpConnection {
  private session: AmqpSession | undefined;
  private closing = false;
  private reconnecting = false;
  private readonly stop = new AbortController();
  private readonly waiters = new Set<() => void>();

  constructor(private readonly options: AmqpConnectionOptions) {}

  /** Opens the first connection; rejects when the broker cannot be reached. */
  async start(): Promise<void> {
    this.adopt(await this.open());
  }

  current(): AmqpSession | undefined {
    return this.session;
  }

  /** The open session, waiting for a reconnection until `deadline` (epoch ms). */
  async ready(deadline: number): Promise<AmqpSession> {
    for (;;) {
      if (this.closing) throw new ServiceUnavailableError('Message bus is closed');
      if (this.session) return this.session;
      const left = deadline - Date.now();
      if (left <= 0) throw new ServiceUnavailableError('Message bus is unavailable');
      await this.changed(left);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.stop.abort();
    this.wake();
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    session.alive = false;
    await session.model.close().catch(() => undefined);
  }

  private async open(): Promise<AmqpSession> {
    const model = await amqp.connect(this.url(), {
      timeout: this.options.connectTimeoutMs,
      // amqplib writes a message as several small frames; with Nagle's algorithm each waits for
      // the broker's delayed ACK (~40 ms), on every publish and every RPC.
      noDelay: true,
      clientProperties: { connection_name: this.options.connectionName },
    });
    // Fast path (frame-batching.ts): one socket write per round of frames. Without it the bus
    // works the same, one write per frame.
    if (!batchFrameWrites(model)) this.options.logger.warn('amqplib internals changed: frames are written one by one');
    // Listeners go on before anything else: an 'error' event without one would crash the process.
    model.on('error', (err: unknown) => this.options.logger.warn('bus connection error', { error: errorMessage(err) }));
    model.on('blocked', (reason: unknown) => this.options.logger.warn('bus connection blocked by the broker', { reason }));
    let session: AmqpSession | undefined;
    let lostDuringSetup = false;
    model.on('close', () => (session ? this.lose(session, 'connection closed') : (lostDuringSetup = true)));
    try {
      const confirm = this.watch(await model.createConfirmChannel(), () => session);
      const rpc = this.watch(await model.createChannel(), () => session);
      await rpc.consume(REPLY_TO, (message) => message && this.options.onReply(message), { noAck: true });
      session = { model, confirm, rpc, declared: new Map(), alive: !lostDuringSetup };
      await this.options.prepare(session);
      if (!session.alive) throw new Error('connection closed during setup');
      return session;
    } catch (err) {
      await model.close().catch(() => undefined);
      throw err;
    }
  }

  /** A shared channel that fails takes the connection down with it: one recovery path for all. */
  private watch<C extends Channel>(channel: C, session: () => AmqpSession | undefined): C {
    channel.on('error', (err: unknown) => this.options.logger.warn('bus channel error', { error: errorMessage(err) }));
    channel.on('close', () => {
      const owner = session();
      if (owner) this.lose(owner, 'shared channel closed');
    });
    return channel;
  }

  private adopt(session: AmqpSession): void {
    this.session = session;
    this.wake();
    this.options.onOpen(session);
  }

  private lose(session: AmqpSession, reason: string): void {
    if (!session.alive) return;
    session.alive = false;
    if (this.session !== session) return;
    this.session = undefined;
    this.options.onLost(session);
    if (this.closing) return;
    this.options.logger.warn('bus connection lost; reconnecting', { reason });
    // After a channel-only failure the socket is still up; close it so everything restarts together.
    session.model.close().catch(() => undefined);
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    if (this.reconnecting) return;
    this.reconnecting = true;
    const { initialDelayMs, maxDelayMs } = this.options.reconnect;
    try {
      for (let attempt = 1; !this.closing; attempt += 1) {
        await sleep(backoffDelayMs({ baseMs: initialDelayMs, capMs: maxDelayMs }, attempt), this.stop.signal);
        if (this.closing) return;
        try {
          const session = await this.open();
          if (this.closing) {
            await session.model.close().catch(() => undefined);
            return;
          }
          this.options.logger.info('bus reconnected');
          this.adopt(session);
          return;
        } catch (err) {
          this.options.logger.warn('bus reconnect failed', { error: errorMessage(err), retry_in_ms: backoffDelayMs({ baseMs: initialDelayMs, capMs: maxDelayMs }, attempt + 1) });
        }
      }
    } finally {
      this.reconnecting = false;
    }
  }

  private changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** A heartbeat lets a silent network partition be noticed, not only a closed socket. */
  private url(): string {
    const url = new URL(this.options.url);
    if (!url.searchParams.has('heartbeat')) url.searchParams.set('heartbeat', String(this.options.heartbeatSeconds));
    return url.toString();
  }
}
