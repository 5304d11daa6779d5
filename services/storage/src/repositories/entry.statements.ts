import { sql } from 'drizzle-orm';
import { perDatabase, statementBatcher, type Db } from '@svc/db';
import { entries } from '../db/schema.js';
import type { EntryRow } from './storage.repository.js';

/** An entry asked for by its tenant and key. */
export interface EntryKey {
  tenantId: string;
  key: string;
}

/**
 * A tenant id is a UUID, without a space: `tenant key` names one entry. Postgres reads a UUID
 * back in lower case whatever case it was asked in, so the name takes that case too.
 */
const nameOf = ({ tenantId, key }: EntryKey) => `${tenantId.toLowerCase()} ${key}`;

/**
 * The read of one entry, the storage's most frequent statement (every `GET /storage/{key}` and a
 * pack's `ctx.storage.get`): prepared once per database, and the reads asked for in one turn of
 * the event loop share it (`statementBatcher`). Expired or not: whether an entry is live is
 * the caller's to say, at its own clock.
 */
function readsOn(db: Db) {
  const find = db
    .select()
    .from(entries)
    .where(sql`(${entries.tenantId}, ${entries.key}) in (select * from unnest(${sql.placeholder('tenants')}::uuid[], ${sql.placeholder('keys')}::text[]))`)
    .prepare('storage_entry_find');
  return {
    find: statementBatcher(async (wanted: EntryKey[]): Promise<(EntryRow | undefined)[]> => {
      const rows = await find.execute({ tenants: wanted.map((w) => w.tenantId), keys: wanted.map((w) => w.key) });
      const byName = new Map(rows.map((row) => [nameOf(row), row]));
      return wanted.map((w) => byName.get(nameOf(w)));
    }, {}),
  };
}

export const entryReadsFor = perDatabase(readsOn);
