// A real Postgres through node-postgres and drizzle's driver for it: `createDatabase` loads this
// module when it is given a URL, so that an embedded platform never loads either.
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { dbPool } from '@svc/metrics';
import type { Database, DatabaseOptions, Db, MigrateOptions } from './database.js';
import { answers, HEALTH_TIMEOUT_MS, underMigrationLock } from './driver-common.js';
import { MIGRATIONS_TABLE, migratorConfig } from './migrator-config.js';
import { awaitMigrations } from './migration-wait.js';
import { onceReachable } from './reach-wait.js';

const MIGRATION_WAIT_MS = 120_000;
/** How long a starting process tries to reach its database before it gives up. */
const REACH_WAIT_MS = 60_000;

function migrateLocked(client: pg.PoolClient | pg.Client, { migrationsFolder, schema }: MigrateOptions): Promise<void> {
  const locked = drizzlePg(client);
  return underMigrationLock(locked, schema, () => migratePg(locked, migratorConfig({ migrationsFolder, schema })));
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The journal's newest `created_at`, read as the role that owns it (the runtime role may not). */
async function latestApplied(connectionString: string, schema: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: HEALTH_TIMEOUT_MS });
  await client.connect();
  try {
    const result = await client.query<{ latest: string | null }>(`select max(created_at)::text as latest from ${quoted(schema)}.${quoted(MIGRATIONS_TABLE)}`);
    const latest = result.rows[0]?.latest;
    return latest == null ? undefined : Number(latest);
  } catch (err) {
    // No schema or no journal yet: nothing applied.
    if ((err as { code?: string }).code === '42P01' || (err as { code?: string }).code === '3F000') return undefined;
    throw err;
  } finally {
    await client.end();
  }
}

/**
 * Migrates as the schema's owner, then lets the service's runtime role read and write the
 * schema's tables and nothing more: no DDL, no migrations journal, no other schema.
 */
async function migrateAs(migrationUrl: string, runtimeRole: string, options: MigrateOptions): Promise<void> {
  const client = new pg.Client({ connectionString: migrationUrl, connectionTimeoutMillis: HEALTH_TIMEOUT_MS });
  await client.connect();
  try {
    await migrateLocked(client, options);
    const schema = quoted(options.schema);
    const role = quoted(decodeURIComponent(runtimeRole));
    await client.query(`grant usage on schema ${schema} to ${role}`);
    await client.query(`grant select, insert, update, delete on all tables in schema ${schema} to ${role}`);
    await client.query(`grant usage, select on all sequences in schema ${schema} to ${role}`);
    await client.query(`revoke all on ${schema}.${quoted(MIGRATIONS_TABLE)} from ${role}`);
  } finally {
    await client.end();
  }
}

/**
 * `db.transaction` on a client checked out here and released whatever happens. drizzle's own
 * checks a client out and releases it only once `begin` has succeeded: a client whose connection
 * died as it was handed out (a database going away) failed its `begin` and was never given back,
 * so each outage shrank the pool for good and `close()` waited on it for ever. A dead client is
 * dropped by the pool on release; a live one goes back to it.
 */
function withReleasingTransactions(db: Db, pool: pg.Pool): Db {
  const onClient = new WeakMap<pg.PoolClient, Db>();
  const transaction: Db['transaction'] = async (work, config) => {
    const client = await pool.connect();
    try {
      let bound = onClient.get(client);
      if (!bound) onClient.set(client, (bound = drizzlePg(client) as unknown as Db));
      return await bound.transaction(work, config);
    } finally {
      client.release();
    }
  };
  return Object.assign(db, { transaction });
}

export async function createPostgres(options: DatabaseOptions & { url: string }): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: HEALTH_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  // A client losing its connection must not crash the process. The pool listens only to idle
  // clients (and replaces them); one checked out, as a transaction holds it between statements,
  // has no listener but this one, and its next statement fails as a connection failure.
  pool.on('connect', (client) => client.on('error', (err) => options.onError?.(err)));
  pool.on('error', () => undefined); // already reported by the client's own listener above
  const db = withReleasingTransactions(drizzlePg(pool) as unknown as Db, pool);
  const unwatch = dbPool.readFrom(() => [
    [{ state: 'total' }, pool.totalCount],
    [{ state: 'idle' }, pool.idleCount],
    [{ state: 'waiting' }, pool.waitingCount],
  ]);
  return {
    kind: 'postgres',
    db,
    migrate: ({ migrationsFolder, schema }) =>
      onceReachable(() => migrateOrAwait({ migrationsFolder, schema }), {
        timeoutMs: options.reachWaitMs ?? REACH_WAIT_MS,
        onWait: (err) => options.onError?.(err),
      }),
    healthy: () => answers(() => pool.query('select 1')),
    close: () => {
      unwatch();
      return pool.end();
    },
  };

  async function migrateOrAwait({ migrationsFolder, schema }: MigrateOptions): Promise<void> {
    if (options.migrateAtStart === false) {
      const owner = options.migrationUrl ?? options.url;
      return awaitMigrations({
        migrationsFolder,
        schema,
        latestApplied: () => latestApplied(owner, schema),
        timeoutMs: options.migrationWaitMs ?? MIGRATION_WAIT_MS,
        onWait: (pending) => options.onMigrationWait?.(schema, pending),
      });
    }
    if (options.migrationUrl) return migrateAs(options.migrationUrl, new URL(options.url).username, { migrationsFolder, schema });
    const client = await pool.connect();
    try {
      await migrateLocked(client, { migrationsFolder, schema });
    } finally {
      client.release();
    }
  }
}
