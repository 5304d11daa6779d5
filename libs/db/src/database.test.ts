import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from '@svc/testing';
import { isConnectionFailure } from './connection-failure.js';
import { createDatabase, type Database } from './database.js';
import { initPgliteDataDir } from './pglite-init.js';
import { createScratchDatabase } from './scratch.js';

const migrationsFolder = fileURLToPath(new URL('./fixtures/migrations', import.meta.url));

async function noteCount(database: Database): Promise<number> {
  const result = await database.db.execute(sql`select count(*)::int as n from fixture.notes`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

// Creating a data directory runs initdb in a process of its own: 5-9 s on two cores a suite
// shares, more than vitest's 30 s on a slower machine.
describe('embedded PGlite', () => {
  it('applies migrations, whatever migrateAtStart says, and keeps data across reopen of the data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-db-'));
    try {
      // No other process could migrate an embedded database: it applies them itself.
      const first = await createDatabase({ dataDir, migrateAtStart: false, migrationWaitMs: 1 });
      await first.migrate({ migrationsFolder, schema: 'fixture' });
      await first.db.execute(sql`insert into fixture.notes (body) values ('kept')`);
      await first.close();

      const second = await createDatabase({ dataDir });
      await second.migrate({ migrationsFolder, schema: 'fixture' });
      expect(await noteCount(second)).toBe(1);
      expect(await second.healthy()).toBe(true);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('creating an embedded data directory', () => {
  it('creates it in a separate process, once, and reports a failure', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'svc-db-init-'));
    try {
      const dataDir = join(parent, 'data');
      await initPgliteDataDir(dataDir);
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
      const marker = join(dataDir, 'PG_VERSION');
      const created = statSync(marker).mtimeMs;
      await initPgliteDataDir(dataDir);
      expect(statSync(marker).mtimeMs).toBe(created);

      writeFileSync(join(parent, 'a-file'), '');
      await expect(initPgliteDataDir(join(parent, 'a-file', 'data'))).rejects.toThrow();
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.runIf(process.env.DATABASE_URL)('Postgres', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
  });
  afterAll(async () => {
    await scratch.drop();
  });

  it('applies migrations once when replicas race for them', async () => {
    const replicas = await Promise.all([1, 2, 3].map(() => createDatabase({ url: scratch.url })));
    await Promise.all(replicas.map((r) => r.migrate({ migrationsFolder, schema: 'fixture' })));
    const journal = await replicas[0]!.db.execute(sql`select count(*)::int as n from fixture.__drizzle_migrations`);
    expect((journal as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    expect(await noteCount(replicas[0]!)).toBe(0);
    expect(await replicas[0]!.healthy()).toBe(true);
    await Promise.all(replicas.map((r) => r.close()));
  });

  it('waits at start for a server that cannot be reached yet, and gives up past its wait', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(scratch.url).port || 5432) });
    proxy.cut();
    const url = Object.assign(new URL(scratch.url), { port: String(proxy.port) }).toString();
    const failures: Error[] = [];
    const waiting = await createDatabase({ url, onError: (err) => failures.push(err) });
    const migrated = waiting.migrate({ migrationsFolder, schema: 'fixture' });
    while (failures.length < 2) await new Promise((r) => setTimeout(r, 50));
    proxy.resume();
    await migrated;
    expect(await noteCount(waiting)).toBe(0);
    await waiting.close();

    proxy.cut();
    const impatient = await createDatabase({ url, reachWaitMs: 1500 });
    const started = Date.now();
    await expect(impatient.migrate({ migrationsFolder, schema: 'fixture' })).rejects.toSatisfy(isConnectionFailure);
    expect(Date.now() - started).toBeLessThan(10_000);
    await impatient.close();
    await proxy.close();
  });

  it('reports unhealthy when the server cannot be reached', async () => {
    const unreachable = await createDatabase({ url: 'postgres://postgres@127.0.0.1:1/none' });
    expect(await unreachable.healthy()).toBe(false);
    await unreachable.close();
  });
});
