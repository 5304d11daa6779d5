import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { refreshSessions, tenants, users } from '../db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type TenantRow = typeof tenants.$inferSelect;
export type UserWithTenant = UserRow & { tenant: TenantRow };

const withTenant = { user: users, tenant: tenants };

function flatten(row: { user: UserRow; tenant: TenantRow } | undefined): UserWithTenant | undefined {
  return row ? { ...row.user, tenant: row.tenant } : undefined;
}

export class UserRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UserWithTenant | undefined> {
    const [row] = await this.db.select(withTenant).from(users).innerJoin(tenants, eq(users.personalTenantId, tenants.id)).where(eq(users.email, email));
    return flatten(row);
  }

  /** Holds the user's row until the transaction ends: what a per-user count-then-add waits on. */
  async lock(id: string): Promise<void> {
    await this.db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
  }

  async findById(id: string): Promise<UserWithTenant | undefined> {
    const [row] = await this.db.select(withTenant).from(users).innerJoin(tenants, eq(users.personalTenantId, tenants.id)).where(eq(users.id, id));
    return flatten(row);
  }

  /** The user whose refresh-session family `familyId` is still live. */
  async findBySessionFamily(familyId: string): Promise<UserWithTenant | undefined> {
    const [row] = await this.db
      .select(withTenant)
      .from(refreshSessions)
      .innerJoin(users, eq(refreshSessions.userId, users.id))
      .innerJoin(tenants, eq(users.personalTenantId, tenants.id))
      .where(and(eq(refreshSessions.familyId, familyId), isNull(refreshSessions.revokedAt), sql`${refreshSessions.expiresAt} > now()`))
      .limit(1);
    return flatten(row);
  }

  async slugExists(slug: string): Promise<boolean> {
    const [row] = await this.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug));
    return row !== undefined;
  }

  async create(input: {
    email: string;
    passwordHash: string;
    slug: string;
    name: string;
    tier: UserRow['subscriptionTier'];
    role?: UserRow['role'];
  }): Promise<UserWithTenant> {
    const [tenant] = await this.db.insert(tenants).values({ slug: input.slug, kind: 'personal', name: input.name || input.slug }).returning();
    const [user] = await this.db
      .insert(users)
      .values({
        email: input.email,
        passwordHash: input.passwordHash,
        name: input.name,
        subscriptionTier: input.tier,
        role: input.role ?? 'member',
        personalTenantId: tenant!.id,
      })
      .returning();
    return { ...user!, tenant: tenant! };
  }

  async update(id: string, changes: Partial<Pick<UserRow, 'name' | 'passwordHash' | 'role' | 'subscriptionTier' | 'developerMode'>>): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  }
}
