import { and, asc, count, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { commands, installations, packs, packVersions } from '../db/schema.js';
import { visibleTo } from './visibility.js';

export type InstallationRow = typeof installations.$inferSelect;

/** The version an installation runs: the pinned one, else the pack's active one. */
export const installedVersionId = sql`coalesce(${installations.pinnedVersionId}, ${packs.activeVersionId})`;

export class InstallationRepository {
  constructor(private readonly db: Db) {}

  async find(tenantId: string, packId: string): Promise<InstallationRow | undefined> {
    const [row] = await this.db.select().from(installations).where(and(eq(installations.tenantId, tenantId), eq(installations.packId, packId)));
    return row;
  }

  /** Creates the tenant's installation, or moves it to `pinnedVersionId` (null: follow the active version). */
  async upsert(row: { tenantId: string; packId: string; pinnedVersionId: string | null; installedBy: string }): Promise<void> {
    await this.db
      .insert(installations)
      .values(row)
      .onConflictDoUpdate({
        target: [installations.tenantId, installations.packId],
        set: { pinnedVersionId: row.pinnedVersionId, installedBy: row.installedBy, installedAt: new Date() },
      });
  }

  /** The tenant's installation as it is, or a new one as given. */
  async ensure(row: { tenantId: string; packId: string; pinnedVersionId: string | null; installedBy: string }): Promise<void> {
    await this.db.insert(installations).values(row).onConflictDoNothing();
  }

  async delete(tenantId: string, packId: string): Promise<boolean> {
    const deleted = await this.db
      .delete(installations)
      .where(and(eq(installations.tenantId, tenantId), eq(installations.packId, packId)))
      .returning({ packId: installations.packId });
    return deleted.length > 0;
  }

  /**
   * The installations of `tenantIds`, with the version each runs, its command count, and
   * whether those tenants may still run it (`available`: a grant taken back, a pack made
   * private since, leave an installation that runs nothing).
   */
  async listOf(tenantIds: string[]) {
    return this.db
      .select({
        installation: installations,
        pack: { id: packs.id, namespace: packs.namespace, name: packs.name },
        version: packVersions.version,
        visibility: packVersions.visibility,
        pinned: isNotNull(installations.pinnedVersionId).mapWith(Boolean),
        available: sql<boolean>`${visibleTo(this.db, tenantIds, { byPath: true })}`.mapWith(Boolean),
        commands: count(commands.id),
      })
      .from(installations)
      .innerJoin(packs, eq(packs.id, installations.packId))
      .innerJoin(packVersions, eq(packVersions.id, installedVersionId))
      .leftJoin(commands, eq(commands.packVersionId, packVersions.id))
      .where(inArray(installations.tenantId, tenantIds))
      .groupBy(installations.tenantId, installations.packId, packs.id, packVersions.id)
      .orderBy(asc(packs.namespace), asc(packs.name));
  }

  /** The versions `tenantId` pinned packs of `namespace` to (the pack `pack` only, when named). */
  async pinsIn(tenantId: string, namespace: string, pack?: string): Promise<Array<{ packId: string; versionId: string }>> {
    const rows = await this.db
      .select({ packId: installations.packId, versionId: installations.pinnedVersionId })
      .from(installations)
      .innerJoin(packs, eq(packs.id, installations.packId))
      .where(and(eq(installations.tenantId, tenantId), isNotNull(installations.pinnedVersionId), eq(packs.namespace, namespace), pack === undefined ? undefined : eq(packs.name, pack)));
    return rows.map((row) => ({ packId: row.packId, versionId: row.versionId! }));
  }
}
