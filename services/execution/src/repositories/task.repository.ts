import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { tasks, type TaskError, type TaskStatus } from '../db/schema.js';

export type TaskRow = typeof tasks.$inferSelect;
export type NewTask = typeof tasks.$inferInsert;

export class TaskRepository {
  constructor(private readonly db: Db) {}

  async insert(task: NewTask): Promise<TaskRow> {
    const [row] = await this.db.insert(tasks).values(task).returning();
    return row!;
  }

  async find(id: string): Promise<TaskRow | undefined> {
    const [row] = await this.db.select().from(tasks).where(eq(tasks.id, id));
    return row;
  }

  /** Takes a task for a run: pending (or started, after a worker died) becomes started. */
  async claim(id: string): Promise<TaskRow | undefined> {
    const [row] = await this.db
      .update(tasks)
      .set({ status: 'started', startedAt: new Date(), attempts: sql`${tasks.attempts} + 1` })
      .where(and(eq(tasks.id, id), inArray(tasks.status, ['pending', 'started'])))
      .returning();
    return row;
  }

  /** Records the end of a run; undefined when the task was revoked meanwhile. */
  async finish(
    id: string,
    outcome: { status: Exclude<TaskStatus, 'pending' | 'started' | 'revoked'>; result?: unknown; error?: TaskError; durationMs: number; retentionMs: number },
  ): Promise<TaskRow | undefined> {
    const now = new Date();
    const [row] = await this.db
      .update(tasks)
      .set({
        status: outcome.status,
        result: outcome.result ?? null,
        error: outcome.error ?? null,
        durationMs: Math.round(outcome.durationMs),
        completedAt: now,
        resultExpiresAt: new Date(now.getTime() + outcome.retentionMs),
      })
      .where(and(eq(tasks.id, id), eq(tasks.status, 'started')))
      .returning();
    return row;
  }

  /** A failed run that will be retried goes back to pending. */
  async requeue(id: string): Promise<boolean> {
    const rows = await this.db
      .update(tasks)
      .set({ status: 'pending' })
      .where(and(eq(tasks.id, id), eq(tasks.status, 'started')))
      .returning({ id: tasks.id });
    return rows.length === 1;
  }

  async revoke(id: string, retentionMs: number): Promise<TaskRow | undefined> {
    const now = new Date();
    const [row] = await this.db
      .update(tasks)
      .set({ status: 'revoked', completedAt: now, resultExpiresAt: new Date(now.getTime() + retentionMs) })
      .where(and(eq(tasks.id, id), inArray(tasks.status, ['pending', 'started'])))
      .returning();
    return row;
  }

  async markAsync(id: string): Promise<void> {
    await this.db.update(tasks).set({ async: true }).where(eq(tasks.id, id));
  }

  async revokedAmong(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(inArray(tasks.id, ids), eq(tasks.status, 'revoked')));
    return rows.map((r) => r.id);
  }

  /** Drops results past their retention; the rows stay so the task answers 410, not 404. */
  async purgeExpired(): Promise<number> {
    const rows = await this.db
      .update(tasks)
      .set({ result: null, input: {}, resultPurged: true })
      .where(and(lt(tasks.resultExpiresAt, new Date()), eq(tasks.resultPurged, false)))
      .returning({ id: tasks.id });
    return rows.length;
  }
}
