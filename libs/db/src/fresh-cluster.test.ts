import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from './database.js';
import { MIGRATIONS_TABLE } from './migrator-config.js';
import { startMemoryDatabasesFrom } from './fresh-cluster.js';
import { serviceMigrations } from './testing/service-migrations.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'svc-fresh-cluster-test-'));

afterAll(() => {
  startMemoryDatabasesFrom(inject('freshClusterDump'));
  rmSync(folder, { recursive: true, force: true });
});

const marks = async (database: Database) =>
  ((await database.db.execute(sql`select body from marked order by body`)) as unknown as { rows: { body: string }[] }).rows.map((row) => row.body);

describe('in-memory databases from a fresh cluster', () => {
  it('start from the dump they are pointed at, each on a copy of its own', async () => {
    // A cluster that differs from initdb's by one table: a database that has it loaded the dump.
    const source = new PGlite('memory://', { loadDataDir: new Blob([readFileSync(inject('freshClusterDump'))]) });
    await source.exec(`create table marked (body text); insert into marked values ('from the dump')`);
    const dumpFile = join(folder, 'marked.tar');
    writeFileSync(dumpFile, Buffer.from(await (await source.dumpDataDir('none')).arrayBuffer()));
    await source.close();

    startMemoryDatabasesFrom(dumpFile);
    const [first, second] = [await createDatabase({}), await createDatabase({})];
    try {
      await first.db.execute(sql`insert into marked values ('first only')`);
      expect(await marks(first)).toEqual(['first only', 'from the dump']);
      expect(await marks(second)).toEqual(['from the dump']);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('is the suite’s fresh cluster by default: every service’s migrations applied, an empty public schema', async () => {
    startMemoryDatabasesFrom(inject('freshClusterDump'));
    const database = await createDatabase({});
    try {
      const count = async (query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
      expect(await count(sql`select count(*)::int as n from pg_tables where schemaname = 'public'`)).toBe(0);
      const migrations = serviceMigrations(root);
      expect(migrations.map(({ schema }) => schema)).toEqual(expect.arrayContaining(['execution', 'identity']));
      for (const { migrationsFolder, schema } of migrations) {
        const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
        const applied = () => count(sql`select count(*)::int as n from ${sql.identifier(schema)}.${sql.identifier(MIGRATIONS_TABLE)}`);
        expect(await applied(), schema).toBe(journal.entries.length);
        // Nothing left to apply: the journal is the one Database.migrate reads.
        await database.migrate({ migrationsFolder, schema });
        expect(await applied(), schema).toBe(journal.entries.length);
      }
      expect(await database.healthy()).toBe(true);
    } finally {
      await database.close();
    }
  });
});
