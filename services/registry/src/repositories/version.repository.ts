import { and, eq } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { packVersions } from '../db/schema.js';

export type NewPackVersion = typeof packVersions.$inferInsert;

export class VersionRepository {
  constructor(private readonly db: Db) {}

  async insert(version: NewPackVersion) {
    const [row] = await this.db.insert(packVersions).values(version).returning();
    return row!;
  }

  async find(packId: string, version: string) {
    const [row] = await this.db.select().from(packVersions).where(and(eq(packVersions.packId, packId), eq(packVersions.version, version)));
    return row;
  }

  async findById(id: string) {
    const [row] = await this.db.select().from(packVersions).where(eq(packVersions.id, id));
    return row;
  }

  /** Every version of a pack: what `latest` chooses from, and the package files to remove with it. */
  async listOf(packId: string) {
    return this.db.select({ id: packVersions.id, version: packVersions.version, blobKey: packVersions.blobKey }).from(packVersions).where(eq(packVersions.packId, packId));
  }
}
