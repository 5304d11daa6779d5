import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from 'ssh2';
import { ChannelRefusedError, SshConnectionError } from './ssh-errors.js';

/**
 * Commands running at once on one connection, each on a channel of its own: below OpenSSH's
 * default `MaxSessions` (10), past which a server refuses to open another. Further commands wait
 * for a channel.
 */
export const CHANNELS_PER_CONNECTION = 8;

/**
 * Waits before each new try of a channel the server refused: OpenSSH releases a closed session
 * only after the channel's close has been read, so a burst of commands ending at once may meet
 * refusals for the next ones for a moment; a server with a lower `MaxSessions` refuses until one
 * of ours ends. About 1.5 s in all, then the command fails (`channel_refused`).
 */
const REFUSED_CHANNEL_WAITS_MS = [10, 25, 50, 100, 200, 400, 700];

interface Pooled {
  /** Which version of the target (its `updated_at`) the connection was made for. */
  version: number;
  client: Promise<Client>;
  inUse: number;
  /** Channels open now, and the commands waiting for one, first come first served. */
  channels: number;
  waiting: Array<() => void>;
  idle?: NodeJS.Timeout;
}

/**
 * One authenticated connection per target, shared by the commands run on it (at most
 * `CHANNELS_PER_CONNECTION` at once) and closed after `idleMs` without one. A target changed since its connection was made (another host, another
 * credential, another trusted key) gets a new one; `forget` closes a target's connection.
 */
export class ConnectionPool {
  readonly #connections = new Map<string, Pooled>();

  constructor(private readonly idleMs: number) {}

  /**
   * Runs `use` on the target's connection, opening one with `open` when there is none; again,
   * after a wait, when the server refused its channel (ChannelRefusedError).
   */
  async with<T>(targetId: string, version: number, open: () => Promise<Client>, use: (client: Client) => Promise<T>): Promise<T> {
    const pooled = this.#acquire(targetId, version, open);
    try {
      const client = await pooled.client;
      for (let refusals = 0; ; refusals += 1) {
        await this.#channel(pooled);
        try {
          return await use(client);
        } catch (err) {
          if (!(err instanceof ChannelRefusedError)) throw err;
          if (refusals === REFUSED_CHANNEL_WAITS_MS.length) throw new SshConnectionError('channel_refused', { stage: 'channel', server_said: err.serverSaid });
        } finally {
          this.#closeChannel(pooled);
        }
        await sleep(REFUSED_CHANNEL_WAITS_MS[refusals]);
      }
    } finally {
      this.#release(targetId, pooled);
    }
  }

  forget(targetId: string): void {
    const pooled = this.#connections.get(targetId);
    if (!pooled) return;
    this.#connections.delete(targetId);
    clearTimeout(pooled.idle);
    void pooled.client.then((client) => client.end(), () => undefined);
  }

  get size(): number {
    return this.#connections.size;
  }

  close(): void {
    for (const targetId of [...this.#connections.keys()]) this.forget(targetId);
  }

  #acquire(targetId: string, version: number, open: () => Promise<Client>): Pooled {
    const current = this.#connections.get(targetId);
    if (current && current.version === version) {
      clearTimeout(current.idle);
      current.inUse += 1;
      return current;
    }
    if (current) this.forget(targetId);
    const pooled: Pooled = { version, client: open(), inUse: 1, channels: 0, waiting: [] };
    this.#connections.set(targetId, pooled);
    pooled.client.then(
      (client) => client.once('close', () => this.#connections.get(targetId) === pooled && this.#connections.delete(targetId)),
      () => this.#connections.get(targetId) === pooled && this.#connections.delete(targetId),
    );
    return pooled;
  }

  /** Takes a channel of the connection, waiting for one when all are open. */
  #channel(pooled: Pooled): Promise<void> {
    if (pooled.channels < CHANNELS_PER_CONNECTION) {
      pooled.channels += 1;
      return Promise.resolve();
    }
    // The channel is handed over by #closeChannel, which leaves the count as it is.
    return new Promise((resolve) => pooled.waiting.push(resolve));
  }

  #closeChannel(pooled: Pooled): void {
    const next = pooled.waiting.shift();
    if (next) next();
    else pooled.channels -= 1;
  }

  #release(targetId: string, pooled: Pooled): void {
    pooled.inUse -= 1;
    if (pooled.inUse > 0 || this.#connections.get(targetId) !== pooled) return;
    pooled.idle = setTimeout(() => this.forget(targetId), this.idleMs);
    pooled.idle.unref();
  }
}
