import { and, asc, count, eq, gt, isNotNull, lte, or, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { entries, usage } from '../db/schema.js';

export type EntryRow = typeof entries.$inferSelect;
export type NewEntry = typeof entries.$inferInsert;
export type UsageRow = typeof usage.$inferSelect;

const live = (now: Date): SQL => or(isNull(entries.expiresAt), gt(entries.expiresAt, now))!;
const ofKey = (tenantId: string, key: string): SQL => and(eq(entries.tenantId, tenantId), eq(entries.key, key))!;

export class StorageRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes the lock on the tenant's usage row (creating it) until the transaction ends: every
   * write of one tenant goes through here first, so they apply one at a time.
   */
  async lockTenant(tenantId: string): Promise<void> {
    await this.db
      .insert(usage)
      .values({ tenantId })
      .onConflictDoUpdate({ target: usage.tenantId, set: { tenantId: sql`excluded.tenant_id` } });
  }

  /** The entry as stored, expired or not. */
  async find(tenantId: string, key: string): Promise<EntryRow | undefined> {
    const [row] = await this.db.select().from(entries).where(ofKey(tenantId, key));
    return row;
  }

  async write(entry: NewEntry): Promise<EntryRow> {
    const { tenantId: _tenant, key: _key, ...changes } = entry;
    const [row] = await this.db.insert(entries).values(entry).onConflictDoUpdate({ target: [entries.tenantId, entries.key], set: changes }).returning();
    return row!;
  }

  async delete(tenantId: string, key: string): Promise<EntryRow | undefined> {
    const [row] = await this.db.delete(entries).where(ofKey(tenantId, key)).returning();
    return row;
  }

  /** Live keys starting with `prefix`, in byte order, after `after` when given. */
  async listKeys(tenantId: string, options: { prefix: string; after?: string; limit: number }, now: Date): Promise<string[]> {
    const rows = await this.db
      .select({ key: entries.key })
      .from(entries)
      .where(and(eq(entries.tenantId, tenantId), startsWith(options.prefix), options.after === undefined ? undefined : gt(entries.key, options.after), live(now)))
      .orderBy(asc(entries.key))
      .limit(options.limit);
    return rows.map((r) => r.key);
  }

  async countKeys(tenantId: string, prefix: string, now: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(entries)
      .where(and(eq(entries.tenantId, tenantId), startsWith(prefix), live(now)));
    return Number(row?.n ?? 0);
  }

  /** Tenants that have entries past their expiry, at most `limit` of them. */
  async tenantsWithExpired(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ tenantId: entries.tenantId })
      .from(entries)
      .where(and(isNotNull(entries.expiresAt), lte(entries.expiresAt, now)))
      .limit(limit);
    return rows.map((r) => r.tenantId);
  }

  /** Deletes the tenant's expired entries and answers their sizes. */
  async deleteExpired(tenantId: string, now: Date): Promise<number[]> {
    const rows = await this.db
      .delete(entries)
      .where(and(eq(entries.tenantId, tenantId), isNotNull(entries.expiresAt), lte(entries.expiresAt, now)))
      .returning({ sizeBytes: entries.sizeBytes });
    return rows.map((r) => r.sizeBytes);
  }

  /** Adds to the tenant's totals and counts one more change; the tenant must be locked. */
  async addUsage(tenantId: string, bytes: number, keys: number): Promise<UsageRow> {
    const [row] = await this.db
      .update(usage)
      .set({
        storageBytes: sql`${usage.storageBytes} + ${bytes}`,
        storageKeys: sql`${usage.storageKeys} + ${keys}`,
        version: sql`${usage.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(usage.tenantId, tenantId))
      .returning();
    return row!;
  }

  async usageOf(tenantId: string): Promise<UsageRow | undefined> {
    const [row] = await this.db.select().from(usage).where(eq(usage.tenantId, tenantId));
    return row;
  }
}

function startsWith(prefix: string): SQL | undefined {
  return prefix === '' ? undefined : sql`starts_with(${entries.key}, ${prefix})`;
}
