import { sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { billingTiers } from '../db/schema.js';

export class BillingTierRepository {
  constructor(private readonly db: Db) {}

  /**
   * Notes `occurredAt` as the user's latest billing change; false (nothing written) when a
   * later one was applied already.
   */
  async advance(userId: string, occurredAt: Date): Promise<boolean> {
    const rows = await this.db
      .insert(billingTiers)
      .values({ userId, occurredAt })
      .onConflictDoUpdate({ target: billingTiers.userId, set: { occurredAt }, setWhere: sql`${billingTiers.occurredAt} <= ${occurredAt.toISOString()}` })
      .returning({ userId: billingTiers.userId });
    return rows.length === 1;
  }
}
