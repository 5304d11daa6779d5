import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { createBus, type Bus } from '@svc/bus';
import { createCache, type Cache } from '@svc/cache';
import type { Logger } from '@svc/core';
import { createDatabase, isConnectionFailure, type Database } from '@svc/db';
import { startTracing } from '@svc/tracing';
import { DEFAULT_STOP_GRACE_MS, type InfrastructureEnv } from './env.js';

/**
 * A handler that failed because the database was out of reach has its message put back on its
 * queue after 2 s, as often as it takes, rather than dead-lettered: a task, an event, a usage
 * report survive a database outage and are handled once it is back.
 */
const DATABASE_AWAY = { when: isConnectionFailure, delayMs: 2000 };

/**
 * Past the stop grace, a worker stops its runs and hands their jobs back (`HandBack`), which
 * takes a database write each: the bus waits that much longer before it closes the channels
 * under them (closing requeues what is unacked, but a handler still running would go on).
 */
const HAND_BACK_MS = 2000;

export interface Infrastructure {
  database: Database;
  cache: Cache;
  bus: Bus;
  close(): Promise<void>;
}

/**
 * Opens database, cache and bus: the real adapters for the URLs that are set, the embedded
 * ones (PGlite under SVC_DATA_DIR, memory cache, in-process bus) for those that are not; and
 * starts tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, the process named after its logger's
 * service. `close()` exports the spans still buffered last. `inMemory` keeps an embedded
 * database off the disk (tests).
 */
export async function openInfrastructure(env: InfrastructureEnv, log: Logger, options: { inMemory?: boolean } = {}): Promise<Infrastructure> {
  const tracing = await startTracing(env, { service: String(log.defaultMeta?.service ?? 'svc') });
  let dataDir: string | undefined;
  if (!env.DATABASE_URL && !options.inMemory) {
    dataDir = join(env.SVC_DATA_DIR, 'pglite');
    mkdirSync(dataDir, { recursive: true });
  }
  const database = await createDatabase({
    url: env.DATABASE_URL,
    migrationUrl: env.DATABASE_MIGRATION_URL,
    dataDir,
    migrateAtStart: env.SVC_MIGRATE_AT_START,
    migrationWaitMs: env.SVC_MIGRATION_WAIT_SECONDS === undefined ? undefined : env.SVC_MIGRATION_WAIT_SECONDS * 1000,
    reachWaitMs: env.SVC_DATABASE_WAIT_SECONDS === undefined ? undefined : env.SVC_DATABASE_WAIT_SECONDS * 1000,
    onMigrationWait: (schema, pending) => log.info('waiting for the migration command to apply this release', { schema, pending }),
    onError: (err) => log.warn('database connection error', { error: err.message }),
  });
  const cache = createCache({ url: env.REDIS_URL, prefix: env.SVC_CACHE_PREFIX });
  const bus = await createBus({ amqpUrl: env.AMQP_URL, prefix: env.SVC_BUS_PREFIX, queueType: env.SVC_BUS_QUEUE_TYPE, logger: log, retry: DATABASE_AWAY, drainTimeoutMs: (env.SVC_STOP_GRACE_MS ?? DEFAULT_STOP_GRACE_MS) + HAND_BACK_MS });
  log.info('infrastructure ready', { database: database.kind, cache: cache.kind, bus: bus.kind, traces: env.OTEL_EXPORTER_OTLP_ENDPOINT ? 'otlp' : 'off' });
  return {
    database,
    cache,
    bus,
    async close() {
      await bus.close();
      await cache.close();
      await database.close();
      await tracing.flush();
    },
  };
}
