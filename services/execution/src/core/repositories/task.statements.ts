import { and, eq, sql, type SQL } from 'drizzle-orm';
import { columnValue, perDatabase, statementBatcher, unnestRows, type Db } from '@svc/db';
import { NEW_TASK_COLUMNS, SCHEDULED_TASK_COLUMNS, tasks } from '../../db/schema.js';
import type { endingColumns, TaskRow, UnstoredTask } from './task.repository.js';

/** A new task, its input already as the text it is stored as. */
export interface Making {
  task: UnstoredTask;
  input: string;
}

/** A worker's hold on the tasks it runs: its id, and how long a claim lasts unless renewed. */
export interface Lease {
  owner: string;
  ms: number;
}

/** A task taken for a run under `lease`. */
export interface Claiming {
  id: string;
  lease: Lease;
}

/**
 * A task a worker may take for a run now: pending, or started by a worker whose lease has
 * lapsed (it died, or lost the database for longer than the lease). A started task without a
 * lease was taken before leases were kept. Terminal tasks never are.
 */
export const CLAIMABLE = sql`(${tasks.status} = 'pending' or (${tasks.status} = 'started' and (${tasks.leaseExpiresAt} is null or ${tasks.leaseExpiresAt} < now())))`;

/** When a lease taken or renewed now ends, for a lease of `ms` (a parameter or a column). */
export const leaseEnd = (ms: SQL) => sql`now() + ${ms} * interval '1 millisecond'`;

/** The columns a run's ending writes, JSON as text. */
export interface Finishing {
  id: string;
  columns: ReturnType<typeof endingColumns>;
  result: string | null;
  error: string | null;
  logs: string | null;
}

/**
 * The fast path of a run's rows: each call joins the others made in the same turn and they
 * share one prepared statement (`statementBatcher` of @svc/db). Answers match the caller's key;
 * undefined where the statement took no row (a task finished or revoked meanwhile).
 */
export interface TaskStatements {
  insert(making: Making): Promise<TaskRow | undefined>;
  find(id: string): Promise<TaskRow | undefined>;
  claim(claiming: Claiming): Promise<TaskRow | undefined>;
  finish(finishing: Finishing): Promise<TaskRow | undefined>;
}

/** The columns a batch of new tasks is given, one array each: the id is made here, to match rows to callers. */
const BATCH_COLUMNS = ['id', ...NEW_TASK_COLUMNS, ...SCHEDULED_TASK_COLUMNS] as const;

/**
 * The statements every run executes, built once per database (drizzle builds a query's SQL anew
 * on each call, which costs more CPU than Postgres spends on these). Each takes arrays, the rows
 * of many runs at once (see `statementsOn`).
 */
function prepareStatements(db: Db) {
  return {
    // A schedule's tick has one run (`tasks_schedule_tick_idx`): a second is not made, and the others of its batch are.
    insert: db.insert(tasks).select(unnestRows(tasks, BATCH_COLUMNS, (key) => sql.placeholder(key))).onConflictDoNothing().returning().prepare('execution_task_insert'),
    find: db
      .select()
      .from(tasks)
      .where(sql`${tasks.id} = any(${sql.placeholder('ids')}::uuid[])`)
      .prepare('execution_task_find'),
    // The claim and its lease in one write: taking a task costs no more than before leases.
    claim: db
      .update(tasks)
      .set({ status: 'started', startedAt: sql`now()`, attempts: sql`${tasks.attempts} + 1`, leaseOwner: sql`claiming.owner`, leaseExpiresAt: leaseEnd(sql`claiming.lease_ms`) })
      .from(sql`unnest(${sql.placeholder('ids')}::uuid[], ${sql.placeholder('owners')}::text[], ${sql.placeholder('leaseMs')}::integer[]) as claiming(id, owner, lease_ms)`)
      .where(and(eq(tasks.id, sql`claiming.id`), CLAIMABLE))
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
        logs: sql`ending.logs`,
      })
      .from(
        sql`unnest(${sql.placeholder('ids')}::uuid[], ${sql.placeholder('statuses')}::text[], ${sql.placeholder('results')}::json[], ${sql.placeholder('errors')}::json[], ${sql.placeholder('durations')}::integer[], ${sql.placeholder('completedAt')}::timestamptz[], ${sql.placeholder('expiresAt')}::timestamptz[], ${sql.placeholder('logs')}::json[]) as ending(id, status, result, error, duration_ms, completed_at, result_expires_at, logs)`,
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
export const jsonText = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

/** Inputs and results may each be 1 MB and more: a few of those are enough for one statement. */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * What runs do to their rows, each batched: under load, requests arrive and a worker's jobs
 * start and end together, and one statement for all of them saves a round trip (and for a
 * write, a commit) for each.
 */
function statementsOn(db: Db): TaskStatements {
  const prepared = prepareStatements(db);
  return {
    insert: statementBatcher(
      async (making: Making[]) => {
        const columns = Object.fromEntries(BATCH_COLUMNS.map((key) => [key, making.map((m) => (key === 'input' ? m.input : columnValue(m.task[key])))]));
        return rowsOf(
          making.map((m) => m.task.id),
          await prepared.insert.execute(columns),
        );
      },
      { rowOf: (m) => m.task.id, sizeOf: (m) => m.input.length, maxBatchBytes: MAX_BATCH_BYTES },
    ),
    // Reads: pollers of one task in one turn share a statement and its row, which readers leave as it is.
    find: statementBatcher(async (ids: string[]) => rowsOf(ids, await prepared.find.execute({ ids })), {}),
    claim: statementBatcher(
      async (claiming: Claiming[]) => {
        const ids = claiming.map((c) => c.id);
        const rows = await prepared.claim.execute({ ids, owners: claiming.map((c) => c.lease.owner), leaseMs: claiming.map((c) => c.lease.ms) });
        // drizzle does not type the rows of an update joined to an SQL source; they are the table's own.
        return rowsOf(ids, rows as TaskRow[]);
      },
      { rowOf: (c) => c.id },
    ),
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
          logs: finishing.map((f) => f.logs),
        });
        // drizzle does not type the rows of an update joined to an SQL source; they are the table's own.
        return rowsOf(ids, rows as TaskRow[]);
      },
      { rowOf: (f) => f.id, sizeOf: (f) => (f.result?.length ?? 0) + (f.error?.length ?? 0) + (f.logs?.length ?? 0), maxBatchBytes: MAX_BATCH_BYTES },
    ),
  };
}

export const taskStatementsFor = perDatabase(statementsOn);

