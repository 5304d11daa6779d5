import { sql } from 'drizzle-orm';
import { outboxTable } from '@svc/db';
import { bigint, customType, index, integer, json, pgSchema, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';

export const storage = pgSchema('storage');

/** `storage.changed` events, written with the change they count (see `@svc/db`, "The outbox"). */
export const outbox = outboxTable(storage);

/** Byte-order collation: listing, prefixes and `after` paging behave the same on every server. */
const byteOrderText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One row per key of a tenant. `value` is kept as the JSON text written (`json`, not `jsonb`),
 * so an object comes back with its keys in the order they were sent. `size_bytes` is the
 * key's and the value's UTF-8 length, what usage counts.
 */
export const entries = storage.table(
  'entries',
  {
    tenantId: uuid('tenant_id').notNull(),
    key: byteOrderText('key').notNull(),
    value: json('value').notNull().$type<Record<string, unknown>>(),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    expiresAt: timestamptz('expires_at'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] }), index('entries_expires_at_idx').on(t.expiresAt).where(sql`${t.expiresAt} is not null`)],
);

/**
 * Each tenant's totals, changed in the same transaction as its entries. Writes of one tenant
 * lock its row first, so they apply one at a time and the totals stay exact; `version` counts
 * the changes and orders the `storage.changed` events.
 */
export const usage = storage.table('usage', {
  tenantId: uuid('tenant_id').primaryKey(),
  storageBytes: bigint('storage_bytes', { mode: 'number' }).notNull().default(0),
  storageKeys: integer('storage_keys').notNull().default(0),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
