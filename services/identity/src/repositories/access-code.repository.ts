import { and, desc, eq, gt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { accessCodes } from '../db/schema.js';

/** A code as presented: its literal and the keyed digest of it (`codeDigest`). */
export interface PresentedCode {
  literal: string;
  digest: string;
}

/** Codes kept as a literal and codes kept only as a digest are both found. */
const matches = (code: PresentedCode) => or(eq(accessCodes.code, code.literal), eq(accessCodes.codeDigest, code.digest));

export type AccessCodeRow = typeof accessCodes.$inferSelect;
export type NewAccessCode = typeof accessCodes.$inferInsert;

export class AccessCodeRepository {
  constructor(private readonly db: Db) {}

  async insertMany(rows: NewAccessCode[]): Promise<AccessCodeRow[]> {
    return this.db.insert(accessCodes).values(rows).onConflictDoNothing().returning();
  }

  async findByMintKey(key: string): Promise<AccessCodeRow | undefined> {
    const [row] = await this.db.select().from(accessCodes).where(eq(accessCodes.mintKey, key));
    return row;
  }

  async findByCode(code: PresentedCode): Promise<AccessCodeRow | undefined> {
    const [row] = await this.db.select().from(accessCodes).where(matches(code));
    return row;
  }

  /** Takes one use of a live code atomically; undefined when the code cannot be used. */
  async redeem(code: PresentedCode, userId: string): Promise<AccessCodeRow | undefined> {
    const [row] = await this.db
      .update(accessCodes)
      .set({ useCount: sql`${accessCodes.useCount} + 1`, redeemedBy: userId, redeemedAt: new Date() })
      .where(sql`(${matches(code)}) and ${accessCodes.isActive} and ${accessCodes.useCount} < ${accessCodes.maxUses} and (${accessCodes.expiresAt} is null or ${accessCodes.expiresAt} > now())`)
      .returning();
    return row;
  }

  async list(): Promise<AccessCodeRow[]> {
    return this.db.select().from(accessCodes).orderBy(desc(accessCodes.createdAt));
  }

  /** A page of codes, newest first, for the admin area: filtered, after a sort key or skipping rows. */
  async page(filters: { kind?: AccessCodeRow['kind']; redeemed?: boolean; cohort?: string; after?: { createdAt: Date; id: string } }, offset: number, limit: number): Promise<AccessCodeRow[]> {
    const where: SQL[] = [];
    if (filters.kind) where.push(eq(accessCodes.kind, filters.kind));
    if (filters.redeemed !== undefined) where.push(filters.redeemed ? gt(accessCodes.useCount, 0) : eq(accessCodes.useCount, 0));
    if (filters.cohort) where.push(eq(accessCodes.cohort, filters.cohort));
    // Ordered by the millisecond a page's sort key can carry, so that no row falls between pages.
    const createdMs = sql<Date>`date_trunc('milliseconds', ${accessCodes.createdAt})`;
    const after = filters.after;
    if (after) where.push(sql`(${createdMs}, ${accessCodes.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`);
    return this.db
      .select()
      .from(accessCodes)
      .where(and(...where))
      .orderBy(desc(createdMs), desc(accessCodes.id))
      .limit(limit)
      .offset(offset);
  }

  async deactivate(id: string): Promise<AccessCodeRow | undefined> {
    const [row] = await this.db.update(accessCodes).set({ isActive: false }).where(eq(accessCodes.id, id)).returning();
    return row;
  }
}
