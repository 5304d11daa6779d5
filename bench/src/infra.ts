import { randomBytes } from 'node:crypto';
import { destroyBrokerPrefix } from '@svc/bus';
import { deleteCachePrefix } from '@svc/cache';
import { createScratchDatabase } from '@svc/db';

/** The local services, unless the environment names others. */
export const REAL_URLS = {
  database: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  cache: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  bus: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
};

export interface RealInfra {
  /** What a launched fleet is given: its own database, cache prefix and bus prefix. */
  env: Record<string, string>;
  /** Drops the database, the cache keys and the broker's queues and exchanges of this run; resolves to what may be left. */
  remove(): Promise<string[]>;
}

/** A fresh database and fresh prefixes on the real Postgres, Redis and RabbitMQ. */
export async function realInfra(label: string): Promise<RealInfra> {
  const scratch = await createScratchDatabase(REAL_URLS.database, `bench_${label}`);
  const runId = randomBytes(4).toString('hex');
  const cachePrefix = `bench-${runId}:`;
  const busPrefix = `bench-${runId}.`;
  return {
    env: { DATABASE_URL: scratch.url, REDIS_URL: REAL_URLS.cache, AMQP_URL: REAL_URLS.bus, SVC_CACHE_PREFIX: cachePrefix, SVC_BUS_PREFIX: busPrefix },
    async remove() {
      await scratch.drop();
      await deleteCachePrefix(REAL_URLS.cache, cachePrefix);
      // The fleet's processes declared its queues, not this one: only rabbitmqctl on this machine finds them.
      const deleted = await destroyBrokerPrefix(REAL_URLS.bus, busPrefix);
      return deleted ? [] : [`RabbitMQ queues under "${busPrefix}" (rabbitmqctl could not list them)`];
    },
  };
}
