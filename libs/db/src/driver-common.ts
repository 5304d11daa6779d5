// What both drivers of `createDatabase` share (`database.ts` for PGlite, `postgres.ts` for
// node-postgres): the health check and the migration lock (the migrator's journal and
// options are in migrator-config.ts). Not exported by the package.
import { sql } from 'drizzle-orm';
import { withTimeout } from '@svc/core';

export const HEALTH_TIMEOUT_MS = 2000;

function lockKey(schema: string) {
  return sql`select pg_advisory_lock(hashtext(${`svc-migrate:${schema}`}))`;
}
function unlockKey(schema: string) {
  return sql`select pg_advisory_unlock(hashtext(${`svc-migrate:${schema}`}))`;
}

/** True when `query` succeeds within the health timeout. */
export async function answers(query: () => Promise<unknown>): Promise<boolean> {
  try {
    await withTimeout(query(), HEALTH_TIMEOUT_MS, () => new Error(`timed out after ${HEALTH_TIMEOUT_MS} ms`));
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` holding the schema's migration lock on `db`'s connection. */
export async function underMigrationLock(db: { execute(query: ReturnType<typeof lockKey>): Promise<unknown> }, schema: string, work: () => Promise<void>): Promise<void> {
  await db.execute(lockKey(schema));
  try {
    await work();
  } finally {
    await db.execute(unlockKey(schema));
  }
}
