import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { usageConcurrencyMonths, usageRuns } from '../db/schema.js';

/** Jobs of a tenant running now and the month's peak, from runs' starts and ends (in any order). */
export class ConcurrencyRepository {
  constructor(private readonly db: Db) {}

  /** A run began: counted as running unless its end came first; the month's peak follows. */
  async started(run: { period: string; tenantId: string; taskId: string; at: Date }): Promise<void> {
    await this.lockRun(run.taskId);
    const endedFirst = await this.db.delete(usageRuns).where(and(eq(usageRuns.taskId, run.taskId), eq(usageRuns.running, false))).returning({ taskId: usageRuns.taskId });
    if (endedFirst.length > 0) return;
    const month = and(eq(usageConcurrencyMonths.period, run.period), eq(usageConcurrencyMonths.tenantId, run.tenantId));
    // The month's row is locked first: starts of one tenant handled at once take turns, so each
    // counts the others' runs and the peak misses none.
    await this.db
      .insert(usageConcurrencyMonths)
      .values({ period: run.period, tenantId: run.tenantId, peak: 0 })
      .onConflictDoUpdate({ target: [usageConcurrencyMonths.period, usageConcurrencyMonths.tenantId], set: { peak: sql`${usageConcurrencyMonths.peak}` } });
    await this.db.insert(usageRuns).values({ taskId: run.taskId, tenantId: run.tenantId, running: true, at: run.at }).onConflictDoNothing();
    const current = await this.current(run.tenantId);
    await this.db
      .update(usageConcurrencyMonths)
      .set({ peak: sql`greatest(${usageConcurrencyMonths.peak}, ${current})` })
      .where(month);
  }

  /** A run ended (or was revoked): no longer running; an end before its start is kept until the start comes. */
  async ended(run: { tenantId: string; taskId: string; at: Date }): Promise<void> {
    await this.lockRun(run.taskId);
    const wasRunning = await this.db.delete(usageRuns).where(and(eq(usageRuns.taskId, run.taskId), eq(usageRuns.running, true))).returning({ taskId: usageRuns.taskId });
    if (wasRunning.length === 0) await this.db.insert(usageRuns).values({ taskId: run.taskId, tenantId: run.tenantId, running: false, at: run.at }).onConflictDoNothing();
  }

  /**
   * A run's start and end, handled at once in two transactions, take turns: otherwise each finds
   * no row of the other (not yet committed), the end's marker then loses to the start's row on the
   * key, and the run counts as running for ever. Held until the transaction ends.
   */
  private async lockRun(taskId: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`usage-run:${taskId}`}))`);
  }

  async current(tenantId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(usageRuns).where(and(eq(usageRuns.tenantId, tenantId), eq(usageRuns.running, true)));
    return row?.n ?? 0;
  }

  async peak(tenantId: string, period: string): Promise<number> {
    const [row] = await this.db.select({ peak: usageConcurrencyMonths.peak }).from(usageConcurrencyMonths).where(and(eq(usageConcurrencyMonths.tenantId, tenantId), eq(usageConcurrencyMonths.period, period)));
    return row?.peak ?? 0;
  }
}
