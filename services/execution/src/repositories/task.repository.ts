import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { tasks, type TaskError, type TaskStatus } from '../db/schema.js';

export type TaskRow = typeof tasks.$inferSelect;

const NEW_TASK_COLUMNS = ['userId', 'tenantId', 'namespace', 'command', 'packId', 'packVersion', 'packVersionId', 'entry', 'queue', 'async', 'input', 'maxRetries', 'timeoutMs', 'correlationId'] as const;
/** What a new task is given; every other column starts at its default. */
export type NewTask = Required<Pick<typeof tasks.$inferInsert, (typeof NEW_TASK_COLUMNS)[number]>>;

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
      .where(and(eq(tasks.id, sql.placeholder('id')), inArray(tasks.status, ['pending', 'started'])))
      .returning()
      .prepare('execution_task_claim'),
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
