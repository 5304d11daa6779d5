import { randomUUID } from 'node:crypto';
import { and, eq, getTableColumns, inArray, is, lt, SQL, sql, type Column } from 'drizzle-orm';
import { statementBatcher, type Db } from '@svc/db';
import { tasks, type TaskError, type TaskStatus } from '../../db/schema.js';

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

/** The columns a batch of new tasks is given, one array each: the id is made here, to match rows to callers. */
const BATCH_COLUMNS = ['id', ...NEW_TASK_COLUMNS] as const;

/** A column's default as SQL (cast: a select list's bare parameter or null would be text). */
function defaultOf(column: Column): SQL {
  const type = sql.raw(column.getSQLType());
  if (column.default === undefined) return sql`null::${type}`;
  return is(column.default, SQL) ? column.default : sql`${column.default}::${type}`;
}

/**
 * New tasks as rows of `new_task`, from one array per given column, with every other column at
 * its default: drizzle's insert-select takes all the table's columns, in its order.
 */
function newTaskRows(): SQL {
  const given = new Set<string>(BATCH_COLUMNS);
  const arrays = BATCH_COLUMNS.map((key) => sql`${sql.placeholder(key)}::${sql.raw(tasks[key].getSQLType())}[]`);
  const names = BATCH_COLUMNS.map((key) => sql.identifier(tasks[key].name));
  const selected = Object.entries(getTableColumns(tasks)).map(([key, column]) => (given.has(key) ? sql`new_task.${sql.identifier(column.name)}` : defaultOf(column)));
  return sql`select ${sql.join(selected, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as new_task(${sql.join(names, sql`, `)})`;
}

/**
 * The statements every run executes, built once per database (drizzle builds a query's SQL anew
 * on each call, which costs more CPU than Postgres spends on these). Each takes arrays, the rows
 * of many runs at once (see `statementsOn`).
 */
function prepareStatements(db: Db) {
  return {
    insert: db.insert(tasks).select(newTaskRows()).returning().prepare('execution_task_insert'),
    find: db
      .select()
      .from(tasks)
      .where(sql`${tasks.id} = any(${sql.placeholder('ids')}::uuid[])`)
      .prepare('execution_task_find'),
    claim: db
      .update(tasks)
      .set({ status: 'started', startedAt: sql`now()`, attempts: sql`${tasks.attempts} + 1` })
      .where(and(sql`${tasks.id} = any(${sql.placeholder('ids')}::uuid[])`, inArray(tasks.status, LIVE)))
      .returning()
      .prepare('execution_task_claim'),
    // Each ending is a row of `ending`, from one array per column.
    finish: db
      .update(tasks)
      .set({
        status: sql`ending.status`,
        result: sql`ending.result`,
        error: sql`ending.error`,
        durationMs: sql`ending.duration_ms`,
        completedAt: sql`ending.completed_at`,
        resultExpiresAt: sql`ending.result_expires_at`,
      })
      .from(
        sql`unnest(${sql.placeholder('ids')}::uuid[], ${sql.placeholder('statuses')}::text[], ${sql.placeholder('results')}::json[], ${sql.placeholder('errors')}::json[], ${sql.placeholder('durations')}::integer[], ${sql.placeholder('completedAt')}::timestamptz[], ${sql.placeholder('expiresAt')}::timestamptz[]) as ending(id, status, result, error, duration_ms, completed_at, result_expires_at)`,
      )
      .where(and(eq(tasks.id, sql`ending.id`), eq(tasks.status, 'started')))
      .returning()
      .prepare('execution_task_finish'),
  };
}

/** The rows of `ids`, in their order; undefined where a statement took none. */
function rowsOf(ids: string[], rows: TaskRow[]): (TaskRow | undefined)[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id));
}

/** JSON bound as text and cast in SQL: a prepared statement's parameters skip the column mappers. */
const jsonText = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

/** A new task, its input already as the text it is stored as. */
interface Making {
  task: UnstoredTask;
  input: string;
}

/** The columns a run's ending writes, JSON as text. */
interface Finishing {
  id: string;
  columns: ReturnType<typeof endingColumns>;
  result: string | null;
  error: string | null;
}

/** Inputs and results may each be 1 MB and more: a few of those are enough for one statement. */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * What runs do to their rows, each batched: under load, requests arrive and a worker's jobs
 * start and end together, and one statement for all of them saves a round trip (and for a
 * write, a commit) for each.
 */
function statementsOn(db: Db) {
  const prepared = prepareStatements(db);
  const byId = { rowOf: (id: string) => id };
  return {
    insert: statementBatcher(
      async (making: Making[]) => {
        const columns = Object.fromEntries(BATCH_COLUMNS.map((key) => [key, making.map((m) => (key === 'input' ? m.input : m.task[key]))]));
        return rowsOf(
          making.map((m) => m.task.id),
          await prepared.insert.execute(columns),
        );
      },
      { rowOf: (m) => m.task.id, sizeOf: (m) => m.input.length, maxBatchBytes: MAX_BATCH_BYTES },
    ),
    // Reads: pollers of one task in one turn share a statement and its row, which readers leave as it is.
    find: statementBatcher(async (ids: string[]) => rowsOf(ids, await prepared.find.execute({ ids })), {}),
    claim: statementBatcher(async (ids: string[]) => rowsOf(ids, await prepared.claim.execute({ ids })), byId),
    finish: statementBatcher(
      async (finishing: Finishing[]) => {
        const ids = finishing.map((f) => f.id);
        const rows = await prepared.finish.execute({
          ids,
          statuses: finishing.map((f) => f.columns.status),
          results: finishing.map((f) => f.result),
          errors: finishing.map((f) => f.error),
          durations: finishing.map((f) => f.columns.durationMs),
          completedAt: finishing.map((f) => f.columns.completedAt.toISOString()),
          expiresAt: finishing.map((f) => f.columns.resultExpiresAt.toISOString()),
        });
        // drizzle does not type the rows of an update joined to an SQL source; they are the table's own.
        return rowsOf(ids, rows as TaskRow[]);
      },
      { rowOf: (f) => f.id, sizeOf: (f) => (f.result?.length ?? 0) + (f.error?.length ?? 0), maxBatchBytes: MAX_BATCH_BYTES },
    ),
  };
}

const statementsByDb = new WeakMap<Db, ReturnType<typeof statementsOn>>();

function statementsFor(db: Db): ReturnType<typeof statementsOn> {
  let statements = statementsByDb.get(db);
  if (!statements) {
    statements = statementsOn(db);
    statementsByDb.set(db, statements);
  }
  return statements;
}

export class TaskRepository {
  constructor(private readonly db: Db) {}

  async insert(task: NewTask): Promise<TaskRow> {
    return (await statementsFor(this.db).insert({ task: { id: randomUUID(), ...task }, input: JSON.stringify(task.input) }))!;
  }

  find(id: string): Promise<TaskRow | undefined> {
    return statementsFor(this.db).find(id);
  }

  /** Takes a task for a run: pending (or started, after a worker died) becomes started. */
  claim(id: string): Promise<TaskRow | undefined> {
    return statementsFor(this.db).claim(id);
  }

  /** Records the end of a run; undefined when the task was revoked meanwhile. */
  finish(id: string, ending: TaskEnding): Promise<TaskRow | undefined> {
    const columns = endingColumns(ending);
    return statementsFor(this.db).finish({ id, columns, result: jsonText(columns.result), error: jsonText(columns.error) });
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
