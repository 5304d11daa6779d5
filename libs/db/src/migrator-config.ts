// A module of its own that loads nothing at run time: every test file's set-up loads the fresh
// cluster's code, which migrates too, and must not load drizzle and @svc/core with it.
import type { MigrateOptions } from './database.js';

/** The journal drizzle's migrator keeps in each service's schema, under both drivers. */
export const MIGRATIONS_TABLE = '__drizzle_migrations';

/** What drizzle's migrator is given for a service's migrations, by either driver and by the suite's fresh cluster. */
export function migratorConfig({ migrationsFolder, schema }: MigrateOptions) {
  return { migrationsFolder, migrationsSchema: schema, migrationsTable: MIGRATIONS_TABLE };
}
