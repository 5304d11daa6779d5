import { and, asc, desc, eq, exists, inArray, isNull, gt, or, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { dashboards, files, grants, shares, versions } from '../db/schema.js';

export type DashboardRow = typeof dashboards.$inferSelect;
export type VersionRow = typeof versions.$inferSelect;
export type FileRow = typeof files.$inferSelect;
export type ShareRow = typeof shares.$inferSelect;
export type NewDashboard = typeof dashboards.$inferInsert;
export type NewVersion = typeof versions.$inferInsert;

/** A dashboard with its active version, if it has one. */
export interface DashboardWithActive {
  dashboard: DashboardRow;
  active: VersionRow | null;
}

/** Every table of the service; the only place Drizzle is imported. */
export class DashboardRepository {
  constructor(private readonly db: Db) {}

  async create(row: NewDashboard): Promise<DashboardRow> {
    const [created] = await this.db.insert(dashboards).values(row).returning();
    return created!;
  }

  private withActive() {
    return this.db
      .select({ dashboard: dashboards, active: versions })
      .from(dashboards)
      .leftJoin(versions, and(eq(versions.dashboardId, dashboards.id), eq(versions.isActive, true)));
  }

  async findById(id: string): Promise<DashboardWithActive | undefined> {
    const [row] = await this.withActive().where(eq(dashboards.id, id));
    return row;
  }

  async findBySlug(slug: string): Promise<DashboardWithActive | undefined> {
    const [row] = await this.withActive().where(eq(dashboards.slug, slug));
    return row;
  }

  /**
   * Part 2 rule 2 in SQL: public dashboards, every dashboard of the caller's tenants (unlisted
   * ones too), and organization dashboards granted to one of them. `canSee` states the same rule
   * for one dashboard.
   */
  list(tenantIds: string[]): Promise<DashboardWithActive[]> {
    const granted = exists(this.db.select({ one: sql`1` }).from(grants).where(and(eq(grants.dashboardId, dashboards.id), inArray(grants.tenantId, tenantIds))));
    return this.withActive()
      .where(or(eq(dashboards.visibility, 'public'), inArray(dashboards.ownerTenantId, tenantIds), and(eq(dashboards.visibility, 'organization'), granted)))
      .orderBy(asc(dashboards.scope), asc(dashboards.name));
  }

  async isGranted(dashboardId: string, tenantIds: string[]): Promise<boolean> {
    const [row] = await this.db
      .select({ one: sql`1` })
      .from(grants)
      .where(and(eq(grants.dashboardId, dashboardId), inArray(grants.tenantId, tenantIds)))
      .limit(1);
    return row !== undefined;
  }

  /** Locks the dashboard's row for the rest of the transaction: its uploads and deletion apply one at a time. */
  async lock(id: string): Promise<DashboardRow | undefined> {
    const [row] = await this.db.select().from(dashboards).where(eq(dashboards.id, id)).for('update');
    return row;
  }

  async versionsOf(dashboardId: string): Promise<VersionRow[]> {
    return this.db.select().from(versions).where(eq(versions.dashboardId, dashboardId)).orderBy(desc(versions.createdAt));
  }

  /** Makes `row` the dashboard's only active version, with its files. */
  async addActiveVersion(row: Omit<NewVersion, 'isActive'>, inventory: Array<Omit<FileRow, 'versionId'>>): Promise<VersionRow> {
    await this.db.update(versions).set({ isActive: false }).where(and(eq(versions.dashboardId, row.dashboardId), eq(versions.isActive, true)));
    const [created] = await this.db
      .insert(versions)
      .values({ ...row, isActive: true })
      .returning();
    await this.db.insert(files).values(inventory.map((file) => ({ ...file, versionId: created!.id })));
    return created!;
  }

  /** Every file of the dashboard's version `version`; none when there is no such version. */
  async filesOf(dashboardId: string, version: string): Promise<FileRow[]> {
    return this.db
      .select({ versionId: files.versionId, path: files.path, sizeBytes: files.sizeBytes, sha256: files.sha256 })
      .from(files)
      .innerJoin(versions, eq(versions.id, files.versionId))
      .where(and(eq(versions.dashboardId, dashboardId), eq(versions.version, version)));
  }

  /** Deletes the dashboard (versions, files, grants and share links cascade); answers how many versions went. */
  async delete(id: string): Promise<number> {
    const [counted] = await this.db.select({ n: sql<number>`count(*)::int` }).from(versions).where(eq(versions.dashboardId, id));
    await this.db.delete(dashboards).where(eq(dashboards.id, id));
    return counted?.n ?? 0;
  }

  /** Grants the dashboard to each tenant (already granted ones stay as they are). */
  async grant(dashboardId: string, tenantIds: string[], createdBy: string): Promise<void> {
    await this.db
      .insert(grants)
      .values(tenantIds.map((tenantId) => ({ dashboardId, tenantId, createdBy })))
      .onConflictDoNothing();
  }

  /** Removes the grants of these tenants; answers how many there were. */
  async revoke(dashboardId: string, tenantIds: string[]): Promise<number> {
    const removed = await this.db
      .delete(grants)
      .where(and(eq(grants.dashboardId, dashboardId), inArray(grants.tenantId, tenantIds)))
      .returning({ tenantId: grants.tenantId });
    return removed.length;
  }

  async createShare(row: { dashboardId: string; expiresAt: Date | null; createdBy: string }): Promise<ShareRow> {
    const [created] = await this.db.insert(shares).values(row).returning();
    return created!;
  }

  /** The dashboard's share links that have not expired at `now`, newest first. */
  liveShares(dashboardId: string, now: Date): Promise<ShareRow[]> {
    return this.db
      .select()
      .from(shares)
      .where(and(eq(shares.dashboardId, dashboardId), or(isNull(shares.expiresAt), gt(shares.expiresAt, now))))
      .orderBy(desc(shares.createdAt));
  }

  async findShare(id: string): Promise<ShareRow | undefined> {
    const [row] = await this.db.select().from(shares).where(eq(shares.id, id));
    return row;
  }

  /** False when the dashboard has no such share link. */
  async deleteShare(dashboardId: string, id: string): Promise<boolean> {
    const removed = await this.db
      .delete(shares)
      .where(and(eq(shares.dashboardId, dashboardId), eq(shares.id, id)))
      .returning({ id: shares.id });
    return removed.length > 0;
  }
}
