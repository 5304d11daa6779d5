import { and, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { auditLog } from '../db/schema.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

export interface AuditFilters {
  actorId?: string;
  action?: string;
  since?: Date;
}

export type AuditPageStart = { after: { at: Date; id: string } } | { offset: number };

export class AuditRepository {
  constructor(private readonly db: Db) {}

  async insert(row: NewAuditRow): Promise<void> {
    await this.db.insert(auditLog).values(row);
  }

  /** A page of rows, newest first, and whether more follow. */
  async list(filters: AuditFilters, start: AuditPageStart, limit: number): Promise<{ rows: AuditRow[]; more: boolean }> {
    const where: SQL[] = [];
    if (filters.actorId) where.push(eq(auditLog.actorId, filters.actorId));
    if (filters.action) where.push(eq(auditLog.action, filters.action));
    if (filters.since) where.push(gt(auditLog.at, filters.since));
    if ('after' in start) where.push(or(lt(auditLog.at, start.after.at), and(eq(auditLog.at, start.after.at), lt(auditLog.id, start.after.id)))!);
    const rows = await this.db
      .select()
      .from(auditLog)
      .where(and(...where))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(limit + 1)
      .offset('offset' in start ? start.offset : 0);
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }
}
