import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { MigrateOptions } from './database.js';
import { migratorConfig } from './migrator-config.js';
import { initdbInOwnProcess } from './pglite-init.js';

let freshCluster: (() => Promise<Blob>) | undefined;

/**
 * Makes every in-memory database this process opens from now on start from `dumpFile` (written by
 * `writeFreshClusterDump`) instead of running initdb: loading the dump costs a process about
 * 0.6 s of CPU where initdb costs 3 s, and 325 MB of memory where initdb leaves 600. The file is
 * read once, when the first such database opens. Databases under a data directory are unaffected.
 */
export function startMemoryDatabasesFrom(dumpFile: string): void {
  let dump: Promise<Blob> | undefined;
  freshCluster = () => (dump ??= readFile(dumpFile).then((bytes) => new Blob([bytes])));
}

/** The dump an in-memory database loads, when `startMemoryDatabasesFrom` named one. */
export function freshClusterDump(): Promise<Blob> | undefined {
  return freshCluster?.();
}

/**
 * Writes a fresh embedded cluster, as initdb leaves it, to `dumpFile` (a tar of its data
 * directory), with `migrations` applied as `Database.migrate` applies them (the same journal):
 * a database that loads it and migrates one of those schemas finds nothing to do.
 */
export function writeFreshClusterDump(dumpFile: string, migrations: MigrateOptions[] = []): Promise<void> {
  const resolve = createRequire(import.meta.url).resolve;
  return initdbInOwnProcess(
    'memory://',
    `const { drizzle } = require(${JSON.stringify(resolve('drizzle-orm/pglite'))});
     const { migrate } = require(${JSON.stringify(resolve('drizzle-orm/pglite/migrator'))});
     for (const config of ${JSON.stringify(migrations.map(migratorConfig))}) await migrate(drizzle({ client: db }), config);
     const dump = await db.dumpDataDir('none');
     require('node:fs').writeFileSync(${JSON.stringify(dumpFile)}, Buffer.from(await dump.arrayBuffer()));`,
  );
}
