import { and, eq } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { packs, packVersions } from '../db/schema.js';

export type PackRow = typeof packs.$inferSelect;
export type PackVersionRow = typeof packVersions.$inferSelect;

/** A pack with its active version, if it has one. */
export interface PackWithActive {
  pack: PackRow;
  active: PackVersionRow | null;
}

export class PackRepository {
  constructor(private readonly db: Db) {}

  /** The pack `@namespace/name`, created for `ownerTenantId` on its first version. */
  async findOrCreate(namespace: string, name: string, ownerTenantId: string): Promise<PackRow> {
    await this.db.insert(packs).values({ namespace, name, ownerTenantId }).onConflictDoNothing();
    const [row] = await this.db.select().from(packs).where(and(eq(packs.namespace, namespace), eq(packs.name, name)));
    return row!;
  }

  async findByName(namespace: string, name: string): Promise<PackWithActive | undefined> {
    const [row] = await this.db
      .select({ pack: packs, active: packVersions })
      .from(packs)
      .leftJoin(packVersions, eq(packVersions.id, packs.activeVersionId))
      .where(and(eq(packs.namespace, namespace), eq(packs.name, name)));
    return row;
  }

  async findById(id: string): Promise<PackWithActive | undefined> {
    const [row] = await this.db
      .select({ pack: packs, active: packVersions })
      .from(packs)
      .leftJoin(packVersions, eq(packVersions.id, packs.activeVersionId))
      .where(eq(packs.id, id));
    return row;
  }

  async setActiveVersion(packId: string, versionId: string, userId: string): Promise<void> {
    await this.db.update(packs).set({ activeVersionId: versionId, installedAt: new Date(), installedBy: userId }).where(eq(packs.id, packId));
  }

  /** Deletes the pack; its versions, commands and grants go with it (foreign-key cascade). */
  async delete(id: string): Promise<boolean> {
    const deleted = await this.db.delete(packs).where(eq(packs.id, id)).returning({ id: packs.id });
    return deleted.length > 0;
  }
}
