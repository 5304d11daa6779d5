import { randomUUID } from 'node:crypto';
import type { Bus, EventOutbox } from '@svc/bus';
import type { ExecJob, QueueInput, RunOutcome } from '@svc/contracts';
import type { Queue } from '@svc/pack-sdk';
import type { Identity } from '@svc/auth';
import { assertJsonShape, ConflictError, MAX_JSON_DEPTH, NotFoundError, currentCorrelationId, type Logger } from '@svc/core';
import { MAX_INPUT_ARRAY_ITEMS } from '@svc/pack-sdk';
import type { Db } from '@svc/db';
import { IdempotencyRepository } from '../../core/repositories/idempotency.repository.js';
import { TaskRepository, type NewTask, type TaskRow, type UnstoredTask } from '../../core/repositories/task.repository.js';
import type { CommandCatalog } from '../../core/command-catalog.js';
import type { InputValidator } from './input-validator.js';
import type { ReplyWaiters } from './reply-waiters.js';
import { detachTask } from './detach.js';
import { outcomeOf } from '../../core/task-view.js';
import type { UsageLimitGate } from './usage-limit.js';

/** An `Idempotency-Key` holds for a day. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export interface RunSettings {
  /** How long a synchronous call waits before it becomes a task (default 30 s). */
  syncWaitMs: number;
  /** This process's reply queue, named in every synchronous job. */
  replyQueue: ExecJob['reply_to'] & string;
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
  /** A last say once the input passed, before anything runs (the sandbox's monthly quota). */
  admit?: () => Promise<void>;
}

export type RunAnswer =
  | { kind: 'outcome'; outcome: RunOutcome; replayed: boolean }
  | { kind: 'task'; task: TaskRow; replayed: boolean };

/**
 * Until this long before a synchronous caller stops waiting, a run keeps no row: nobody but the
 * caller knows its id. Also covers clocks of API and worker hosts that disagree by less.
 */
export const UNSTORED_MARGIN_MS = 5000;

const idempotencyConflict = (message: string) => ConflictError.coded('IDEMPOTENCY_CONFLICT', message);

/**
 * Runs a command for a caller: finds it (404 unless visible), validates the input (400), and
 * either waits for the outcome (fast commands) or hands back a task (medium and long ones, or
 * when asked to, or when a fast one outlives the sync wait).
 */
export class CommandRunService {
  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly events: EventOutbox,
    private readonly catalog: CommandCatalog,
    private readonly validator: InputValidator,
    private readonly waiters: ReplyWaiters,
    private readonly settings: RunSettings,
    private readonly log: Logger,
    private readonly limits: UsageLimitGate,
  ) {}

  async run(identity: Identity, request: RunRequest): Promise<RunAnswer> {
    const command = await this.catalog.resolve(identity, { namespace: request.namespace, name: request.name, pack: request.pack });
    if (!command) throw new NotFoundError(`Command ${request.namespace}/${request.name} not found`, { namespace: request.namespace, name: request.name });
    // The arrays of an input (REST body or MCP arguments) are held to a length before its schema runs.
    assertJsonShape(request.input, { maxDepth: MAX_JSON_DEPTH, maxArrayItems: MAX_INPUT_ARRAY_ITEMS }, 'input');
    this.validator.validate(`${command.pack.id}/${command.pack.version_id}/${command.name}`, command.input_schema, request.input);
    await request.admit?.();
    await this.limits.assertWithin(identity.tenantId);

    const commandPath = `${command.namespace}/${command.name}`;
    if (request.idempotencyKey) {
      const replay = await this.replay(identity, request.idempotencyKey, commandPath);
      if (replay) return replay;
    }

    const sync = command.queue === 'fast' && !request.preferAsync;
    const task: NewTask = {
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
      async: !sync,
      input: request.input as object,
      maxRetries: command.retries,
      timeoutMs: command.timeout * 1000,
      correlationId: currentCorrelationId() ?? randomUUID(),
    };
    if (sync && !request.idempotencyKey) return this.runUnstored({ id: randomUUID(), ...task });

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
      await this.bus.send(`exec.${command.queue}`, { task_id: stored.id }).catch(unqueued);
      return { kind: 'task', task: stored, replayed: false };
    }
    const outcome = await this.sendAndWait({ task_id: stored.id, reply_to: this.settings.replyQueue }, command.queue).catch(unqueued);
    if (outcome) return { kind: 'outcome', outcome, replayed: false };
    // Still running past the sync wait: the caller gets a task to poll instead of an error.
    await tasks.markAsync(stored.id);
    return { kind: 'task', task: stored, replayed: false };
  }

  /**
   * A synchronous run without a row: the job carries the task, and the worker stores it only
   * when it fails or runs into the last `UNSTORED_MARGIN_MS` of the wait.
   */
  private async runUnstored(task: UnstoredTask): Promise<RunAnswer> {
    const storeFrom = Date.now() + this.settings.syncWaitMs - Math.min(UNSTORED_MARGIN_MS, this.settings.syncWaitMs / 2);
    const outcome = await this.sendAndWait({ task_id: task.id, reply_to: this.settings.replyQueue, sync: { task, store_from: storeFrom, attempt: 1 } }, task.queue);
    if (outcome) return { kind: 'outcome', outcome, replayed: false };
    // Past the wait the caller gets the task instead.
    return { kind: 'task', task: await detachTask(this.events, task), replayed: false };
  }

  private async sendAndWait(job: QueueInput<`exec.${Queue}`>, queue: Queue): Promise<RunOutcome | null> {
    const waiting = this.waiters.wait(job.task_id, this.settings.syncWaitMs);
    try {
      await this.bus.send(`exec.${queue}`, job);
    } catch (err) {
      this.waiters.cancel(job.task_id);
      throw err;
    }
    return waiting;
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
}

