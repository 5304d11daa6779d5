import { spawnSync } from 'node:child_process';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '@svc/db';
import { APP_ROOT, migrationsFolderOf, servicesWithMigrations } from './services.js';

/** The command as the Job runs it, a process of its own. */
function migrate(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'deploy/migrate/src/main.ts', ...args], { cwd: APP_ROOT, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 60_000 });
}

async function journalRows(url: string, schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(`select count(*)::int as n from "${schema}".__drizzle_migrations`)).rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe('the migration command', () => {
  it('knows every service that owns migrations', () => {
    expect(servicesWithMigrations()).toEqual(expect.arrayContaining(['identity', 'registry', 'execution', 'storage', 'admin', 'billing', 'notify', 'dashboard', 'ssh']));
  });

  it('refuses no service, an unknown one and a missing DATABASE_URL with exit code 2, naming what is wrong', () => {
    const none = migrate([], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/usage: migrate <service>/);
    const unknown = migrate(['storage', 'nosuch'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown: nosuch/);
    const unset = migrate(['storage'], {});
    expect(unset.status).toBe(2);
    expect(unset.stderr).toMatch(/DATABASE_URL/);
  });

  it('exits 1 when the database cannot be reached', () => {
    expect(migrate(['storage'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'error' }).status).toBe(1);
  });
});

describe.runIf(process.env.DATABASE_URL)('the migration command on Postgres', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'migratecmd');
  });
  afterAll(async () => {
    await scratch?.drop();
  });

  it("applies each named service's migrations to its schema once, and again changes nothing", async () => {
    const first = migrate(['storage', 'ssh'], { DATABASE_URL: scratch.url });
    expect(first.status, first.stderr + first.stdout).toBe(0);
    for (const service of ['storage', 'ssh']) {
      expect(await journalRows(scratch.url, service), service).toBe(readMigrationFiles({ migrationsFolder: migrationsFolderOf(service) }).length);
    }
    const again = migrate(['storage'], { DATABASE_URL: scratch.url });
    expect(again.status, again.stderr).toBe(0);
    expect(await journalRows(scratch.url, 'storage')).toBe(readMigrationFiles({ migrationsFolder: migrationsFolderOf('storage') }).length);
  });
});
