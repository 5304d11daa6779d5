import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import type { Bus, Subscription } from '@svc/bus';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
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
}

export interface StorageServiceHandle {
  routes: Router[];
  storage: StorageService;
  /** Migrates, answers the storage RPCs and starts the expiry sweep. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createStorageService({ database, bus, log, config, clock }: StorageDeps): StorageServiceHandle {
  const storage = new StorageService(database.db, bus, log, clock);
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
    async start() {
      await database.migrate({ migrationsFolder: config.migrationsFolder ?? STORAGE_MIGRATIONS, schema: STORAGE_SCHEMA });
      subscriptions.push(...(await respondToStorageRequests(bus, storage)));
      sweepTimer = setInterval(sweep, config.sweepIntervalSeconds * 1000);
      sweepTimer.unref();
    },
    async stop() {
      clearInterval(sweepTimer);
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      await sweeping;
    },
  };
}

export function storageConfigFromEnv(env: { SVC_STORAGE_SWEEP_SECONDS: number }): StorageConfig {
  return { sweepIntervalSeconds: env.SVC_STORAGE_SWEEP_SECONDS };
}

export { StorageEnv, loadStorageEnv, storageEnv } from './env.js';
