import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from './database.js';
import { pendingMigrations } from './migration-wait.js';
import { dropServiceRoles, provisionServiceRoles, type ServiceRoles } from './roles.js';
import { createScratchDatabase } from './scratch.js';

const migrationsFolder = fileURLToPath(new URL('./fixtures/migrations', import.meta.url));

describe('pendingMigrations', () => {
  it("counts the folder's migrations newer than the journal's newest", () => {
    expect(pendingMigrations(migrationsFolder, undefined)).toBe(1);
    expect(pendingMigrations(migrationsFolder, 0)).toBe(1);
    expect(pendingMigrations(migrationsFolder, Date.now())).toBe(0);
  });
});

describe.runIf(process.env.DATABASE_URL)('migrations left to the migration command (Postgres)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let roles: Record<string, ServiceRoles>;

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'migwait');
    roles = await provisionServiceRoles({ adminUrl: scratch.url, schemas: ['fixture'], prefix: `w${randomBytes(4).toString('hex')}_` });
  });

  afterAll(async () => {
    await scratch?.drop();
    if (roles) await dropServiceRoles(process.env.DATABASE_URL!, roles);
  });

  const replica = (waitMs: number, onMigrationWait?: (schema: string, pending: number) => void) =>
    createDatabase({ url: roles.fixture!.runtime.url, migrationUrl: roles.fixture!.migrator.url, migrateAtStart: false, migrationWaitMs: waitMs, onMigrationWait });

  it('applies nothing itself and fails, naming what is pending, when nobody applies them in time', async () => {
    const database = await replica(300);
    try {
      await expect(database.migrate({ migrationsFolder, schema: 'fixture' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { schema: 'fixture', pending: 1 } });
      const schemas = await database.db.execute(sql`select count(*)::int as n from information_schema.schemata where schema_name = 'fixture'`);
      expect((schemas as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('waits for the migration command, then works on the migrated tables as the runtime role', async () => {
    const waited: number[] = [];
    const database = await replica(20_000, (_schema, pending) => waited.push(pending));
    const migrator = await createDatabase({ url: roles.fixture!.runtime.url, migrationUrl: roles.fixture!.migrator.url });
    try {
      const waiting = database.migrate({ migrationsFolder, schema: 'fixture' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await migrator.migrate({ migrationsFolder, schema: 'fixture' });
      await waiting;
      expect(waited).toEqual([1]);
      await database.db.execute(sql`insert into fixture.notes (body) values ('after the job')`);
      // Once applied, a replica starting later goes straight on.
      const later = await replica(1);
      await later.migrate({ migrationsFolder, schema: 'fixture' });
      await later.close();
    } finally {
      await database.close();
      await migrator.close();
    }
  });
});
