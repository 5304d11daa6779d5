import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, json, pgSchema, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PackManifest } from '@svc/pack-sdk';
import { SCHEDULE_CATCH_UPS, SCHEDULE_OVERLAPS, SCHEDULE_PAUSE_REASONS, TASK_STATUSES, type RunLogLine, type TaskError, type TaskProgress } from '@svc/contracts';
import { inboxTable, outboxTable } from '@svc/db';

export const execution = pgSchema('execution');

export { TASK_STATUSES, type TaskError, type TaskStatus } from '@svc/contracts';
export const LIVE_STATUSES: readonly (typeof TASK_STATUSES)[number][] = ['pending', 'started'];
export const TERMINAL_STATUSES: readonly (typeof TASK_STATUSES)[number][] = ['success', 'failure', 'timeout', 'revoked'];

/**
 * Events a run's end could not publish at once (the broker away when the worker announced it),
 * and those of the API's changes (a cancel, a detached run): see "The outbox" in `@svc/db`.
 */
export const outbox = outboxTable(execution);

/** The events handled once (`handleOnce`): the pack installs that propose schedules. */
export const inbox = inboxTable(execution);

/**
 * Every run a caller can ask about: asynchronous ones, and synchronous ones that failed or
 * outlived (nearly) their caller's wait. The row is what a retried delivery checks so that a
 * finished task never runs again. A synchronous run that succeeded in time has none.
 *
 * Input, result and error are kept as the JSON text written (`json`, not `jsonb`): `jsonb`
 * refuses the escape `\u0000`, which a caller may send and a command may answer with.
 */
export const tasks = execution.table(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    namespace: text('namespace').notNull(),
    command: text('command').notNull(),
    packId: text('pack_id').notNull(),
    /** The pack's name without its namespace (`@<namespace>/<pack_name>`, which usage counts by); empty on rows made before it was kept. */
    packName: text('pack_name').notNull().default(''),
    packVersion: text('pack_version').notNull(),
    packVersionId: text('pack_version_id').notNull(),
    entry: text('entry').notNull(),
    queue: text('queue', { enum: ['fast', 'medium', 'long'] }).notNull(),
    status: text('status', { enum: TASK_STATUSES }).notNull().default('pending'),
    /** True when the caller got a task id (asked for async, or waited past the sync limit). */
    async: boolean('async').notNull(),
    input: json('input').notNull(),
    result: json('result'),
    error: json('error').$type<TaskError>(),
    attempts: integer('attempts').notNull().default(0),
    maxRetries: integer('max_retries').notNull(),
    timeoutMs: integer('timeout_ms').notNull(),
    durationMs: integer('duration_ms'),
    correlationId: text('correlation_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The command's last progress report (`ctx.progress`), while it ran. */
    progress: json('progress').$type<TaskProgress>(),
    /** After this the result is dropped and the task answers 410. */
    resultExpiresAt: timestamp('result_expires_at', { withTimezone: true }),
    resultPurged: boolean('result_purged').notNull().default(false),
    /** The schedule whose run this is (fired or triggered); null for every other run. */
    scheduleId: uuid('schedule_id'),
    /** The tick a schedule fired this run for; null when triggered by hand. One run per tick: unique with the schedule. */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    /** What the run logged (its last attempt), bounded by the worker: shown to the task's owner with the task. */
    logs: json('logs').$type<RunLogLine[]>(),
    /** The worker running the task now (its id), while its lease lasts: another worker handed the same job does not run it. */
    leaseOwner: text('lease_owner'),
    /** Until when the owner's claim holds; the owner renews it while the run goes on, and a dead worker's lapses. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
  },
  (t) => [
    index('tasks_user_idx').on(t.userId),
    index('tasks_expiry_idx').on(t.resultExpiresAt),
    index('tasks_schedule_idx').on(t.scheduleId, t.createdAt).where(sql`${t.scheduleId} is not null`),
    uniqueIndex('tasks_schedule_tick_idx').on(t.scheduleId, t.scheduledFor),
  ],
);

/** The columns a new task is given; every other one starts at its default. */
export const NEW_TASK_COLUMNS = ['userId', 'tenantId', 'namespace', 'command', 'packId', 'packName', 'packVersion', 'packVersionId', 'entry', 'queue', 'async', 'input', 'maxRetries', 'timeoutMs', 'correlationId'] as const;

/** The columns only a schedule's runs are given (the other runs leave them null). */
export const SCHEDULED_TASK_COLUMNS = ['scheduleId', 'scheduledFor'] as const;

/**
 * Commands that run on a cron, as tasks of the tenant and user that made them (README
 * "Schedules"). `next_run_at` is the tick a scheduler claims next (null while paused): replicas
 * take due rows with `FOR UPDATE SKIP LOCKED` and move it on in the same transaction.
 */
export const schedules = execution.table(
  'schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull(),
    /** Who made it (or installed the pack that proposed it): its runs are theirs. */
    userId: uuid('user_id').notNull(),
    namespace: text('namespace').notNull(),
    command: text('command').notNull(),
    input: json('input').$type<Record<string, unknown>>().notNull(),
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull(),
    enabled: boolean('enabled').notNull(),
    overlap: text('overlap', { enum: SCHEDULE_OVERLAPS }).notNull(),
    catchUp: text('catch_up', { enum: SCHEDULE_CATCH_UPS }).notNull(),
    description: text('description').notNull().default(''),
    pausedReason: text('paused_reason', { enum: SCHEDULE_PAUSE_REASONS }),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /**
     * A tick claimed whose run is not made yet, and since when (the scheduler's clock): a
     * scheduler that died between its claim and the run leaves it, and the next claim fires it
     * (the run is made once: `tasks_schedule_tick_idx`).
     */
    pendingTick: timestamp('pending_tick', { withTimezone: true }),
    pendingSince: timestamp('pending_since', { withTimezone: true }),
    /** The tick of the last run fired (or the time of the last trigger). */
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    lastTaskId: uuid('last_task_id'),
    /** Ticks that fired no run: missed while no scheduler ran (`catch_up`), or skipped while a run was unfinished (`overlap: skip`). */
    missedTicks: integer('missed_ticks').notNull().default(0),
    skippedTicks: integer('skipped_ticks').notNull().default(0),
    /** `@<namespace>/<pack>` of the pack that proposed it, null for one made by a person. */
    proposedBy: text('proposed_by'),
    /** What identifies a proposal within its tenant, so that installing again proposes nothing twice. */
    proposalKey: text('proposal_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('schedules_tenant_idx').on(t.tenantId, t.createdAt),
    index('schedules_due_idx').on(t.nextRunAt).where(sql`${t.enabled}`),
    index('schedules_pending_idx').on(t.pendingSince).where(sql`${t.pendingTick} is not null`),
    uniqueIndex('schedules_proposal_idx').on(t.tenantId, t.proposalKey),
  ],
);

/** The first task a caller's `Idempotency-Key` led to, for 24 hours. */
export const idempotencyKeys = execution.table(
  'idempotency_keys',
  {
    userId: uuid('user_id').notNull(),
    key: text('key').notNull(),
    taskId: uuid('task_id').notNull(),
    /** The command it was used for: the same key for another command is a client error. */
    commandPath: text('command_path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * A user's development sandbox (README "Development sandbox"): one row per user, its current or
 * last session. It is running while it is not stopped and has been active within its timeout.
 */
export const sandboxes = execution.table('sandboxes', {
  userId: uuid('user_id').primaryKey(),
  /** A new id for every session started. */
  id: uuid('id').notNull(),
  /** The tenant the session was started in. */
  tenantId: uuid('tenant_id').notNull(),
  timeoutSeconds: integer('timeout_seconds').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull(),
  stoppedAt: timestamp('stopped_at', { withTimezone: true }),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * The packs a user synced into their sandbox (`svc pack sync`), one per namespace and name, the
 * latest sync replacing the one before; all of a user's together hold to the storage quota.
 */
export const sandboxPackages = execution.table(
  'sandbox_packages',
  {
    userId: uuid('user_id').notNull(),
    namespace: text('namespace').notNull(),
    pack: text('pack').notNull(),
    version: text('version').notNull(),
    sha256: text('sha256').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    manifest: json('manifest').$type<PackManifest>().notNull(),
    tarball: bytea('tarball').notNull(),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.namespace, t.pack] })],
);

/** Sandbox runs a user started in a calendar month (UTC), held to the monthly quota. */
export const sandboxUsage = execution.table(
  'sandbox_usage',
  {
    userId: uuid('user_id').notNull(),
    /** `YYYY-MM`. */
    month: text('month').notNull(),
    executions: integer('executions').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month] })],
);
