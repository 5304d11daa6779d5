import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { invites } from '../db/schema.js';

export type InviteRow = typeof invites.$inferSelect;

export class InviteRepository {
  constructor(private readonly db: Db) {}

  async create(input: { organizationId: string; email: string; role: InviteRow['role']; invitedBy: string; expiresAt: Date }): Promise<InviteRow> {
    const [row] = await this.db.insert(invites).values(input).returning();
    return row!;
  }

  /** Takes an invite that is unused, unexpired and addressed to `email`; undefined otherwise. */
  async accept(id: string, email: string, userId: string): Promise<InviteRow | undefined> {
    const [row] = await this.db
      .update(invites)
      .set({ acceptedAt: new Date(), acceptedBy: userId })
      .where(and(eq(invites.id, id), eq(invites.email, email), isNull(invites.acceptedAt), sql`${invites.expiresAt} > now()`))
      .returning();
    return row;
  }
}
