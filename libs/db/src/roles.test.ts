import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from './database.js';
import { dropServiceRoles, provisionServiceRoles, type ServiceRoles } from './roles.js';
import { createScratchDatabase } from './scratch.js';

const migrationsFolder = fileURLToPath(new URL('./fixtures/migrations', import.meta.url));

/** What a role may do, asked as that role. */
async function attempt(url: string, statement: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
    return 'allowed';
  } catch (err) {
    return (err as { code?: string }).code ?? 'error';
  } finally {
    await client.end();
  }
}

describe.runIf(process.env.DATABASE_URL)('a service on roles of its own (Postgres)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let roles: Record<string, ServiceRoles>;
  let fixture: Database;

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'roles');
    // Roles belong to the whole server: each run names its own and drops them.
    roles = await provisionServiceRoles({ adminUrl: scratch.url, schemas: ['fixture', 'other'], prefix: `t${randomBytes(4).toString('hex')}_` });
    fixture = await createDatabase({ url: roles.fixture!.runtime.url, migrationUrl: roles.fixture!.migrator.url });
    await fixture.migrate({ migrationsFolder, schema: 'fixture' });
    // Another service's schema, made by its own migrator.
    expect(await attempt(roles.other!.migrator.url, 'create schema other; create table other.notes (body text)')).toBe('allowed');
  });

  afterAll(async () => {
    await fixture?.close();
    await scratch?.drop();
    if (roles) await dropServiceRoles(process.env.DATABASE_URL!, roles);
  });

  it('migrates as the owner and then reads and writes as the runtime role', async () => {
    await fixture.db.execute(sql`insert into fixture.notes (body) values ('written at run time')`);
    const rows = await fixture.db.execute(sql`select count(*)::int as n from fixture.notes`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    // Migrating again (a replica starting) changes nothing and keeps the grants.
    await fixture.migrate({ migrationsFolder, schema: 'fixture' });
  });

  it('runs without superuser, DDL, the migrations journal, or any other schema', async () => {
    const url = roles.fixture!.runtime.url;
    const superuser = new pg.Client({ connectionString: url });
    await superuser.connect();
    expect((await superuser.query('select rolsuper, rolcreaterole, rolcreatedb from pg_roles where rolname = current_user')).rows[0]).toEqual({ rolsuper: false, rolcreaterole: false, rolcreatedb: false });
    await superuser.end();
    expect(await attempt(url, 'create table fixture.mine (id int)')).toBe('42501');
    expect(await attempt(url, 'drop table fixture.notes')).toBe('42501');
    expect(await attempt(url, 'create schema mine')).toBe('42501');
    expect(await attempt(url, 'create table public.mine (id int)')).toBe('42501');
    expect(await attempt(url, 'delete from fixture.__drizzle_migrations')).toBe('42501');
    expect(await attempt(url, 'select * from other.notes')).toBe('42501');
    expect(await attempt(url, 'select rolpassword from pg_authid')).toBe('42501');
  });
});
