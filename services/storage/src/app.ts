import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import { EventOutbox, type Bus, type Subscription } from '@svc/bus';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { outbox } from './db/schema.js';
import { respondToStorageRequests } from './events/storage.responder.js';
import { storageRoutes } from './http/storage.routes.js';
import { StorageService, type Clock } from './services/storage.service.js';

export const STORAGE_SCHEMA = 'storage';
export const STORAGE_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface StorageConfig {
  /** How often expired entries are removed (and their tenants' usage published). */
  sweepIntervalSeconds: number;
  /** Where the SQL migrations are; defaults to this package's `drizzle/`. */
  migrationsFolder?: string;
}

export interface StorageDeps {
  database: Database;
  bus: Bus;
  log: Logger;
  config: StorageConfig;
  /** Tests move time; everything else uses the real clock. */
  clock?: Clock;
  /** How often the outbox relay looks for unsent events (default 5 s); tests shorten it. */
  outboxIntervalMs?: number;
}

export interface StorageServiceHandle {
  routes: Router[];
  storage: StorageService;
  /** The outbox of `storage.changed` (its relay runs between start and stop). */
  events: EventOutbox;
  /** Migrates, answers the storage RPCs and starts the expiry sweep and the outbox relay. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createStorageService({ database, bus, log, config, clock, outboxIntervalMs }: StorageDeps): StorageServiceHandle {
  const events = new EventOutbox({ db: database.db, table: outbox, bus, log, intervalMs: outboxIntervalMs });
  const storage = new StorageService(database.db, events, clock);
  const subscriptions: Subscription[] = [];
  let sweepTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> = Promise.resolve();

  const sweep = () => {
    sweeping = storage
      .sweepExpired()
      .then((removed) => removed > 0 && log.info('expired storage entries removed', { removed }))
      .catch((err: Error) => log.warn('storage expiry sweep failed', { error: err.message }));
  };

  return {
    routes: [storageRoutes(storage)],
    storage,
    events,
    async start() {
      await database.migrate({ migrationsFolder: config.migrationsFolder ?? STORAGE_MIGRATIONS, schema: STORAGE_SCHEMA });
      subscriptions.push(...(await respondToStorageRequests(bus, storage)));
      events.start();
      sweepTimer = setInterval(sweep, config.sweepIntervalSeconds * 1000);
      sweepTimer.unref();
    },
    async stop() {
      clearInterval(sweepTimer);
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      await sweeping;
      await events.stop();
    },
  };
}

export function storageConfigFromEnv(env: { SVC_STORAGE_SWEEP_SECONDS: number }): StorageConfig {
  return { sweepIntervalSeconds: env.SVC_STORAGE_SWEEP_SECONDS };
}

export { StorageEnv, loadStorageEnv, storageEnv } from './env.js';
