import { randomUUID } from 'node:crypto';
import type { Bus, EventOutbox, SendOptions } from '@svc/bus';
import type { ExecJob, QueueInput, ResolvedCommand, RunOutcome, TaskProgress } from '@svc/contracts';
import type { Identity, Tier } from '@svc/auth';
import { AppError, assertJsonShape, ConflictError, GoneError, MAX_JSON_DEPTH, NotFoundError, PermissionError, ServiceUnavailableError, currentCorrelationId, type Logger } from '@svc/core';
import { MAX_INPUT_ARRAY_ITEMS, QUEUE_MAX_TIMEOUT_SECONDS, type Queue } from '@svc/pack-sdk';
import type { Db } from '@svc/db';
import { annotate, traced } from '@svc/tracing';
import { IDEMPOTENCY_WINDOW_MS, IdempotencyRepository } from '../../core/repositories/idempotency.repository.js';
import { TaskRepository, type NewTask, type TaskRow, type UnstoredTask } from '../../core/repositories/task.repository.js';
import type { CommandCatalog } from '../../core/command-catalog.js';
import { announceTaskEnd } from '../../core/task-events.js';
import { runAttributes } from '../../core/run-attributes.js';
import { isTerminal, outcomeOf, taskSummary, taskView } from '../../core/task-view.js';
import type { TaskStatus } from '../../db/schema.js';
import type { InputValidator } from './input-validator.js';
import type { ReplyWaiters } from './reply-waiters.js';
import type { UsageLimitGate } from './usage-limit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TaskSettings {
  /** How long a synchronous call waits before it becomes a task (default 30 s). */
  syncWaitMs: number;
  /** This process's reply queue, named in every synchronous job. */
  replyQueue: ExecJob['reply_to'] & string;
  /** How long a revoked task's row keeps its state for readers. */
  retentionMs: number;
  /** When a synchronous run handed to its caller as a task is queued again, durably (default `DETACHED_JOB_DELAY_MS`). */
  detachedJobDelayMs?: number;
}

export interface TaskServiceOptions {
  db: Db;
  bus: Bus;
  events: EventOutbox;
  /** Where commands are found: the registry's catalogue, or a user's sandbox. */
  catalog: CommandCatalog;
  validator: InputValidator;
  waiters: ReplyWaiters;
  limits: UsageLimitGate;
  settings: TaskSettings;
  log: Logger;
}

export interface RunRequest {
  namespace: string;
  name: string;
  /** The pack, when the caller named it (MCP tool names carry it). */
  pack?: string;
  input: unknown;
  /** The caller asked for a task (`?async=true` or `Prefer: respond-async`). */
  preferAsync: boolean;
  idempotencyKey?: string;
  /** Hears the command's progress reports while a synchronous caller waits (MCP `notifications/progress`). */
  onProgress?: (progress: TaskProgress) => void;
  /** A last say once the input passed, before anything runs (the sandbox's monthly quota, MCP's task support). */
  admit?: (command: ResolvedCommand) => Promise<void>;
}

export type RunAnswer =
  | { kind: 'outcome'; outcome: RunOutcome; replayed: boolean }
  | { kind: 'task'; task: TaskRow; replayed: boolean };

/**
 * Until this long before a synchronous caller stops waiting, a run keeps no row: nobody but the
 * caller knows its id. Also covers clocks of API and worker hosts that disagree by less.
 */
export const UNSTORED_MARGIN_MS = 5000;

/**
 * When the job of a synchronous run handed to its caller as a task goes on its queue again,
 * durably. Its first job was transient (kept in the broker's memory only), so a broker restart
 * may have lost it. By then every run of the first job has ended: a rowless run starts before
 * `store_from`, which is before the caller is handed the task, and is stopped at its timeout (the
 * fast queue's bound at most) and a second after; the second job finds that run's end recorded
 * and runs nothing. It runs the task only when no worker ran the first.
 */
export const DETACHED_JOB_DELAY_MS = (QUEUE_MAX_TIMEOUT_SECONDS.fast + 30) * 1000;

/** Seconds a caller whose run could not be queued is asked to wait (`Retry-After`): about what the bus takes to connect again after a short outage. */
export const UNQUEUED_RETRY_AFTER_SECONDS = 2;

/** A run of a schedule: fired for a tick (`scheduledFor`), or triggered by hand (null). */
export interface ScheduledRun {
  namespace: string;
  name: string;
  input: unknown;
  scheduleId: string;
  scheduledFor: Date | null;
}

/** The row a run of `command` for `identity` is given. */
function newTask(identity: Identity, command: ResolvedCommand, input: unknown, async: boolean): NewTask {
  return {
    userId: identity.userId,
    tenantId: identity.tenantId,
    namespace: command.namespace,
    command: command.name,
    packId: command.pack.id,
    packName: command.pack.name,
    packVersion: command.pack.version,
    packVersionId: command.pack.version_id,
    entry: command.entry,
    queue: command.queue,
    async,
    input: input as object,
    maxRetries: command.retries,
    timeoutMs: command.timeout * 1000,
    correlationId: currentCorrelationId() ?? randomUUID(),
  };
}

/** A task belongs to the user and the tenant that started it (Part 1, Tasks). */
function isOwner(caller: Identity, task: TaskRow): boolean {
  return task.userId === caller.userId && task.tenantId === caller.tenantId;
}

const idempotencyConflict = (message: string) => ConflictError.coded('IDEMPOTENCY_CONFLICT', message);

/**
 * A synchronous call whose wait ended hands its caller the task: the row is made, or the
 * worker's row marked as the caller's. When the worker already ended the run, the task's end
 * (`task.completed` / `task.failed`) is announced here, since the worker did not know: written
 * in the same transaction, published once it commits.
 */
export function detachTask(events: EventOutbox, task: UnstoredTask): Promise<TaskRow> {
  return events.transaction(async (tx, out) => {
    const detached = await new TaskRepository(tx).detach(task);
    announceTaskEnd(out, detached);
    return detached;
  });
}

/**
 * Tasks, from the API's side: running a command for a caller (found, 404 unless visible; input
 * validated, 400; then either the outcome waited for, for fast commands, or a task handed back,
 * for medium and long ones, when asked to, or when a fast one outlives the sync wait), and
 * reading and cancelling a task. A task belongs to the user and tenant that started it; anybody
 * else is told 403, an unknown id 404.
 */
export class TaskService {
  private readonly db: Db;
  private readonly bus: Bus;
  private readonly events: EventOutbox;
  private readonly catalog: CommandCatalog;
  private readonly validator: InputValidator;
  private readonly waiters: ReplyWaiters;
  private readonly limits: UsageLimitGate;
  private readonly settings: TaskSettings;
  private readonly log: Logger;

  constructor(options: TaskServiceOptions) {
    ({ db: this.db, bus: this.bus, events: this.events, catalog: this.catalog, validator: this.validator, waiters: this.waiters, limits: this.limits, settings: this.settings, log: this.log } = options);
  }

  /** Runs a command for the caller, in the span `execution.run`; the answer names the command as it was resolved. */
  run(identity: Identity, request: RunRequest): Promise<RunAnswer & { command: ResolvedCommand }> {
    return traced('execution.run', { attributes: { 'svc.tenant.id': identity.tenantId } }, async () => {
      const command = await this.resolve(identity, request);
      annotate({ ...runAttributes({ namespace: command.namespace, command: command.name, packVersion: command.pack.version, tenantId: identity.tenantId }), 'svc.queue': command.queue });
      const answer = await this.runResolved(identity, request, command);
      annotate({ 'svc.run.mode': answer.kind === 'outcome' ? 'sync' : 'task' });
      return { ...answer, command };
    });
  }

  /** The command a task ran, as the caller may see it now; null when it is gone or out of their sight. */
  commandOf(caller: Identity, task: TaskRow): Promise<ResolvedCommand | null> {
    return this.catalog.resolve(caller, { namespace: task.namespace, name: task.command, ...(task.packName ? { pack: task.packName } : {}) });
  }

  private async runResolved(identity: Identity, request: RunRequest, command: ResolvedCommand): Promise<RunAnswer> {
    this.checkInput(command, request.input);
    await request.admit?.(command);
    await this.limits.assertWithin(identity.tenantId);

    const commandPath = `${command.namespace}/${command.name}`;
    if (request.idempotencyKey) {
      const replay = await this.replay(identity, request.idempotencyKey, commandPath);
      if (replay) return replay;
    }

    const sync = command.queue === 'fast' && !request.preferAsync;
    const task = newTask(identity, command, request.input, !sync);
    if (sync && !request.idempotencyKey) return this.runUnstored({ id: randomUUID(), ...task }, identity.tier, request.onProgress);

    const tasks = new TaskRepository(this.db);
    const stored = await tasks.insert(task);
    if (request.idempotencyKey) {
      const claimed = await new IdempotencyRepository(this.db).claim({ userId: identity.userId, key: request.idempotencyKey, taskId: stored.id, commandPath }, new Date(Date.now() - IDEMPOTENCY_WINDOW_MS));
      if (!claimed) {
        await tasks.revoke(stored.id, 0);
        throw idempotencyConflict('A request with this Idempotency-Key is already in progress');
      }
    }

    // A job that could not be queued (the broker away) leaves no task behind: the caller is told
    // to try again (503), and a retry with the same Idempotency-Key starts afresh.
    const unqueued = async (err: unknown): Promise<never> => {
      await tasks.discard(stored.id);
      if (request.idempotencyKey) await new IdempotencyRepository(this.db).release(identity.userId, request.idempotencyKey, stored.id);
      throw err;
    };
    if (!sync) {
      await this.enqueue(command.queue, { task_id: stored.id, tenant_id: identity.tenantId, tier: identity.tier }).catch(unqueued);
      return { kind: 'task', task: stored, replayed: false };
    }
    const outcome = await this.sendAndWait({ task_id: stored.id, reply_to: this.settings.replyQueue, tenant_id: identity.tenantId, tier: identity.tier }, command.queue, request.onProgress).catch(unqueued);
    if (outcome) return { kind: 'outcome', outcome, replayed: false };
    // Still running past the sync wait: the caller gets a task to poll instead of an error.
    await tasks.markAsync(stored.id);
    return { kind: 'task', task: stored, replayed: false };
  }

  /**
   * A schedule's run, as a task of `identity` (the schedule's creator as they stand now): the
   * command found as for any run (NotFoundError when it is out of their reach), and the input
   * checked again, since the pack may have changed. A refusal a caller would be told of (the input
   * no longer fits, the tenant's usage past its hard limit) is recorded as a failed run and
   * announced (`task.failed`) instead of thrown. Undefined when the tick already has its run.
   */
  async runScheduled(identity: Identity, run: ScheduledRun): Promise<TaskRow | undefined> {
    const command = await this.resolve(identity, run);
    const task = { ...newTask(identity, command, run.input, true), scheduleId: run.scheduleId, scheduledFor: run.scheduledFor };
    try {
      this.checkInput(command, run.input);
      await this.limits.assertWithin(identity.tenantId);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return this.events.transaction(async (tx, out) => {
        const refused = await new TaskRepository(tx).insertEnded(task, { status: 'failure', error: { type: err.type, message: err.message, kind: 'command' }, durationMs: 0, retentionMs: this.settings.retentionMs });
        if (refused) announceTaskEnd(out, refused);
        return refused;
      });
    }
    const tasks = new TaskRepository(this.db);
    const stored = await tasks.tryInsert(task);
    if (!stored) return undefined;
    await this.enqueue(command.queue, { task_id: stored.id, tenant_id: identity.tenantId, tier: identity.tier }).catch(async (err: unknown) => {
      // Nothing queued: no run is left pending for ever, and the tick is missed (the claimer logs it).
      await tasks.discard(stored.id);
      throw err;
    });
    return stored;
  }

  /** Whether `identity` may run the command with this input now, as a run would check it (404 and 400 as a run's). */
  async check(identity: Identity, request: { namespace: string; name: string; input: unknown }): Promise<void> {
    this.checkInput(await this.resolve(identity, request), request.input);
  }

  private async resolve(identity: Identity, request: { namespace: string; name: string; pack?: string }): Promise<ResolvedCommand> {
    const command = await this.catalog.resolve(identity, { namespace: request.namespace, name: request.name, pack: request.pack });
    if (!command) throw new NotFoundError(`Command ${request.namespace}/${request.name} not found`, { namespace: request.namespace, name: request.name });
    return command;
  }

  private checkInput(command: ResolvedCommand, input: unknown): void {
    // The arrays of an input (REST body or MCP arguments) are held to a length before its schema runs.
    assertJsonShape(input, { maxDepth: MAX_JSON_DEPTH, maxArrayItems: MAX_INPUT_ARRAY_ITEMS }, 'input');
    this.validator.validate(`${command.pack.id}/${command.pack.version_id}/${command.name}`, command.input_schema, input);
  }

  /**
   * A synchronous run without a row: the job carries the task, and the worker stores it only
   * when it fails or runs into the last `UNSTORED_MARGIN_MS` of the wait. The job is transient:
   * its caller waits for it, and were it lost with a broker restart, the caller would be handed
   * a task whose second job runs it (`DETACHED_JOB_DELAY_MS`).
   */
  private async runUnstored(task: UnstoredTask, tier: Tier, onProgress?: (progress: TaskProgress) => void): Promise<RunAnswer> {
    const storeFrom = Date.now() + this.settings.syncWaitMs - Math.min(UNSTORED_MARGIN_MS, this.settings.syncWaitMs / 2);
    const job = { task_id: task.id, reply_to: this.settings.replyQueue, sync: { task, store_from: storeFrom, attempt: 1 }, tenant_id: task.tenantId, tier };
    const outcome = await this.sendAndWait(job, task.queue, onProgress, { transient: true });
    if (outcome) return { kind: 'outcome', outcome, replayed: false };
    // Past the wait the caller gets the task instead.
    const detached = await detachTask(this.events, task);
    if (!isTerminal(detached)) await this.queueAgain(detached, tier);
    return { kind: 'task', task: detached, replayed: false };
  }

  /**
   * The durable second job of a task its caller was handed past the wait. Failing to queue it
   * does not fail the caller, who holds the task: the first job runs it unless the broker lost it.
   */
  private async queueAgain(task: TaskRow, tier: Tier): Promise<void> {
    const delayMs = this.settings.detachedJobDelayMs ?? DETACHED_JOB_DELAY_MS;
    try {
      await this.bus.send(`exec.${task.queue}`, { task_id: task.id, tenant_id: task.tenantId, tier }, { delayMs });
    } catch (err) {
      this.log.warn('second job of a detached run not queued', { task_id: task.id, error: (err as Error).message });
    }
  }

  /** The outcome of a job a caller waits for; null past the sync wait. A run the worker would not start is 503 with its `retry_after`. */
  private async sendAndWait(job: QueueInput<`exec.${Queue}`>, queue: Queue, onProgress?: (progress: TaskProgress) => void, send?: SendOptions): Promise<RunOutcome | null> {
    const waiting = this.waiters.wait(job.task_id, this.settings.syncWaitMs, onProgress);
    try {
      await this.enqueue(queue, job, send);
    } catch (err) {
      this.waiters.cancel(job.task_id);
      throw err;
    }
    const outcome = await waiting;
    if (outcome?.status === 'busy' && outcome.refusal) {
      const { message, ...details } = outcome.refusal;
      throw new ServiceUnavailableError(message, details);
    }
    return outcome;
  }

  /**
   * Puts a job on its queue. Whatever keeps it off (the broker away past the bus's wait, the
   * connection lost before the broker confirmed it, a queue declaration cut short) is one answer
   * to the caller: nothing was queued, try again shortly (503 with `Retry-After`).
   */
  private async enqueue(queue: Queue, job: QueueInput<`exec.${Queue}`>, send?: SendOptions): Promise<void> {
    try {
      await this.bus.send(`exec.${queue}`, job, send);
    } catch (err) {
      throw new ServiceUnavailableError('The run could not be queued; try again shortly', { retry_after: UNQUEUED_RETRY_AFTER_SECONDS }, { cause: err });
    }
  }

  private async replay(identity: Identity, key: string, commandPath: string): Promise<RunAnswer | undefined> {
    const previous = await new IdempotencyRepository(this.db).findLive(identity.userId, key, new Date(Date.now() - IDEMPOTENCY_WINDOW_MS));
    if (!previous) return undefined;
    if (previous.commandPath !== commandPath) throw idempotencyConflict(`This Idempotency-Key was used for ${previous.commandPath}`);
    const task = await new TaskRepository(this.db).find(previous.taskId);
    if (!task) return undefined;
    if (task.async) return { kind: 'task', task, replayed: true };
    const outcome = outcomeOf(task);
    if (!outcome) throw idempotencyConflict('The first request with this Idempotency-Key is still running');
    return { kind: 'outcome', outcome, replayed: true };
  }

  async get(caller: Identity, taskId: string) {
    const task = await this.owned(caller, taskId);
    if (isTerminal(task) && (task.resultPurged || (task.resultExpiresAt && task.resultExpiresAt.getTime() <= Date.now()))) {
      throw new GoneError('The task finished and its result has expired', { task_id: task.id, completed_at: task.completedAt?.toISOString() ?? null });
    }
    return taskView(task);
  }

  /** The caller's own tasks in their tenant, newest first: runs that became tasks (a synchronous run answered in time keeps no row). */
  async list(caller: Identity, query: { status?: TaskStatus; limit: number }) {
    const rows = await new TaskRepository(this.db).listOf(caller.userId, caller.tenantId, query);
    return { tasks: rows.map(taskSummary) };
  }

  async cancel(caller: Identity, taskId: string) {
    const task = await this.owned(caller, taskId);
    // Written with the change and published once it commits: every worker stops the task if it runs it.
    const revoked = await this.events.transaction(async (tx, out) => {
      const row = await new TaskRepository(tx).revoke(task.id, this.settings.retentionMs);
      if (row) out.publish('task.revoked', { task_id: task.id, tenant_id: task.tenantId, user_id: task.userId });
      return row;
    });
    if (!revoked) {
      const current = (await new TaskRepository(this.db).find(task.id)) ?? task;
      throw ConflictError.coded('TASK_TERMINAL', `Task already ${current.status}`, { task_id: task.id, status: current.status });
    }
    return { task_id: task.id, revoked: true as const };
  }

  /** How long a finished task keeps its result (and a cancelled one its state). */
  get retentionMs(): number {
    return this.settings.retentionMs;
  }

  /** The caller's task, or undefined for an unknown id or anybody else's (MCP tells both apart from nothing). */
  async find(caller: Identity, taskId: string): Promise<TaskRow | undefined> {
    const task = UUID.test(taskId) ? await new TaskRepository(this.db).find(taskId) : undefined;
    return task && isOwner(caller, task) ? task : undefined;
  }

  /** The caller's tasks as rows, newest first, a page of `limit` after the row `before` (MCP's `tasks/list`). */
  pageOf(caller: Identity, limit: number, before?: { createdAt: Date; id: string }): Promise<TaskRow[]> {
    return new TaskRepository(this.db).listOwned({ userId: caller.userId, tenantId: caller.tenantId }, limit, before);
  }

  private async owned(caller: Identity, taskId: string): Promise<TaskRow> {
    const task = UUID.test(taskId) ? await new TaskRepository(this.db).find(taskId) : undefined;
    if (!task) throw new NotFoundError('Task not found', { task_id: taskId });
    if (!isOwner(caller, task)) throw new PermissionError('This task belongs to another user');
    return task;
  }
}
