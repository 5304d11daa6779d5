import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { accessCodes } from '../db/schema.js';

export type AccessCodeRow = typeof accessCodes.$inferSelect;
export type NewAccessCode = typeof accessCodes.$inferInsert;

export class AccessCodeRepository {
  constructor(private readonly db: Db) {}

  async insertMany(rows: NewAccessCode[]): Promise<AccessCodeRow[]> {
    return this.db.insert(accessCodes).values(rows).onConflictDoNothing({ target: accessCodes.code }).returning();
  }

  async findByCode(code: string): Promise<AccessCodeRow | undefined> {
    const [row] = await this.db.select().from(accessCodes).where(eq(accessCodes.code, code));
    return row;
  }

  /** Takes one use of a live code atomically; undefined when the code cannot be used. */
  async redeem(code: string, userId: string): Promise<AccessCodeRow | undefined> {
    const [row] = await this.db
      .update(accessCodes)
      .set({ useCount: sql`${accessCodes.useCount} + 1`, redeemedBy: userId, redeemedAt: new Date() })
      .where(sql`${accessCodes.code} = ${code} and ${accessCodes.isActive} and ${accessCodes.useCount} < ${accessCodes.maxUses}`)
      .returning();
    return row;
  }

  async list(): Promise<AccessCodeRow[]> {
    return this.db.select().from(accessCodes).orderBy(desc(accessCodes.createdAt));
  }

  async deactivate(id: string): Promise<AccessCodeRow | undefined> {
    const [row] = await this.db.update(accessCodes).set({ isActive: false }).where(eq(accessCodes.id, id)).returning();
    return row;
  }
}
