import type { EventOutbox, OutboxWriter } from '@svc/bus';
import { storageValueBytes, type StorageEntry, type StorageListResult, type StorageWriteResult } from '@svc/contracts';
import type { Db } from '@svc/db';
import { entryReadsFor } from '../repositories/entry.statements.js';
import { StorageRepository, type EntryRow, type UsageRow } from '../repositories/storage.repository.js';

/** Most tenants one sweep pass visits, and most passes of one sweep; the next sweep goes on. */
const SWEEP_TENANTS_PER_PASS = 100;
const SWEEP_MAX_PASSES = 50;

export type Clock = () => Date;

function isLive(row: EntryRow, now: Date): boolean {
  return row.expiresAt === null || row.expiresAt > now;
}

function entryView(row: EntryRow): StorageEntry {
  return { key: row.key, value: row.value, created_at: row.createdAt.toISOString(), expires_at: row.expiresAt?.toISOString() ?? null };
}

/**
 * Per-tenant key-value storage with expiry. Every change also updates the tenant's usage
 * totals in the same transaction, and writes them there as `storage.changed` (published once
 * it commits, through the outbox). An expired
 * entry is invisible at once and removed by `sweepExpired` (its usage counts until then).
 */
export class StorageService {
  constructor(
    private readonly db: Db,
    private readonly events: EventOutbox,
    private readonly clock: Clock = () => new Date(),
  ) {}

  async get(tenantId: string, key: string): Promise<StorageEntry | null> {
    const row = await entryReadsFor(this.db).find({ tenantId, key });
    return row && isLive(row, this.clock()) ? entryView(row) : null;
  }

  /** Creates or replaces the entry; a replaced live entry keeps its `created_at`. */
  async put(tenantId: string, key: string, data: Record<string, unknown>, ttlSeconds?: number | null): Promise<StorageWriteResult> {
    const now = this.clock();
    const expiresAt = ttlSeconds ? new Date(now.getTime() + ttlSeconds * 1000) : null;
    const sizeBytes = Buffer.byteLength(key) + storageValueBytes(data);
    const created = await this.events.transaction(async (tx, out) => {
      const repo = new StorageRepository(tx);
      await repo.lockTenant(tenantId);
      const existing = await repo.find(tenantId, key);
      const replacing = existing !== undefined && isLive(existing, now);
      await repo.write({ tenantId, key, value: data, sizeBytes, createdAt: replacing ? existing.createdAt : now, updatedAt: now, expiresAt });
      announceUsage(out, await repo.addUsage(tenantId, sizeBytes - (existing?.sizeBytes ?? 0), existing ? 0 : 1));
      return !replacing;
    });
    return { key, created, expires_at: expiresAt?.toISOString() ?? null };
  }

  /** False when the tenant has no live entry under `key`. */
  async delete(tenantId: string, key: string): Promise<boolean> {
    const now = this.clock();
    return this.events.transaction(async (tx, out) => {
      const repo = new StorageRepository(tx);
      await repo.lockTenant(tenantId);
      const removed = await repo.delete(tenantId, key);
      if (!removed) return false;
      announceUsage(out, await repo.addUsage(tenantId, -removed.sizeBytes, -1));
      return isLive(removed, now);
    });
  }

  async list(tenantId: string, options: { prefix: string; limit: number; after?: string }): Promise<StorageListResult> {
    const now = this.clock();
    const repo = new StorageRepository(this.db);
    const [keys, total] = await Promise.all([repo.listKeys(tenantId, options, now), repo.countKeys(tenantId, options.prefix, now)]);
    return { keys, total };
  }

  /** Removes every expired entry and publishes the usage of each tenant it touched; answers how many. */
  async sweepExpired(): Promise<number> {
    let removed = 0;
    for (let pass = 0; pass < SWEEP_MAX_PASSES; pass += 1) {
      const now = this.clock();
      const tenants = await new StorageRepository(this.db).tenantsWithExpired(now, SWEEP_TENANTS_PER_PASS);
      for (const tenantId of tenants) removed += await this.sweepTenant(tenantId, now);
      if (tenants.length < SWEEP_TENANTS_PER_PASS) break;
    }
    return removed;
  }

  private async sweepTenant(tenantId: string, now: Date): Promise<number> {
    return this.events.transaction(async (tx, out) => {
      const repo = new StorageRepository(tx);
      await repo.lockTenant(tenantId);
      const sizes = await repo.deleteExpired(tenantId, now);
      if (sizes.length === 0) return 0;
      const bytes = sizes.reduce((sum, size) => sum + size, 0);
      announceUsage(out, await repo.addUsage(tenantId, -bytes, -sizes.length));
      return sizes.length;
    });
  }
}

function announceUsage(out: OutboxWriter, row: UsageRow): void {
  out.publish('storage.changed', { tenant_id: row.tenantId, storage_bytes: row.storageBytes, storage_keys: row.storageKeys, version: row.version });
}
