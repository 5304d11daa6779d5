import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { targets } from '../db/schema.js';

export type TargetRow = typeof targets.$inferSelect;
export type TargetInsert = typeof targets.$inferInsert;
export type TargetChange = Partial<Omit<TargetInsert, 'id' | 'tenantId' | 'createdAt'>>;

const ofTenant = (tenantId: string, id: string) => and(eq(targets.tenantId, tenantId), eq(targets.id, id));

export class TargetRepository {
  constructor(private readonly db: Db) {}

  async list(tenantId: string): Promise<TargetRow[]> {
    return this.db.select().from(targets).where(eq(targets.tenantId, tenantId)).orderBy(asc(targets.name));
  }

  async find(tenantId: string, id: string): Promise<TargetRow | undefined> {
    const [row] = await this.db.select().from(targets).where(ofTenant(tenantId, id));
    return row;
  }

  async findByName(tenantId: string, name: string): Promise<TargetRow | undefined> {
    const [row] = await this.db.select().from(targets).where(and(eq(targets.tenantId, tenantId), eq(targets.name, name)));
    return row;
  }

  async insert(row: TargetInsert): Promise<TargetRow> {
    const [created] = await this.db.insert(targets).values(row).returning();
    return created!;
  }

  async update(tenantId: string, id: string, change: TargetChange): Promise<TargetRow | undefined> {
    const [row] = await this.db.update(targets).set(change).where(ofTenant(tenantId, id)).returning();
    return row;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const removed = await this.db.delete(targets).where(ofTenant(tenantId, id)).returning({ id: targets.id });
    return removed.length > 0;
  }

  /** Rows sealed under another key than `keyId`, for re-sealing after a rotation. */
  async sealedUnderOtherKeys(keyId: string): Promise<TargetRow[]> {
    return this.db.select().from(targets).where(ne(targets.keyId, keyId));
  }

  /** Replaces a row's sealed credential only if it is still the one read (a concurrent PUT wins). */
  async reseal(row: TargetRow, change: Pick<TargetRow, 'keyId' | 'privateKeyEncrypted' | 'passwordEncrypted'>): Promise<boolean> {
    const updated = await this.db
      .update(targets)
      .set(change)
      .where(and(eq(targets.id, row.id), eq(targets.keyId, row.keyId), eq(targets.updatedAt, row.updatedAt)))
      .returning({ id: targets.id });
    return updated.length > 0;
  }
}
