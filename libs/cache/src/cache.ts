import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { DEFAULT_COMMAND_TIMEOUT_MS, reconnectDelayMs } from './redis-settings.js';

/**
 * A small key-value cache with expiry: Redis when a URL is given, process memory
 * otherwise. Keys are namespaced by `prefix` so runs and deployments can share a server.
 */
export interface Cache {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  mget(keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
  /** The raw client, for libraries that speak Redis themselves (rate limiting). */
  readonly redis?: Redis;
  /** The server's URL (Redis only), for clients that are not ioredis (`trackedReads`). */
  readonly url?: string;
  readonly prefix: string;
}

export interface CacheOptions {
  url?: string;
  prefix?: string;
  /** How long one command may take before it fails (Redis only). */
  commandTimeoutMs?: number;
}

/**
 * ioredis, loaded by the first Redis client made: a process whose cache is in memory (the embedded
 * platform) never loads it. `createCache` is synchronous, hence `require`.
 */
const ioredis = (): typeof import('ioredis') => createRequire(import.meta.url)('ioredis');

function createRedisCache(url: string, prefix: string, commandTimeoutMs: number): Cache {
  const { Redis } = ioredis();
  const redis = new Redis(url, {
    keyPrefix: prefix,
    // Fail fast while Redis is away instead of queueing: callers fall back and /health says so.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: commandTimeoutMs,
    retryStrategy: reconnectDelayMs,
    lazyConnect: false,
  });
  redis.on('error', () => {
    // Connection errors surface through failed commands and healthy(); ioredis reconnects.
  });
  return {
    kind: 'redis',
    redis,
    url,
    prefix,
    get: (key) => redis.get(key),
    mget: (keys) => (keys.length === 0 ? Promise.resolve([]) : redis.mget(keys)),
    async set(key, value, ttlSeconds) {
      if (ttlSeconds !== undefined) await redis.set(key, value, 'EX', Math.max(1, Math.ceil(ttlSeconds)));
      else await redis.set(key, value);
    },
    async del(...keys) {
      if (keys.length > 0) await redis.del(...keys);
    },
    async healthy() {
      try {
        return redis.status === 'ready' && (await redis.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}

function createMemoryCache(prefix: string): Cache {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const read = (key: string): string | null => {
    const entry = entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return null;
    }
    return entry.value;
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    kind: 'memory',
    prefix,
    get: async (key) => read(key),
    mget: async (keys) => keys.map(read),
    async set(key, value, ttlSeconds) {
      entries.set(key, { value, expiresAt: ttlSeconds === undefined ? Infinity : Date.now() + ttlSeconds * 1000 });
    },
    async del(...keys) {
      for (const key of keys) entries.delete(key);
    },
    healthy: async () => true,
    async close() {
      clearInterval(sweep);
      entries.clear();
    },
  };
}

/**
 * @example
 *   const cache = createCache({ url: env.REDIS_URL, prefix: 'svc:' });
 *   await cache.set('user:42', JSON.stringify(profile), 300);
 */
export function createCache(options: CacheOptions = {}): Cache {
  const prefix = options.prefix ?? 'svc:';
  return options.url ? createRedisCache(options.url, prefix, options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS) : createMemoryCache(prefix);
}

/** Deletes every key under `prefix`: test and CI clean-up of a run's namespace. */
export async function deleteCachePrefix(url: string, prefix: string): Promise<number> {
  const { Redis } = ioredis();
  const redis = new Redis(url);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
