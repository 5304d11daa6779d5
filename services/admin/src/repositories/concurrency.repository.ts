import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { usageConcurrencyMonths, usageRuns } from '../db/schema.js';

/** A run's start or its end (an end, or a revocation), of a tenant's task. */
export interface RunChange {
  change: 'started' | 'ended';
  tenantId: string;
  taskId: string;
}

/** What `usage_runs` holds of a task: running (started, not ended) or ended before its start came. */
type RunState = 'running' | 'ended-first';

/** Jobs of a tenant running now and the month's peak, from runs' starts and ends (in any order). */
export class ConcurrencyRepository {
  constructor(private readonly db: Db) {}

  /**
   * Applies runs' starts and ends in the order given: a start counts as running unless its end
   * came first (the end is kept until then), and each start moves the month's peak to the jobs
   * then running. A batch costs a handful of statements however many changes it holds.
   */
  async apply(period: string, at: Date, changes: RunChange[]): Promise<void> {
    if (changes.length === 0) return;
    const taskIds = [...new Set(changes.map((c) => c.taskId))].sort();
    const starting = [...new Set(changes.filter((c) => c.change === 'started').map((c) => c.tenantId))].sort();
    await this.lock(period, taskIds, starting);

    const stored = await this.db.select({ taskId: usageRuns.taskId, running: usageRuns.running }).from(usageRuns).where(inArray(usageRuns.taskId, taskIds));
    const before = new Map<string, RunState>(stored.map((row) => [row.taskId, row.running ? 'running' : 'ended-first']));
    const current = new Map(starting.map((tenantId) => [tenantId, 0]));
    if (starting.length > 0) {
      const counts = await this.db
        .select({ tenantId: usageRuns.tenantId, n: count() })
        .from(usageRuns)
        .where(and(inArray(usageRuns.tenantId, starting), eq(usageRuns.running, true)))
        .groupBy(usageRuns.tenantId);
      for (const row of counts) current.set(row.tenantId, row.n);
    }

    const after = new Map(before);
    const tenantOf = new Map<string, string>();
    const peaks = new Map<string, number>();
    for (const { change, tenantId, taskId } of changes) {
      tenantOf.set(taskId, tenantId);
      const state = after.get(taskId);
      const running = current.get(tenantId);
      if (change === 'started') {
        if (state === 'ended-first') after.delete(taskId);
        if (state !== undefined) continue;
        after.set(taskId, 'running');
        current.set(tenantId, running! + 1);
        peaks.set(tenantId, Math.max(peaks.get(tenantId) ?? 0, running! + 1));
      } else if (state === 'running') {
        after.delete(taskId);
        if (running !== undefined) current.set(tenantId, running - 1);
      } else if (state === undefined) {
        after.set(taskId, 'ended-first');
      }
    }

    const gone = [...before.keys()].filter((taskId) => !after.has(taskId));
    if (gone.length > 0) await this.db.delete(usageRuns).where(inArray(usageRuns.taskId, gone));
    const added = [...after].filter(([taskId]) => !before.has(taskId));
    if (added.length > 0) {
      await this.db
        .insert(usageRuns)
        .values(added.map(([taskId, state]) => ({ taskId, tenantId: tenantOf.get(taskId)!, running: state === 'running', at })))
        .onConflictDoNothing();
    }
    for (const [tenantId, peak] of peaks) {
      await this.db
        .update(usageConcurrencyMonths)
        .set({ peak: sql`greatest(${usageConcurrencyMonths.peak}, ${peak})` })
        .where(and(eq(usageConcurrencyMonths.period, period), eq(usageConcurrencyMonths.tenantId, tenantId)));
    }
  }

  /**
   * Until the transaction ends: the batch's runs (so that a run's start and end handled at once
   * in two transactions take turns, instead of each finding no row of the other, not yet
   * committed, and the run counting as running for ever), then the month's row of each tenant a
   * run starts for (so that starts handled at once each count the others' runs and the peak
   * misses none). Always in the same order, runs then tenants, each sorted: two batches never
   * wait on each other in a circle.
   */
  private async lock(period: string, taskIds: string[], tenants: string[]): Promise<void> {
    const keys = sql.join(
      taskIds.map((taskId) => sql`${`usage-run:${taskId}`}`),
      sql`, `,
    );
    await this.db.execute(sql`select count(pg_advisory_xact_lock(hashtext(k))) from (select unnest(array[${keys}]::text[]) as k order by k) as runs`);
    if (tenants.length === 0) return;
    await this.db
      .insert(usageConcurrencyMonths)
      .values(tenants.map((tenantId) => ({ period, tenantId, peak: 0 })))
      .onConflictDoUpdate({ target: [usageConcurrencyMonths.period, usageConcurrencyMonths.tenantId], set: { peak: sql`${usageConcurrencyMonths.peak}` } });
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
