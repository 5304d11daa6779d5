import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { refreshSessions } from '../db/schema.js';

export type SessionRow = typeof refreshSessions.$inferSelect;

export class SessionRepository {
  constructor(private readonly db: Db) {}

  async insert(input: { familyId: string; userId: string; tokenHash: string; expiresAt: Date }): Promise<SessionRow> {
    const [row] = await this.db.insert(refreshSessions).values(input).returning();
    return row!;
  }

  async findByTokenHash(tokenHash: string): Promise<SessionRow | undefined> {
    const [row] = await this.db.select().from(refreshSessions).where(eq(refreshSessions.tokenHash, tokenHash));
    return row;
  }

  /** Marks a token used; false when somebody used it first (a concurrent reuse). */
  async markUsed(id: string): Promise<boolean> {
    const rows = await this.db
      .update(refreshSessions)
      .set({ usedAt: new Date() })
      .where(and(eq(refreshSessions.id, id), isNull(refreshSessions.usedAt)))
      .returning({ id: refreshSessions.id });
    return rows.length === 1;
  }

  /** Revokes a family; returns it when it had live tokens. */
  async revokeFamily(familyId: string): Promise<void> {
    await this.db
      .update(refreshSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshSessions.familyId, familyId), isNull(refreshSessions.revokedAt)));
  }

  /** Revokes every live family of a user and returns their ids. */
  async revokeAllOfUser(userId: string): Promise<string[]> {
    const rows = await this.db
      .update(refreshSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshSessions.userId, userId), isNull(refreshSessions.revokedAt)))
      .returning({ familyId: refreshSessions.familyId });
    return [...new Set(rows.map((r) => r.familyId))];
  }

  async liveFamiliesOfUser(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ familyId: refreshSessions.familyId })
      .from(refreshSessions)
      .where(and(eq(refreshSessions.userId, userId), isNull(refreshSessions.revokedAt), sql`${refreshSessions.expiresAt} > now()`));
    return rows.map((r) => r.familyId);
  }
}
