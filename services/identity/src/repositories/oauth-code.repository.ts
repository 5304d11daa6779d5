import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { oauthCodes } from '../db/schema.js';

export type OAuthCodeRow = typeof oauthCodes.$inferSelect;

export class OAuthCodeRepository {
  constructor(private readonly db: Db) {}

  async insert(input: Omit<typeof oauthCodes.$inferInsert, 'usedAt' | 'grantId' | 'createdAt'>): Promise<void> {
    await this.db.insert(oauthCodes).values(input);
  }

  async find(codeHash: string): Promise<OAuthCodeRow | undefined> {
    const [row] = await this.db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash));
    return row;
  }

  /** Marks a code used; false when somebody used it first (a concurrent exchange). */
  async markUsed(codeHash: string): Promise<boolean> {
    const rows = await this.db
      .update(oauthCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt)))
      .returning({ codeHash: oauthCodes.codeHash });
    return rows.length === 1;
  }

  async linkGrant(codeHash: string, grantId: string): Promise<void> {
    await this.db.update(oauthCodes).set({ grantId }).where(eq(oauthCodes.codeHash, codeHash));
  }
}
