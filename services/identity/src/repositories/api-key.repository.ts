import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { apiKeys } from '../db/schema.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  async create(input: { userId: string; name: string; keyPrefix: string; keyHash: string; scopes: string[] }): Promise<ApiKeyRow> {
    const [row] = await this.db.insert(apiKeys).values(input).returning();
    return row!;
  }

  async listOf(userId: string): Promise<ApiKeyRow[]> {
    return this.db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt));
  }

  async findLiveByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
    return row;
  }

  async findOf(userId: string, id: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)));
    return row;
  }

  async revoke(id: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db
      .update(apiKeys)
      .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
      .where(eq(apiKeys.id, id))
      .returning();
    return row;
  }

  async liveHashesOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ keyHash: apiKeys.keyHash })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    return rows.map((r) => r.keyHash);
  }

  /** Moves `last_used_at` forward only: a late batch never moves it back. */
  async touch(uses: { id: string; at: Date }[]): Promise<void> {
    for (const use of uses) {
      await this.db
        .update(apiKeys)
        .set({ lastUsedAt: use.at })
        .where(and(eq(apiKeys.id, use.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, use.at))));
    }
  }
}
