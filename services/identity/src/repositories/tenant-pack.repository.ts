import { eq } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { tenantPacks } from '../db/schema.js';

/** The read model of installed packs per tenant, kept from the registry's events. */
export class TenantPackRepository {
  constructor(private readonly db: Db) {}

  async record(packId: string, tenantId: string): Promise<void> {
    await this.db.insert(tenantPacks).values({ packId, tenantId }).onConflictDoUpdate({ target: tenantPacks.packId, set: { tenantId } });
  }

  async forget(packId: string): Promise<void> {
    await this.db.delete(tenantPacks).where(eq(tenantPacks.packId, packId));
  }
}
