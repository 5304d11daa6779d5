import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { RunLogLine } from '@svc/contracts';
import type { Db } from '@svc/db';
import { LIVE_STATUSES, NEW_TASK_COLUMNS, SCHEDULED_TASK_COLUMNS, tasks, type TaskError, type TaskStatus } from '../../db/schema.js';
import type { TaskProgress } from '@svc/contracts';
import { CLAIMABLE, jsonText, leaseEnd, taskStatementsFor, type Lease } from './task.statements.js';

export type { Lease } from './task.statements.js';

export type TaskRow = typeof tasks.$inferSelect;

/** What a new task is given; every other column starts at its default. */
export type NewTask = Required<Pick<typeof tasks.$inferInsert, (typeof NEW_TASK_COLUMNS)[number]>> & Pick<typeof tasks.$inferInsert, (typeof SCHEDULED_TASK_COLUMNS)[number]>;

/** A task that may have no row yet (a synchronous run): what a row would be made of. */
export type UnstoredTask = NewTask & { id: string };

export interface TaskEnding {
  status: Exclude<TaskStatus, 'pending' | 'started' | 'revoked'>;
  result?: unknown;
  error?: TaskError;
  durationMs: number;
  retentionMs: number;
  /** What the run logged; none is kept as null. */
  logs?: RunLogLine[];
}

/** Values for some of a row's columns, each a value or SQL (`now()`). */
type ColumnValues = { [Column in keyof typeof tasks.$inferInsert]?: (typeof tasks.$inferInsert)[Column] | SQL };

/** A pending task is held by no worker. */
const NO_LEASE = { leaseOwner: null, leaseExpiresAt: null };

/** The columns an ending writes (also the row a run without one ends with). */
export function endingColumns(ending: TaskEnding) {
  const now = new Date();
  return {
    status: ending.status,
    result: ending.result ?? null,
    error: ending.error ?? null,
    durationMs: Math.round(ending.durationMs),
    completedAt: now,
    resultExpiresAt: new Date(now.getTime() + ending.retentionMs),
    logs: ending.logs && ending.logs.length > 0 ? ending.logs : null,
  };
}

/**
 * A task's rows. Inserting, finding, claiming and finishing, which every run does, go through
 * `TaskStatements` (task.statements.ts): the fast path, batched and prepared. The rest are rare
 * and written plainly here.
 */
export class TaskRepository {
  constructor(private readonly db: Db) {}

  async insert(task: NewTask): Promise<TaskRow> {
    return (await this.tryInsert(task))!;
  }

  /** Inserts a task; undefined when it is a schedule's run for a tick that has one already. */
  tryInsert(task: NewTask): Promise<TaskRow | undefined> {
    return taskStatementsFor(this.db).insert({ task: { id: randomUUID(), ...task }, input: JSON.stringify(task.input) });
  }

  /** A run refused before it was queued, recorded as ended; undefined when its tick has a run already. */
  async insertEnded(task: NewTask, ending: TaskEnding): Promise<TaskRow | undefined> {
    const [row] = await this.db
      .insert(tasks)
      .values({ ...task, ...endingColumns(ending) })
      .onConflictDoNothing()
      .returning();
    return row;
  }

  find(id: string): Promise<TaskRow | undefined> {
    return taskStatementsFor(this.db).find(id);
  }

  /** A user's tasks in one tenant, newest first. */
  listOf(userId: string, tenantId: string, query: { status?: TaskStatus; limit: number }): Promise<TaskRow[]> {
    const filters = [eq(tasks.userId, userId), eq(tasks.tenantId, tenantId), ...(query.status ? [eq(tasks.status, query.status)] : [])];
    return this.db.select().from(tasks).where(and(...filters)).orderBy(desc(tasks.createdAt), desc(tasks.id)).limit(query.limit);
  }

  /**
   * Takes a task for a run under `lease`: pending (or started by a worker whose lease lapsed)
   * becomes started; undefined when it is terminal or another worker's lease holds it.
   */
  claim(id: string, lease: Lease): Promise<TaskRow | undefined> {
    return taskStatementsFor(this.db).claim({ id, lease });
  }

  /** Extends the leases `owner` holds on `ids` by `ms` from now, for the runs still going. */
  async renewLeases(owner: string, ids: string[], ms: number): Promise<void> {
    await this.db
      .update(tasks)
      .set({ leaseExpiresAt: leaseEnd(sql`${ms}::integer`) })
      .where(and(inArray(tasks.id, ids), eq(tasks.leaseOwner, owner), eq(tasks.status, 'started')));
  }

  /** Records the end of a run; undefined when the task was revoked meanwhile. */
  finish(id: string, ending: TaskEnding): Promise<TaskRow | undefined> {
    const columns = endingColumns(ending);
    return taskStatementsFor(this.db).finish({ id, columns, result: jsonText(columns.result), error: jsonText(columns.error), logs: jsonText(columns.logs) });
  }

  /**
   * Takes a synchronous run for another attempt once its caller may hold its id, under
   * `lease`: the row is made (or, when it exists and may be claimed, marked started); undefined
   * when it ended or another worker's lease holds it.
   */
  async claimUnstored(task: UnstoredTask, attempt: number, lease: Lease): Promise<TaskRow | undefined> {
    return this.writeLive(task, { status: 'started', startedAt: sql`now()`, attempts: attempt, leaseOwner: lease.owner, leaseExpiresAt: leaseEnd(sql`${lease.ms}::integer`) }, CLAIMABLE);
  }

  /** Records the end of a run that may have no row yet; undefined when it was revoked meanwhile. */
  async recordUnstored(task: UnstoredTask, run: { attempt: number; startedAt: Date }, ending: TaskEnding): Promise<TaskRow | undefined> {
    return this.writeLive(task, { ...endingColumns(ending), attempts: run.attempt, startedAt: run.startedAt }, inArray(tasks.status, LIVE_STATUSES));
  }

  /** Makes the task's row with `columns`, or writes them to the row there is when `writable` holds of it. */
  private async writeLive(task: UnstoredTask, columns: ColumnValues, writable: SQL): Promise<TaskRow | undefined> {
    const [row] = await this.db
      .insert(tasks)
      .values({ ...task, ...columns })
      .onConflictDoUpdate({ target: tasks.id, set: columns, setWhere: writable })
      .returning();
    return row;
  }

  /**
   * A synchronous call that outlived its caller's wait becomes a task: the row is made (pending)
   * unless the worker made it first, and marked as one the caller holds.
   */
  async detach(task: UnstoredTask): Promise<TaskRow> {
    const [row] = await this.db
      .insert(tasks)
      .values({ ...task, async: true })
      .onConflictDoUpdate({ target: tasks.id, set: { async: true } })
      .returning();
    return row!;
  }

  /** Keeps a running task's last progress report; a task that ended keeps what it had. */
  async recordProgress(id: string, progress: TaskProgress): Promise<void> {
    await this.db
      .update(tasks)
      .set({ progress })
      .where(and(eq(tasks.id, id), eq(tasks.status, 'started')));
  }

  /** A failed run that will be retried goes back to pending, its lease given up. */
  async requeue(id: string): Promise<boolean> {
    const rows = await this.db
      .update(tasks)
      .set({ status: 'pending', ...NO_LEASE })
      .where(and(eq(tasks.id, id), eq(tasks.status, 'started')))
      .returning({ id: tasks.id });
    return rows.length === 1;
  }

  /** A task taken for a run that did not start (its tenant's share was taken) is pending again, that attempt not counted, its lease given up. */
  async unclaim(id: string): Promise<void> {
    await this.db
      .update(tasks)
      .set({ status: 'pending', attempts: sql`greatest(${tasks.attempts} - 1, 0)`, ...NO_LEASE })
      .where(and(eq(tasks.id, id), eq(tasks.status, 'started')));
  }

  async revoke(id: string, retentionMs: number): Promise<TaskRow | undefined> {
    const now = new Date();
    const [row] = await this.db
      .update(tasks)
      .set({ status: 'revoked', completedAt: now, resultExpiresAt: new Date(now.getTime() + retentionMs) })
      .where(and(eq(tasks.id, id), inArray(tasks.status, LIVE_STATUSES)))
      .returning();
    return row;
  }

  /** Removes a task that never reached a queue (still pending): nobody was given its id. */
  async discard(id: string): Promise<void> {
    await this.db.delete(tasks).where(and(eq(tasks.id, id), eq(tasks.status, 'pending')));
  }

  async markAsync(id: string): Promise<void> {
    await this.db.update(tasks).set({ async: true }).where(eq(tasks.id, id));
  }

  /**
   * The tasks a caller was handed (asynchronous ones), newest first, `limit` of them after
   * `before` (the last row of the previous page: its creation time and id).
   */
  listOwned(owner: { userId: string; tenantId: string }, limit: number, before?: { createdAt: Date; id: string }): Promise<TaskRow[]> {
    const older = before ? or(lt(tasks.createdAt, before.createdAt), and(eq(tasks.createdAt, before.createdAt), lt(tasks.id, before.id))) : undefined;
    return this.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.userId, owner.userId), eq(tasks.tenantId, owner.tenantId), eq(tasks.async, true), older))
      .orderBy(desc(tasks.createdAt), desc(tasks.id))
      .limit(limit);
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
      .set({ result: null, input: {}, logs: null, resultPurged: true })
      .where(and(lt(tasks.resultExpiresAt, new Date()), eq(tasks.resultPurged, false)))
      .returning({ id: tasks.id });
    return rows.length;
  }
}
