import { and, count, desc, eq, inArray, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { LIVE_STATUSES, schedules, tasks } from '../../db/schema.js';
import type { TaskRow } from './task.repository.js';

export type ScheduleRow = typeof schedules.$inferSelect;
export type NewSchedule = Omit<typeof schedules.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
/** The columns a change may write. */
export type ScheduleChange = Partial<Omit<NewSchedule, 'tenantId' | 'userId' | 'proposedBy' | 'proposalKey' | 'missedTicks' | 'skippedTicks' | 'pendingTick' | 'pendingSince'>>;

export interface Page {
  page: number;
  limit: number;
}

/** A tenant's schedules, and the due ones a scheduler claims. Every read of one schedule names its tenant. */
export class ScheduleRepository {
  constructor(private readonly db: Db) {}

  async insert(schedule: NewSchedule): Promise<ScheduleRow> {
    const [row] = await this.db.insert(schedules).values(schedule).returning();
    return row!;
  }

  /** Proposals of a pack, paused: those the tenant has already (by `proposalKey`) are left as they are. */
  async propose(proposals: NewSchedule[]): Promise<ScheduleRow[]> {
    if (proposals.length === 0) return [];
    return this.db.insert(schedules).values(proposals).onConflictDoNothing().returning();
  }

  async find(tenantId: string, id: string): Promise<ScheduleRow | undefined> {
    const [row] = await this.db
      .select()
      .from(schedules)
      .where(and(eq(schedules.tenantId, tenantId), eq(schedules.id, id)));
    return row;
  }

  /** Newest first. */
  async list(tenantId: string, page: Page, enabled?: boolean): Promise<{ rows: ScheduleRow[]; total: number }> {
    const where = and(eq(schedules.tenantId, tenantId), enabled === undefined ? undefined : eq(schedules.enabled, enabled));
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(schedules)
        .where(where)
        .orderBy(desc(schedules.createdAt), desc(schedules.id))
        .limit(page.limit)
        .offset((page.page - 1) * page.limit),
      this.db.select({ n: count() }).from(schedules).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async countOf(tenantId: string): Promise<{ all: number; enabled: number }> {
    const [row] = await this.db
      .select({ all: count(), enabled: sql<number>`count(*) filter (where ${schedules.enabled})`.mapWith(Number) })
      .from(schedules)
      .where(eq(schedules.tenantId, tenantId));
    return { all: row?.all ?? 0, enabled: row?.enabled ?? 0 };
  }

  async update(tenantId: string, id: string, change: ScheduleChange): Promise<ScheduleRow | undefined> {
    const [row] = await this.db
      .update(schedules)
      .set({ ...change, updatedAt: new Date() })
      .where(and(eq(schedules.tenantId, tenantId), eq(schedules.id, id)))
      .returning();
    return row;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(schedules)
      .where(and(eq(schedules.tenantId, tenantId), eq(schedules.id, id)))
      .returning({ id: schedules.id });
    return rows.length === 1;
  }

  /**
   * Due schedules, locked for the caller's transaction: another scheduler's claim skips them
   * (`SKIP LOCKED`) rather than waiting, and finds them moved on once this one commits. Due: the
   * next tick has come, or a tick claimed before `staleBefore` still has no run (its scheduler died).
   */
  lockDue(now: Date, staleBefore: Date, limit: number): Promise<ScheduleRow[]> {
    return this.db
      .select()
      .from(schedules)
      .where(and(eq(schedules.enabled, true), or(lte(schedules.nextRunAt, now), and(isNotNull(schedules.pendingTick), lte(schedules.pendingSince, staleBefore)))))
      .orderBy(schedules.nextRunAt)
      .limit(limit)
      .for('update', { skipLocked: true });
  }

  /** When a scheduler has something to do next: the earliest tick of an enabled schedule, or when a pending tick goes stale; null when neither. */
  async nextDue(staleMs: number): Promise<Date | null> {
    const stale = sql`${schedules.pendingSince} + ${staleMs} * interval '1 millisecond'`;
    const [row] = await this.db
      .select({ at: sql`min(least(${schedules.nextRunAt}, case when ${schedules.pendingTick} is not null then ${stale} end))`.mapWith(schedules.nextRunAt) })
      .from(schedules)
      .where(eq(schedules.enabled, true));
    return row?.at ?? null;
  }

  /** Moves a claimed schedule on (in the claim's transaction); `pendingTick` is the tick it fires, until its run is made. */
  async advance(id: string, change: { nextRunAt: Date | null; lastRunAt?: Date; missed: number; skipped: number; pending?: { tick: Date; since: Date } }): Promise<void> {
    await this.db
      .update(schedules)
      .set({
        nextRunAt: change.nextRunAt,
        ...(change.lastRunAt ? { lastRunAt: change.lastRunAt } : {}),
        ...(change.pending ? { pendingTick: change.pending.tick, pendingSince: change.pending.since } : {}),
        missedTicks: sql`${schedules.missedTicks} + ${change.missed}`,
        skippedTicks: sql`${schedules.skippedTicks} + ${change.skipped}`,
      })
      .where(eq(schedules.id, id));
  }

  /** The run of a claimed tick was made (or will never be): the tick is no longer pending. */
  async settle(id: string, tick: Date): Promise<void> {
    await this.db
      .update(schedules)
      .set({ pendingTick: null, pendingSince: null })
      .where(and(eq(schedules.id, id), eq(schedules.pendingTick, tick)));
  }

  /** A claimed tick whose run could not be started. */
  async countMissed(id: string): Promise<void> {
    await this.db
      .update(schedules)
      .set({ missedTicks: sql`${schedules.missedTicks} + 1` })
      .where(eq(schedules.id, id));
  }

  /** The run a schedule last fired or was triggered for. */
  async recordRun(id: string, taskId: string): Promise<void> {
    await this.db.update(schedules).set({ lastTaskId: taskId }).where(eq(schedules.id, id));
  }

  /** Whether a run of the schedule is pending or started. */
  async hasLiveRun(scheduleId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.scheduleId, scheduleId), inArray(tasks.status, LIVE_STATUSES)))
      .limit(1);
    return row !== undefined;
  }

  /** A schedule's runs, newest first. */
  async runs(scheduleId: string, page: Page): Promise<{ rows: TaskRow[]; total: number }> {
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(tasks)
        .where(eq(tasks.scheduleId, scheduleId))
        .orderBy(desc(tasks.createdAt), desc(tasks.id))
        .limit(page.limit)
        .offset((page.page - 1) * page.limit),
      this.db.select({ n: count() }).from(tasks).where(eq(tasks.scheduleId, scheduleId)),
    ]);
    return { rows, total: total?.n ?? 0 };
  }
}
