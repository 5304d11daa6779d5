import { and, asc, count, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { organizationMembers, tenantPacks, tenants, users } from '../db/schema.js';

export type OrganizationRow = typeof tenants.$inferSelect;
export type MemberRole = (typeof organizationMembers.$inferSelect)['role'];

export interface OrganizationMembership {
  organization: OrganizationRow;
  role: MemberRole;
  joinedAt: Date;
}

export class OrganizationRepository {
  constructor(private readonly db: Db) {}

  async create(input: { name: string; slug: string; ownerId: string }): Promise<OrganizationRow> {
    const [org] = await this.db.insert(tenants).values({ slug: input.slug, kind: 'organization', name: input.name }).returning();
    await this.db.insert(organizationMembers).values({ organizationId: org!.id, userId: input.ownerId, role: 'owner' });
    return org!;
  }

  async findById(id: string): Promise<OrganizationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(tenants)
      .where(and(eq(tenants.id, id), eq(tenants.kind, 'organization')));
    return row;
  }

  /** The organizations a user belongs to, the earliest joined first. */
  async membershipsOf(userId: string): Promise<OrganizationMembership[]> {
    const rows = await this.db
      .select({ organization: tenants, role: organizationMembers.role, joinedAt: organizationMembers.joinedAt })
      .from(organizationMembers)
      .innerJoin(tenants, eq(organizationMembers.organizationId, tenants.id))
      .where(eq(organizationMembers.userId, userId))
      .orderBy(asc(organizationMembers.joinedAt), asc(organizationMembers.id));
    return rows;
  }

  async roleOf(organizationId: string, userId: string): Promise<MemberRole | undefined> {
    const [row] = await this.db
      .select({ role: organizationMembers.role })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
    return row?.role;
  }

  /** Adds a member; an existing membership is kept as it is. */
  async addMember(organizationId: string, userId: string, role: MemberRole): Promise<void> {
    await this.db.insert(organizationMembers).values({ organizationId, userId, role }).onConflictDoNothing();
  }

  async removeMember(organizationId: string, userId: string): Promise<void> {
    await this.db.delete(organizationMembers).where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
  }

  async members(organizationId: string) {
    return this.db
      .select({ id: organizationMembers.id, userId: users.id, email: users.email, role: organizationMembers.role, joinedAt: organizationMembers.joinedAt })
      .from(organizationMembers)
      .innerJoin(users, eq(organizationMembers.userId, users.id))
      .where(eq(organizationMembers.organizationId, organizationId))
      .orderBy(asc(organizationMembers.joinedAt), asc(organizationMembers.id));
  }

  async countOwners(organizationId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.role, 'owner')));
    return row?.n ?? 0;
  }

  async countMembers(organizationId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(organizationMembers).where(eq(organizationMembers.organizationId, organizationId));
    return row?.n ?? 0;
  }

  /** The tenants, personal or organization, with one of these ids or slugs. */
  async findTenants(ids: string[], slugs: string[]): Promise<Array<{ id: string; slug: string }>> {
    if (ids.length === 0 && slugs.length === 0) return [];
    return this.db
      .select({ id: tenants.id, slug: tenants.slug })
      .from(tenants)
      .where(or(ids.length > 0 ? inArray(tenants.id, ids) : undefined, slugs.length > 0 ? inArray(tenants.slug, slugs) : undefined));
  }

  async countPacks(tenantId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(tenantPacks).where(eq(tenantPacks.tenantId, tenantId));
    return row?.n ?? 0;
  }
}
