import { and, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { tasks, type TaskError, type TaskStatus } from '../db/schema.js';

export type TaskRow = typeof tasks.$inferSelect;

const NEW_TASK_COLUMNS = ['userId', 'tenantId', 'namespace', 'command', 'packId', 'packVersion', 'packVersionId', 'entry', 'queue', 'async', 'input', 'maxRetries', 'timeoutMs', 'correlationId'] as const;
/** What a new task is given; every other column starts at its default. */
export type NewTask = Required<Pick<typeof tasks.$inferInsert, (typeof NEW_TASK_COLUMNS)[number]>>;

/** A task that may have no row yet (a synchronous run): what a row would be made of. */
export type UnstoredTask = NewTask & { id: string };

export interface TaskEnding {
  status: Exclude<TaskStatus, 'pending' | 'started' | 'revoked'>;
  result?: unknown;
  error?: TaskError;
  durationMs: number;
  retentionMs: number;
}

const LIVE: TaskStatus[] = ['pending', 'started'];

/** Values for some of a row's columns, each a value or SQL (`now()`). */
type ColumnValues = { [Column in keyof typeof tasks.$inferInsert]?: (typeof tasks.$inferInsert)[Column] | SQL };

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
  };
}

/**
 * The statements every run executes, built once per database: drizzle builds a query's SQL
 * anew on each call, which costs more CPU than Postgres spends on these.
 */
function prepareStatements(db: Db) {
  const newTask = Object.fromEntries(NEW_TASK_COLUMNS.map((column) => [column, sql.placeholder(column)])) as Record<keyof NewTask, ReturnType<typeof sql.placeholder>>;
  return {
    insert: db.insert(tasks).values(newTask).returning().prepare('execution_task_insert'),
    find: db.select().from(tasks).where(eq(tasks.id, sql.placeholder('id'))).prepare('execution_task_find'),
    claim: db
      .update(tasks)
      .set({ status: 'started', startedAt: sql`now()`, attempts: sql`${tasks.attempts} + 1` })
      .where(and(eq(tasks.id, sql.placeholder('id')), inArray(tasks.status, LIVE)))
      .returning()
      .prepare('execution_task_claim'),
    finish: db
      .update(tasks)
      .set({
        status: sql`${sql.placeholder('status')}`,
        result: sql`${sql.placeholder('result')}::json`,
        error: sql`${sql.placeholder('error')}::json`,
        durationMs: sql`${sql.placeholder('durationMs')}::integer`,
        completedAt: sql`${sql.placeholder('completedAt')}::timestamptz`,
        resultExpiresAt: sql`${sql.placeholder('resultExpiresAt')}::timestamptz`,
      })
      .where(and(eq(tasks.id, sql.placeholder('id')), eq(tasks.status, 'started')))
      .returning()
      .prepare('execution_task_finish'),
  };
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareStatements>>();

function statementsFor(db: Db): ReturnType<typeof prepareStatements> {
  let statements = prepared.get(db);
  if (!statements) {
    statements = prepareStatements(db);
    prepared.set(db, statements);
  }
  return statements;
}

export class TaskRepository {
  constructor(private readonly db: Db) {}

  async insert(task: NewTask): Promise<TaskRow> {
    const [row] = await statementsFor(this.db).insert.execute(task);
    return row!;
  }

  async find(id: string): Promise<TaskRow | undefined> {
    const [row] = await statementsFor(this.db).find.execute({ id });
    return row;
  }

  /** Takes a task for a run: pending (or started, after a worker died) becomes started. */
  async claim(id: string): Promise<TaskRow | undefined> {
    const [row] = await statementsFor(this.db).claim.execute({ id });
    return row;
  }

  /** Records the end of a run; undefined when the task was revoked meanwhile. */
  async finish(id: string, ending: TaskEnding): Promise<TaskRow | undefined> {
    const columns = endingColumns(ending);
    // Bound as text and cast in SQL: a prepared statement's parameters skip the column mappers.
    const [row] = await statementsFor(this.db).finish.execute({
      id,
      status: columns.status,
      result: columns.result === null ? null : JSON.stringify(columns.result),
      error: columns.error === null ? null : JSON.stringify(columns.error),
      durationMs: columns.durationMs,
      completedAt: columns.completedAt.toISOString(),
      resultExpiresAt: columns.resultExpiresAt.toISOString(),
    });
    return row;
  }

  /**
   * Takes a synchronous run for another attempt once its caller may hold its id: the row is
   * made (or, when it exists and is still live, marked started); undefined when it ended.
   */
  async claimUnstored(task: UnstoredTask, attempt: number): Promise<TaskRow | undefined> {
    return this.writeLive(task, { status: 'started', startedAt: sql`now()`, attempts: attempt });
  }

  /** Records the end of a run that may have no row yet; undefined when it was revoked meanwhile. */
  async recordUnstored(task: UnstoredTask, run: { attempt: number; startedAt: Date }, ending: TaskEnding): Promise<TaskRow | undefined> {
    return this.writeLive(task, { ...endingColumns(ending), attempts: run.attempt, startedAt: run.startedAt });
  }

  /** Makes the task's row with `columns`, or writes them to the row there is while it is live. */
  private async writeLive(task: UnstoredTask, columns: ColumnValues): Promise<TaskRow | undefined> {
    const [row] = await this.db
      .insert(tasks)
      .values({ ...task, ...columns })
      .onConflictDoUpdate({ target: tasks.id, set: columns, setWhere: inArray(tasks.status, LIVE) })
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
      .where(and(eq(tasks.id, id), inArray(tasks.status, LIVE)))
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
