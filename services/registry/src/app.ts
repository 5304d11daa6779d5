import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import { createBlobStore, type BlobStore, type BlobStoreSettings } from '@svc/blobs';
import { EventOutbox, type Bus, type Subscription } from '@svc/bus';
import type { Cache } from '@svc/cache';
import { FLEET_PING_RPC } from '@svc/contracts';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { outbox } from './db/schema.js';
import { respondToCommandRequests } from './events/command.responder.js';
import { respondToPackageRequests } from './events/package.responder.js';
import { commandRoutes } from './http/command.routes.js';
import { grantRoutes } from './http/grant.routes.js';
import { packRoutes } from './http/pack.routes.js';
import { publishRoutes } from './http/publish.routes.js';
import { CatalogService } from './services/catalog.service.js';
import { GrantService } from './services/grant.service.js';
import { PackService } from './services/pack.service.js';
import { PackageService } from './services/package.service.js';
import { PublishService } from './services/publish.service.js';
import { FleetPython, type FleetPythonOptions } from './services/fleet-python.js';

export const REGISTRY_SCHEMA = 'registry';
export const REGISTRY_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface RegistryConfig {
  /** Where package files are kept: a bucket, a shared folder, or this process's own. */
  blobStore: BlobStoreSettings;
  /** Where the SQL migrations are; defaults to this package's `drizzle/`. */
  migrationsFolder?: string;
  /** How often the outbox relay looks for unsent events (default 5 s). */
  outboxIntervalMs?: number;
  /** The Python the fleet's workers run Python packs on; `python3` probed by default. */
  python?: FleetPythonOptions;
}

export interface RegistryDeps {
  database: Database;
  cache: Cache;
  bus: Bus;
  log: Logger;
  config: RegistryConfig;
}

export interface RegistryService {
  routes: Router[];
  /** Migrates, starts answering bus requests and relaying the outbox. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createRegistryService({ database, bus, log, config }: RegistryDeps): RegistryService {
  const db = database.db;
  const blobs: BlobStore = createBlobStore(config.blobStore);
  const catalog = new CatalogService(db);
  const packages = new PackageService(db, blobs);
  const events = new EventOutbox({ db, table: outbox, bus, log, intervalMs: config.outboxIntervalMs });
  const subscriptions: Subscription[] = [];

  return {
    routes: [
      publishRoutes(new PublishService({ db, blobs, events, log, python: new FleetPython(config.python) })),
      packRoutes(new PackService(db, blobs, events, log)),
      commandRoutes(catalog),
      grantRoutes(new GrantService(db, events)),
    ],
    async start() {
      await database.migrate({ migrationsFolder: config.migrationsFolder ?? REGISTRY_MIGRATIONS, schema: REGISTRY_SCHEMA });
      subscriptions.push(...(await respondToCommandRequests(bus, catalog)));
      subscriptions.push(await respondToPackageRequests(bus, packages));
      subscriptions.push(await bus.respond(FLEET_PING_RPC, async () => ({ service: 'registry' })));
      events.start();
    },
    async stop() {
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      await events.stop();
    },
  };
}

/** Package files where `BLOB_STORE_URL` says, else in the blob folder under the data directory; the fleet's Python. */
export function registryConfigFromEnv(env: { SVC_DATA_DIR: string; BLOB_STORE_URL?: string; BLOB_STORE_ENDPOINT?: string; SVC_PYTHON?: string; SVC_PYTHON_VERSION?: string }): RegistryConfig {
  return {
    blobStore: { url: env.BLOB_STORE_URL, endpoint: env.BLOB_STORE_ENDPOINT, localDir: join(env.SVC_DATA_DIR, 'blobs') },
    python: { interpreter: env.SVC_PYTHON, version: env.SVC_PYTHON_VERSION },
  };
}

export { RegistryEnv, loadRegistryEnv } from './env.js';
