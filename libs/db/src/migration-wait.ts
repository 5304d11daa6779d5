import { setTimeout as sleep } from 'node:timers/promises';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { ServiceUnavailableError } from '@svc/core';

export interface MigrationWaitOptions {
  migrationsFolder: string;
  schema: string;
  /** The `created_at` of the newest migration in the schema's journal; undefined when there is none (or no journal). */
  latestApplied: () => Promise<number | undefined>;
  /** How long to wait for the migrations to be applied elsewhere. */
  timeoutMs: number;
  /** Between two looks at the journal. Default 1 s. */
  intervalMs?: number;
  /** Told once, while the process waits. */
  onWait?: (pending: number) => void;
}

/** How many of the folder's migrations are newer than the journal's newest: drizzle's own rule for what it would apply. */
export function pendingMigrations(migrationsFolder: string, latest: number | undefined): number {
  return readMigrationFiles({ migrationsFolder }).filter((migration) => latest === undefined || migration.folderMillis > latest).length;
}

/**
 * Waits until another process (the release's migration Job) has applied every migration of the
 * folder, so that a replica started beside that Job never serves on an older schema; rejects
 * with the count still pending once `timeoutMs` has passed.
 */
export async function awaitMigrations({ migrationsFolder, schema, latestApplied, timeoutMs, intervalMs = 1000, onWait }: MigrationWaitOptions): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let told = false;
  for (;;) {
    const pending = pendingMigrations(migrationsFolder, await latestApplied());
    if (pending === 0) return;
    if (Date.now() >= deadline) {
      throw new ServiceUnavailableError(`${pending} migration(s) of schema ${schema} are not applied and this process does not apply them (SVC_MIGRATE_AT_START=false): run the migration command (deploy/migrate) for this release`, {
        schema,
        pending,
      });
    }
    if (!told) onWait?.(pending);
    told = true;
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}
