import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import { viewTokens } from '@svc/auth';
import { createBlobStore, type BlobStore, type BlobStoreSettings } from '@svc/blobs';
import { EventOutbox, type Bus, type Subscription } from '@svc/bus';
import { FLEET_PING_RPC } from '@svc/contracts';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { outbox } from './db/schema.js';
import { dashboardRoutes } from './http/dashboard.routes.js';
import { shareRoutes } from './http/share.routes.js';
import { viewRoutes } from './http/view.routes.js';
import { respondToDashboardAppRequests } from './events/dashboard-app.responder.js';
import { BundleService } from './services/bundle.service.js';
import { DashboardAppService } from './services/dashboard-app.service.js';
import { DashboardService } from './services/dashboard.service.js';
import { ShareService } from './services/share.service.js';
import { shareTokens } from './services/share-token.js';
import { ViewService } from './services/view.service.js';
import { DEFAULT_DASHBOARD_ORIGIN } from './env.js';

export const DASHBOARD_SCHEMA = 'dashboard';
export const DASHBOARD_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface DashboardConfig {
  /** Where bundle files are kept (the same store as the registry's packages). */
  blobStore: BlobStoreSettings;
  /** Where uploads are streamed to while they are checked and unpacked; each is removed after. */
  uploadDir: string;
  /**
   * Signs share links and view tokens (a key derived for each): the internal secret, which the
   * gateway also holds to read view tokens.
   */
  tokenSecret: string;
  /**
   * The origin bundle files are served from to browsers (`https://dash.example.com`): entry
   * points and view-token URLs point there. Unset: one origin, the API's paths.
   */
  dashboardOrigin?: string;
  /** Where the SQL migrations are; defaults to this package's `drizzle/`. */
  migrationsFolder?: string;
  /** How often the outbox relay looks for unsent events (default 5 s). */
  outboxIntervalMs?: number;
}

export interface DashboardDeps {
  database: Database;
  bus: Bus;
  log: Logger;
  config: DashboardConfig;
}

export interface DashboardServiceHandle {
  routes: Router[];
  /** Migrates, answers the fleet ping and `dashboard.app.read`, and relays the outbox. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createDashboardService({ database, bus, log, config }: DashboardDeps): DashboardServiceHandle {
  const db = database.db;
  const blobs: BlobStore = createBlobStore(config.blobStore);
  const events = new EventOutbox({ db, table: outbox, bus, log, intervalMs: config.outboxIntervalMs });
  const dashboards = new DashboardService({ db, blobs, events, bus, log, bundleOrigin: config.dashboardOrigin });
  const bundles = new BundleService(db, blobs);
  const shares = new ShareService(db, dashboards, shareTokens(config.tokenSecret));
  const views = new ViewService(dashboards, viewTokens(config.tokenSecret));
  const subscriptions: Subscription[] = [];

  return {
    routes: [dashboardRoutes(dashboards, bundles, config.uploadDir), shareRoutes(shares, bundles), viewRoutes(views, bundles)],
    async start() {
      await database.migrate({ migrationsFolder: config.migrationsFolder ?? DASHBOARD_MIGRATIONS, schema: DASHBOARD_SCHEMA });
      subscriptions.push(await bus.respond(FLEET_PING_RPC, async () => ({ service: 'dashboard' })));
      subscriptions.push(await respondToDashboardAppRequests(bus, new DashboardAppService(dashboards, bundles)));
      events.start();
    },
    async stop() {
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      await events.stop();
    },
  };
}

/**
 * Bundle files in the same blob store as the registry's packages; uploads in flight under
 * `tmp/`. `SVC_DASHBOARD_ORIGIN` unset is the embedded default origin; `none` (null) is one origin.
 */
export function dashboardConfigFromEnv(env: {
  SVC_DATA_DIR: string;
  SVC_INTERNAL_SECRET: string;
  SVC_DASHBOARD_ORIGIN?: string | null;
  BLOB_STORE_URL?: string;
  BLOB_STORE_ENDPOINT?: string;
}): DashboardConfig {
  return {
    blobStore: { url: env.BLOB_STORE_URL, endpoint: env.BLOB_STORE_ENDPOINT, localDir: join(env.SVC_DATA_DIR, 'blobs') },
    uploadDir: join(env.SVC_DATA_DIR, 'tmp', 'dashboard-uploads'),
    tokenSecret: env.SVC_INTERNAL_SECRET,
    dashboardOrigin: env.SVC_DASHBOARD_ORIGIN === undefined ? DEFAULT_DASHBOARD_ORIGIN : (env.SVC_DASHBOARD_ORIGIN ?? undefined),
  };
}

export { DashboardEnv, DashboardOrigin, DEFAULT_DASHBOARD_ORIGIN, loadDashboardEnv } from './env.js';
