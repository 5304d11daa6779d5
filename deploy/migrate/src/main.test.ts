import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
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

/** A port free on this machine now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** A service process as a Deployment of the k8s base starts it, whose log lines the test can wait for. */
function startService(entry: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: APP_ROOT, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const logged = (text: string, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const look = setInterval(() => {
        if (output.includes(text)) {
          clearInterval(look);
          resolve();
        } else if (child.exitCode !== null || Date.now() - started > timeoutMs) {
          clearInterval(look);
          reject(new Error(`no "${text}" from ${entry} (exit ${child.exitCode}):\n${output}`));
        }
      }, 100);
    });
  return { child, logged };
}

const stopped = (child: ChildProcess) => (child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)));

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

  it('exits 1 when the database cannot be reached within its wait', () => {
    const started = Date.now();
    expect(migrate(['storage'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'error', SVC_DATABASE_WAIT_SECONDS: '2' }).status).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
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

  it('lets a service started with SVC_MIGRATE_AT_START=false wait for it, then serve on the migrated schema', async () => {
    const database = await createScratchDatabase(process.env.DATABASE_URL!, 'migratewait');
    const port = await freePort();
    const service = startService('services/storage/src/main.ts', {
      DATABASE_URL: database.url,
      SVC_MIGRATE_AT_START: 'false',
      SVC_MIGRATION_WAIT_SECONDS: '120',
      SVC_INTERNAL_SECRET: 'a-test-internal-secret-of-32-characters',
      PORT: String(port),
    });
    try {
      await service.logged('waiting for the migration command');
      // It applied nothing and does not serve yet.
      await expect(journalRows(database.url, 'storage')).rejects.toMatchObject({ code: '42P01' });
      await expect(fetch(`http://127.0.0.1:${port}/readyz`)).rejects.toThrow();

      const migrated = migrate(['storage'], { DATABASE_URL: database.url });
      expect(migrated.status, migrated.stderr).toBe(0);
      await service.logged('storage listening');
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      service.child.kill('SIGTERM');
      await stopped(service.child);
      await database.drop();
    }
  }, 180_000);
});
