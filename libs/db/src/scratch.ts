import { randomBytes } from 'node:crypto';

/**
 * Creates a database with a unique name on the server of `adminUrl` and returns its URL and
 * a `drop()` that removes it: how tests and CI get a fresh database per run.
 *
 * @example
 *   const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
 *   // … run against scratch.url …
 *   await scratch.drop();
 */
export async function createScratchDatabase(adminUrl: string, label = 'test'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  // node-postgres is loaded by the first call, not by every process that bundles @svc/db.
  const { default: pg } = await import('pg');
  const name = `svc_${label}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
