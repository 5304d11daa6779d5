import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { grants } from '../db/schema.js';

export class GrantRepository {
  constructor(private readonly db: Db) {}

  /** Grants `tenantId` access to the pack; granting twice keeps the first grant. */
  async grant(packId: string, tenantId: string, grantedBy: string) {
    await this.db.insert(grants).values({ packId, granteeTenantId: tenantId, grantedBy }).onConflictDoNothing();
    const [row] = await this.db.select().from(grants).where(and(eq(grants.packId, packId), eq(grants.granteeTenantId, tenantId)));
    return row!;
  }

  async revoke(packId: string, tenantId: string): Promise<boolean> {
    const deleted = await this.db
      .delete(grants)
      .where(and(eq(grants.packId, packId), eq(grants.granteeTenantId, tenantId)))
      .returning({ packId: grants.packId });
    return deleted.length > 0;
  }

  async anyOf(packId: string, tenantIds: string[]): Promise<boolean> {
    const [row] = await this.db
      .select({ packId: grants.packId })
      .from(grants)
      .where(and(eq(grants.packId, packId), inArray(grants.granteeTenantId, tenantIds)))
      .limit(1);
    return row !== undefined;
  }
}
