import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Postgres's default 128 MB of shared buffers would all be resident in PGlite's WebAssembly
 * memory; one process's embedded data needs far less.
 */
export const PGLITE_CONF = ['shared_buffers=16MB'];

const run = promisify(execFile);

/**
 * Runs initdb in a short-lived Node process: PGlite's initdb grows its WebAssembly memory by about
 * 550 MB, which a process never gets back (WebAssembly memory does not shrink). `afterInit` is
 * the body of an async function given the ready database as `db` (closed afterwards).
 */
export async function initdbInOwnProcess(dataDir: string, afterInit = ''): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `
    const { PGlite } = require(${JSON.stringify(pglite)});
    (async () => {
      const db = new PGlite(${JSON.stringify(dataDir)}, { postgresqlconf: ${JSON.stringify(PGLITE_CONF)} });
      await db.waitReady;
      ${afterInit}
      await db.close();
    })().catch((err) => { console.error(err); process.exit(1); });
  `;
  await run(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '' } });
}

/**
 * Creates an embedded database in `dataDir` when there is none yet, in a process of its own
 * (`initdbInOwnProcess`). Opening the created database afterwards costs what any later start does.
 */
export async function initPgliteDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  await initdbInOwnProcess(dataDir);
}
