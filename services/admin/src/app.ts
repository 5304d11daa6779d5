import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import { EventOutbox, type Bus, type Subscription } from '@svc/bus';
import { createCache, type Cache } from '@svc/cache';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { outbox } from './db/schema.js';
import { consumePeopleEvents } from './events/people.consumer.js';
import { consumeUsageEvents } from './events/usage.consumer.js';
import { adminRoutes } from './http/admin.routes.js';
import { metricsRoutes } from './http/metrics.routes.js';
import { telemetryRoutes } from './http/telemetry.routes.js';
import { usageRoutes } from './http/usage.routes.js';
import { AdminService } from './services/admin.service.js';
import { AuditService } from './services/audit.service.js';
import { LiveSubscriptions } from './services/live-subscriptions.js';
import { OperatorService } from './services/operator.service.js';
import { MetricsService } from './services/metrics.service.js';
import { TelemetryService } from './services/telemetry.service.js';
import { UsageService } from './services/usage.service.js';
import { HardLimits } from './usage/hard-limits.js';

export const ADMIN_SCHEMA = 'admin';
export const ADMIN_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface AdminConfig {
  /** Where the SQL migrations are; defaults to this package's `drizzle/`. */
  migrationsFolder?: string;
  /** Whether tier quotas apply (`SVC_USAGE_LIMITS`); self-hosted deployments turn them off. Default on. */
  usageLimits?: boolean;
  /** What keyed digests (access codes, e-mails, customer ids) are made with: `SVC_AUDIT_KEY`, else `SVC_INTERNAL_SECRET`. */
  auditKey: string;
}

export interface AdminDeps {
  database: Database;
  /** Shared with execution: where hard limits are flagged (the fleet's cache; a process-local one when not given). */
  cache?: Cache;
  bus: Bus;
  log: Logger;
  config: AdminConfig;
  /** Tests move time (the usage month); everything else uses the real clock. */
  now?: () => Date;
}

export interface AdminServiceHandle {
  routes: Router[];
  telemetry: TelemetryService;
  usage: UsageService;
  /** Migrates and starts the event consumers. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The admin area: the telemetry the CLI sends, the usage read model and the admin endpoints, fed by events. */
export function createAdminService({ database, cache = createCache({}), bus, log, config, now = () => new Date() }: AdminDeps): AdminServiceHandle {
  const telemetry = new TelemetryService(database.db);
  const admin = new AdminService(database.db, config.auditKey, new LiveSubscriptions(bus, log, now));
  const metrics = new MetricsService(database.db, now);
  const usage = new UsageService(database.db, config.usageLimits ?? true, now);
  const events = new EventOutbox({ db: database.db, table: outbox, bus, log });
  const hardLimits = new HardLimits(database.db, cache, now);
  const audit = new AuditService(database.db);
  const subscriptions: Subscription[] = [];
  return {
    routes: [telemetryRoutes(telemetry), usageRoutes(usage, hardLimits), adminRoutes(admin, new OperatorService(database.db, bus, log, now), audit, log), metricsRoutes(metrics, audit, log)],
    telemetry,
    usage,
    async start() {
      await database.migrate({ migrationsFolder: config.migrationsFolder ?? ADMIN_MIGRATIONS, schema: ADMIN_SCHEMA });
      subscriptions.push(await consumeUsageEvents(bus, database.db, events, { now, limitsEnabled: config.usageLimits ?? true, hardLimits }), await consumePeopleEvents(bus, database.db, now, hardLimits));
      events.start();
    },
    async stop() {
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      await events.stop();
    },
  };
}

export { AdminEnv, adminConfigFromEnv, adminEnv, loadAdminEnv } from './env.js';
/** The metrics' queries, which the admin-queries benchmark times without HTTP in between. */
export { MetricsService } from './services/metrics.service.js';
