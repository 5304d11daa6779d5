import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import amqp from 'amqplib';
import { deleteCachePrefix } from '@svc/cache';
import { createScratchDatabase } from '@svc/db';

const run = promisify(execFile);

/** The local services, unless the environment names others. */
export const REAL_URLS = {
  database: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  cache: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  bus: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
};

export interface RealInfra {
  /** What a launched fleet is given: its own database, cache prefix and bus prefix. */
  env: Record<string, string>;
  /** Drops the database, the cache keys and the broker's queues and exchanges of this run. */
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
      return removeBusPrefix(busPrefix);
    },
  };
}

/**
 * The queues another process declared cannot be listed over AMQP itself, so they are found with
 * `rabbitmqctl` when this machine has it. Returns what could not be removed, for the report.
 */
async function removeBusPrefix(prefix: string): Promise<string[]> {
  const listed = await run('rabbitmqctl', ['list_queues', '--quiet', '--no-table-headers', 'name'], { timeout: 30_000 }).catch(() => undefined);
  const queues = listed ? listed.stdout.split('\n').map((l) => l.trim()).filter((name) => name.startsWith(prefix)) : [];
  const connection = await amqp.connect(REAL_URLS.bus);
  connection.on('error', () => undefined);
  try {
    // One channel per delete: the broker closes a channel whose operation fails.
    for (const remove of [...queues.map((q) => (c: amqp.Channel) => c.deleteQueue(q)), (c: amqp.Channel) => c.deleteExchange(`${prefix}svc.events`), (c: amqp.Channel) => c.deleteExchange(`${prefix}svc.dlx`)]) {
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      await remove(channel).catch(() => undefined);
      await channel.close().catch(() => undefined);
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
  return listed ? [] : [`RabbitMQ queues under "${prefix}" (rabbitmqctl was not available to list them)`];
}
