import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { passwordResets } from '../db/schema.js';

export type PasswordResetRow = typeof passwordResets.$inferSelect;

export class PasswordResetRepository {
  constructor(private readonly db: Db) {}

  async insert(input: { userId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(passwordResets).values(input);
  }

  async findByTokenHash(tokenHash: string): Promise<PasswordResetRow | undefined> {
    const [row] = await this.db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash));
    return row;
  }

  /**
   * Spends every link of the user still outstanding and answers their ids. Two confirmations of
   * one link racing: the second finds it spent (the row lock of the first's update).
   */
  async spendAllOf(userId: string, at: Date): Promise<string[]> {
    const rows = await this.db
      .update(passwordResets)
      .set({ usedAt: at })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    return rows.map((r) => r.id);
  }
}
