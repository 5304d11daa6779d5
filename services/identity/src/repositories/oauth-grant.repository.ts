import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { oauthGrants, oauthRefreshTokens, tenants } from '../db/schema.js';

export type OAuthGrantRow = typeof oauthGrants.$inferSelect;
export type OAuthRefreshTokenRow = typeof oauthRefreshTokens.$inferSelect;
export type OAuthGrantWithTenant = OAuthGrantRow & { tenantSlug: string };

export class OAuthGrantRepository {
  constructor(private readonly db: Db) {}

  async insert(input: Pick<OAuthGrantRow, 'userId' | 'tenantId' | 'clientId' | 'clientName' | 'redirectUri' | 'scopes' | 'resource'>): Promise<OAuthGrantRow> {
    const [row] = await this.db.insert(oauthGrants).values(input).returning();
    return row!;
  }

  async find(id: string): Promise<OAuthGrantRow | undefined> {
    const [row] = await this.db.select().from(oauthGrants).where(eq(oauthGrants.id, id));
    return row;
  }

  async findLive(id: string): Promise<OAuthGrantRow | undefined> {
    const [row] = await this.db
      .select()
      .from(oauthGrants)
      .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt)));
    return row;
  }

  /** The user's authorizations still in force, newest first, with the slug of the tenant each is for. */
  async liveOf(userId: string): Promise<OAuthGrantWithTenant[]> {
    const rows = await this.db
      .select({ grant: oauthGrants, tenantSlug: tenants.slug })
      .from(oauthGrants)
      .innerJoin(tenants, eq(tenants.id, oauthGrants.tenantId))
      .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
      .orderBy(desc(oauthGrants.createdAt));
    return rows.map((r) => ({ ...r.grant, tenantSlug: r.tenantSlug }));
  }

  async liveIdsOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: oauthGrants.id })
      .from(oauthGrants)
      .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)));
    return rows.map((r) => r.id);
  }

  /** Revokes a grant; the revoked row, or undefined when it was revoked already. */
  async revoke(id: string): Promise<OAuthGrantRow | undefined> {
    const [row] = await this.db
      .update(oauthGrants)
      .set({ revokedAt: new Date() })
      .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt)))
      .returning();
    return row;
  }

  async touch(id: string): Promise<void> {
    await this.db.update(oauthGrants).set({ lastUsedAt: new Date() }).where(eq(oauthGrants.id, id));
  }

  async insertRefreshToken(input: { grantId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(oauthRefreshTokens).values(input);
  }

  async findRefreshToken(tokenHash: string): Promise<OAuthRefreshTokenRow | undefined> {
    const [row] = await this.db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.tokenHash, tokenHash));
    return row;
  }

  /** Marks a refresh token used; false when somebody used it first (a concurrent reuse). */
  async markRefreshTokenUsed(id: string): Promise<boolean> {
    const rows = await this.db
      .update(oauthRefreshTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(oauthRefreshTokens.id, id), isNull(oauthRefreshTokens.usedAt)))
      .returning({ id: oauthRefreshTokens.id });
    return rows.length === 1;
  }
}
