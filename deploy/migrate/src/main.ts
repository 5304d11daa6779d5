import { createLogger } from '@svc/core';
import { createDatabase } from '@svc/db';
import { loadMigrateEnv } from './env.js';
import { migrationsFolderOf, servicesWithMigrations } from './services.js';

// `node deploy/migrate/dist/main.js <service>…`: applies each named service's migrations to its
// schema as DATABASE_MIGRATION_URL's role (granting DATABASE_URL's the use of the tables), under
// the same advisory lock as start-up migrations, then exits: 0 done, 1 failed, 2 misused.
const known = servicesWithMigrations();
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !known.includes(name));
if (asked.length === 0 || unknown.length > 0) {
  console.error(`usage: migrate <service>…, services: ${known.join(', ')}${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''}`);
  process.exit(2);
}

let env: ReturnType<typeof loadMigrateEnv>;
try {
  env = loadMigrateEnv(process.env);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
const log = createLogger({ service: 'migrate', level: env.LOG_LEVEL });
const database = await createDatabase({
  url: env.DATABASE_URL,
  migrationUrl: env.DATABASE_MIGRATION_URL,
  poolSize: 1,
  reachWaitMs: env.SVC_DATABASE_WAIT_SECONDS * 1000,
  onError: (err) => log.warn('database not reached', { error: err.message }),
});
try {
  for (const service of asked) {
    await database.migrate({ migrationsFolder: migrationsFolderOf(service), schema: service });
    log.info('migrated', { schema: service });
  }
} catch (err) {
  log.error('migration failed', { error: (err as Error).message });
  process.exitCode = 1;
} finally {
  await database.close();
}
