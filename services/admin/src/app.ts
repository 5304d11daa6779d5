import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { telemetryRoutes } from './http/telemetry.routes.js';
import { TelemetryService } from './services/telemetry.service.js';

export const ADMIN_SCHEMA = 'admin';
export const ADMIN_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface AdminConfig {
  /** Where the SQL migrations are; defaults to this package's `drizzle/`. */
  migrationsFolder?: string;
}

export interface AdminDeps {
  database: Database;
  log: Logger;
  config: AdminConfig;
}

export interface AdminServiceHandle {
  routes: Router[];
  telemetry: TelemetryService;
  /** Migrates. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The admin area: for now the telemetry the CLI sends; admin endpoints and metrics come here. */
export function createAdminService({ database, config }: AdminDeps): AdminServiceHandle {
  const telemetry = new TelemetryService(database.db);
  return {
    routes: [telemetryRoutes(telemetry)],
    telemetry,
    async start() {
      await database.migrate({ migrationsFolder: config.migrationsFolder ?? ADMIN_MIGRATIONS, schema: ADMIN_SCHEMA });
    },
    async stop() {},
  };
}

export { AdminEnv, loadAdminEnv } from './env.js';
