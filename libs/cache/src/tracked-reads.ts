import { withTimeout } from '@svc/core';
import type { Cache } from './cache.js';
import { DEFAULT_COMMAND_TIMEOUT_MS, reconnectDelayMs } from './redis-settings.js';

/** Reads of a cache's keys that a process may answer from its own memory. */
export interface TrackedReads {
  get(key: string): Promise<string | null>;
  /**
   * Drops this process's copy of `key`, so that the next read asks Redis: for a change this
   * process knows was made, whose notice from Redis may not have been read yet.
   */
  forget(key: string): void;
  close(): Promise<void>;
}

export interface TrackedReadsOptions {
  /** Values kept in this process at most; the least recently read go first. */
  maxEntries: number;
  /** How long a value may be kept without Redis saying anything about it. */
  ttlSeconds: number;
  /** How the connection shows in Redis's `CLIENT LIST`. */
  name: string;
  /** How long a read that goes to Redis may take before it fails (default 500 ms, as the cache's). */
  commandTimeoutMs?: number;
}

/**
 * Reads of `cache` served from this process's memory for as long as Redis says they hold
 * (server-assisted client-side caching, RESP3, by node-redis): Redis tells this client of
 * every change to a key it has read (set, delete, expiry), and the copy drops it; the whole
 * copy is dropped whenever the connection fails. A hot key costs no round trip, and a deleted
 * one is gone here within the time it takes Redis's notice to travel, not after a TTL.
 *
 * While Redis is unreachable, reads fail at once (no offline queue), and a read Redis does not
 * answer in time fails, as the cache's own do.
 * On the memory cache the reads are the cache's own: it already lives in this process.
 */
export function trackedReads(cache: Cache, options: TrackedReadsOptions): TrackedReads {
  if (cache.kind === 'memory' || !cache.url) return { get: (key) => cache.get(key), forget: () => undefined, close: async () => {} };
  const url = cache.url;
  // node-redis is some 400 modules; only a process that reads this way loads them (BENCHMARKS.md, eleventh round).
  const connecting = import('@redis/client').then(({ createClient }) => {
    const client = createClient({
      url,
      RESP: 3,
      name: options.name,
      disableOfflineQueue: true,
      clientSideCache: { maxEntries: options.maxEntries, ttl: options.ttlSeconds * 1000, evictPolicy: 'LRU' },
      socket: { reconnectStrategy: reconnectDelayMs },
    });
    client.on('error', () => {
      // Failed reads say so to the caller, which falls back; the client reconnects by itself.
    });
    // Reads before the first connection fail like those during an outage.
    client.connect().catch(() => undefined);
    return client;
  });
  let loaded: Awaited<typeof connecting> | undefined;
  void connecting.then((client) => (loaded = client));
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const read = async (key: string) => (loaded ?? (await connecting)).get(cache.prefix + key);
  return {
    // node-redis times out only commands not yet written: a stalled Redis is timed here, so
    // that the read fails, as the cache's own does, and the caller falls back.
    get: (key) => withTimeout(read(key), timeoutMs, () => new Error(`Redis did not answer within ${timeoutMs} ms`)),
    // A read already on its way is dropped too: its answer is not kept.
    forget: (key) => loaded?.clientSideCache?.invalidate(cache.prefix + key),
    async close() {
      const client = await connecting;
      if (client.isOpen) client.destroy();
    },
  };
}
