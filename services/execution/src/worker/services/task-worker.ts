import { HandBack, type Bus, type EventOutbox } from '@svc/bus';
import { TaskProgress, type ExecJob, type RunOutcome, type TaskError } from '@svc/contracts';
import type { Queue } from '@svc/pack-sdk';
import type { Tier } from '@svc/auth';
import { AppError, backoffDelayMs, parseInput, type Logger } from '@svc/core';
import { isConnectionFailure, type Db } from '@svc/db';
import { tasksFinished } from '@svc/metrics';
import { annotate } from '@svc/tracing';
import { endingColumns, TaskRepository, type TaskEnding, type TaskRow } from '../../core/repositories/task.repository.js';
import { CommandCancelledError, CommandError, CommandTimeoutError, PythonVersionError, ResultTooLargeError, RunnersBusyError } from '../runners/runner-errors.js';
import type { RunnerPool } from '../runners/runner-pool.js';
import { SandboxUnavailableError } from '../runners/runner-sandbox.js';
import { RunLog } from '../runners/run-log.js';
import type { PackSource } from '../../core/command-catalog.js';
import { announceEnd, announceStart } from '../../core/task-events.js';
import { isTerminal, outcomeOf } from '../../core/task-view.js';
import { runAttributes } from '../../core/run-attributes.js';
import type { PackManifests } from './pack-manifests.js';
import { PackSecrets } from './pack-secrets.js';
import { OUTPUT_SCHEMA_ERROR_TYPE, OutputSchemas } from './output-schemas.js';
import { isSandboxPack } from '../../core/sandbox-packs.js';
import { endsRowless, unstoredRow, unstoredRun } from './rowless-sync-run.js';
import type { TenantCaps, TenantShares } from './tenant-shares.js';
import { TaskLeases } from './task-leases.js';

export interface WorkerSettings {
  /** How long results of finished tasks are kept (default 24 h). */
  retentionMs: number;
  /** First retry delay; doubles with every attempt up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a claim on a task lasts unless renewed (`DEFAULT_LEASE_MS` when not set). */
  leaseMs?: number;
}

export interface TaskWorkerOptions {
  db: Db;
  bus: Bus;
  events: EventOutbox;
  pool: RunnerPool;
  packs: PackSource;
  /** How much of this worker each tenant may hold. */
  shares: TenantShares;
  /** The manifests of unpacked pack versions, read once each. */
  manifests: PackManifests;
  settings: WorkerSettings;
  log: Logger;
}

/** A job put back (its tenant's share taken, or its task leased by another worker) waits 250 ms, doubling each time, up to 4 s (few values: each is a queue on the broker). */
const WAITING = { baseMs: 250, capMs: 4000 };

/** How long a run's end waits for the database to come back before its job is failed (and run again). */
const RECORD_WAIT_MS = 60_000;

/** The abort reason of a run stopped because its worker is stopping: its job goes back to the queue. */
const STOPPING = 'the worker is stopping';

/** Runners are keyed by pack and version, so an uninstall can stop every version's runner. */
export function packKeyOf(packId: string, versionId: string): string {
  return `${packId}/${versionId}`;
}

type Ending = { status: 'success'; result: unknown } | { status: 'failure' | 'timeout'; error: TaskError; retryable: boolean };

/** What a failed run tells the caller: only a command's own failure carries its message. */
function endingOf(err: unknown): Ending {
  if (err instanceof CommandTimeoutError) return { status: 'timeout', error: { type: 'TimeoutError', message: err.message, kind: 'timeout' }, retryable: false };
  if (err instanceof CommandError) return { status: 'failure', error: { type: err.type, message: err.message, kind: 'command' }, retryable: true };
  if (err instanceof ResultTooLargeError) return { status: 'failure', error: { type: 'ResultTooLargeError', message: err.message, kind: 'command' }, retryable: false };
  // The caller is told why; another attempt may land on a worker whose Python fits.
  if (err instanceof PythonVersionError) return { status: 'failure', error: { type: 'PythonVersionError', message: err.message, kind: 'command' }, retryable: true };
  // Trying again on the same worker cannot help; its log says why it cannot isolate packs.
  if (err instanceof SandboxUnavailableError) return { status: 'failure', error: { type: err.type, message: 'The command could not be run', kind: 'internal' }, retryable: false };
  const type = err instanceof AppError ? err.type : 'InternalError';
  return { status: 'failure', error: { type, message: 'The command could not be run', kind: 'internal' }, retryable: true };
}

/**
 * Takes jobs from `exec.*` and runs them in pack runners. The task row makes redelivery safe: a
 * finished task is never run again, a task revoked while it ran keeps its revoked state, and a
 * task another worker runs (its lease, `TaskLeases`) is not run beside it. A synchronous run
 * without a row (see `SyncRun`) is run again when redelivered; its caller takes the first answer.
 */
export class TaskWorker {
  private readonly running = new Map<string, AbortController>();
  /** Every job this worker handles now, by task id, from delivery to acknowledgement. */
  private readonly inHand = new Map<string, Promise<void>>();
  /** Set on stop: jobs delivered from now on are handed back untouched. */
  private stopping = false;
  /** Set once the stop grace has run out: runs still going are stopped and handed back. */
  private handingBack = false;
  private readonly db: Db;
  private readonly bus: Bus;
  private readonly events: EventOutbox;
  private readonly pool: RunnerPool;
  private readonly packs: PackSource;
  private readonly shares: TenantShares;
  private readonly settings: WorkerSettings;
  private readonly log: Logger;
  private readonly secrets: PackSecrets;
  private readonly outputs: OutputSchemas;
  private readonly manifests: PackManifests;
  private readonly leases: TaskLeases;

  constructor(options: TaskWorkerOptions) {
    ({ db: this.db, bus: this.bus, events: this.events, pool: this.pool, packs: this.packs, shares: this.shares, manifests: this.manifests, settings: this.settings, log: this.log } = options);
    this.secrets = new PackSecrets(options.bus, options.manifests);
    this.outputs = new OutputSchemas(options.manifests);
    this.leases = new TaskLeases(options.db, options.log, options.settings.leaseMs);
  }

  /** A job of `exec.<queue>`; `redelivered`: it was handed out before and not acknowledged (its worker died). */
  async handle(job: ExecJob, queue: Queue, redelivered = false): Promise<void> {
    if (this.stopping) throw new HandBack(`${STOPPING}; job ${job.task_id} not started`);
    // Once a broker connection is lost, the broker hands out again the jobs this worker still
    // runs: the run in hand records the end, and this delivery shares its fate (acknowledged
    // once it has ended) instead of starting a second run.
    const inHand = this.inHand.get(job.task_id);
    if (inHand) return inHand;
    const run = this.run(job, queue, redelivered);
    this.inHand.set(job.task_id, run);
    try {
      await run;
    } finally {
      if (this.inHand.get(job.task_id) === run) this.inHand.delete(job.task_id);
    }
  }

  private async run(job: ExecJob, queue: Queue, redelivered: boolean): Promise<void> {
    const tier = job.tier ?? 'free';
    const caps = this.shares.caps(tier, queue);
    // A tenant past its share waits (or, asking synchronously, is refused) before its task is touched.
    const tenant = job.tenant_id ?? job.sync?.task.tenantId;
    if (tenant !== undefined && !this.shares.admits(tenant, tier, queue)) return this.refuse(job, queue, new RunnersBusyError('tenant_calls', caps.calls));
    const taken = await this.take(job, queue, redelivered);
    if (!taken) return;
    if (!taken.stored) return this.runTaken(job, queue, taken, tier, caps);
    this.leases.hold(taken.task.id);
    try {
      await this.runTaken(job, queue, taken, tier, caps);
    } finally {
      this.leases.release(taken.task.id);
    }
  }

  /** Runs a task taken for this job, and records, answers and announces its end. */
  private async runTaken(job: ExecJob, queue: Queue, { task, stored }: { task: TaskRow; stored: boolean }, tier: Tier, caps: TenantCaps): Promise<void> {
    annotate(runAttributes(task));
    let leave: () => void;
    try {
      leave = this.shares.enter(task.tenantId, tier, queue);
    } catch (err) {
      return this.refuse(job, queue, err as RunnersBusyError, stored ? task : undefined);
    }

    let announcingStart: Promise<unknown> = Promise.resolve();
    const started = performance.now();
    const controller = new AbortController();
    this.running.set(task.id, controller);
    // Which worker ran what, for an operator following one task through replicas.
    this.log.debug('run begins', { task_id: task.id, queue });
    if (this.handingBack) controller.abort(STOPPING);
    let ending: Ending;
    const log = new RunLog();
    try {
      const packDir = await this.packs.dirFor(task.packId, task.packVersionId);
      const { runtime, python } = await this.manifests.of(packDir);
      // A sandbox pack is any code its user synced: it is handed no tenant's secrets.
      const secrets = isSandboxPack(task.packId) ? undefined : await this.secrets.forRun({ packDir, namespace: task.namespace, tenantId: task.tenantId });
      const run = await this.pool.run({
        packKey: packKeyOf(task.packId, task.packVersionId),
        packDir,
        runtime,
        python,
        entry: task.entry,
        command: task.command,
        input: task.input,
        context: { tenant: task.tenantId, user: task.userId, correlationId: task.correlationId, ...(secrets ? { secrets } : {}) },
        timeoutMs: task.timeoutMs,
        signal: controller.signal,
        log,
        tenantRunners: caps.runners,
        hooks: { 'task.progress': (_call, args) => this.progress(job, task, stored, args) },
        // Sent while the command runs, so that it costs the run no time; awaited before the end is announced.
        onAdmitted: () => {
          announcingStart = announceStart(this.events, task).catch((err: Error) => this.log.warn('run start not announced', { task_id: task.id, error: err.message }));
        },
      });
      const mismatch = await this.outputs.mismatch(packDir, task.command, run.value);
      ending = mismatch ? { status: 'failure', error: { type: OUTPUT_SCHEMA_ERROR_TYPE, message: mismatch, kind: 'command' }, retryable: false } : { status: 'success', result: run.value };
    } catch (err) {
      if (err instanceof RunnersBusyError) return this.refuse(job, queue, err, stored ? task : undefined);
      if (err instanceof CommandCancelledError && controller.signal.reason === STOPPING) return this.handBack(task, stored);
      if (err instanceof CommandCancelledError) return this.reply(job, await new TaskRepository(this.db).find(task.id));
      const failed = endingOf(err);
      ending = failed;
      if (failed.status !== 'success' && failed.error.kind === 'internal') this.log.error('task run failed', { task_id: task.id, error: (err as Error).message });
    } finally {
      this.running.delete(task.id);
      leave();
    }
    const durationMs = performance.now() - started;

    if (ending.status !== 'success' && ending.retryable && task.attempts <= task.maxRetries) {
      return this.retry(job, task, stored);
    }
    // Assigned, not spread before the other fields, which Node 20 copies some five times slower (rowless-sync-run.ts).
    const ended: TaskEnding = Object.assign({ durationMs, retentionMs: this.settings.retentionMs, logs: log.lines() }, ending);
    // Fast path (rowless-sync-run.ts): a synchronous run that succeeded in time needs no row; it
    // is written only if its answer cannot be delivered.
    const rowless = endsRowless(job, ended);
    const finished = rowless ? Object.assign({}, task, endingColumns(ended)) : await this.whileDatabaseAway(() => this.end(job, task, ended));
    if (!finished) return this.reply(job, await new TaskRepository(this.db).find(task.id));
    tasksFinished.inc({ mode: job.sync ? 'sync' : 'task', status: finished.status });
    annotate({ 'svc.task.status': finished.status });
    // The caller first, then the events: their confirmations need not hold the answer up. A
    // caller whose answer is lost is handed the task when its wait ends, so the task keeps it.
    await this.reply(job, finished, rowless ? () => this.end(job, task, ended) : undefined);
    await announcingStart;
    await announceEnd(this.events, finished);
  }

  /**
   * Stops taking jobs: each delivered from now on goes back to its queue untouched, and runs
   * still going `graceMs` from now are stopped and their jobs handed back, their tasks pending
   * again with the attempt not counted, for another worker to run from the start. Returns what
   * calls that deadline off, once the jobs in hand have settled.
   */
  stopTaking(graceMs: number): () => void {
    this.stopping = true;
    const deadline = setTimeout(() => {
      this.handingBack = true;
      for (const controller of this.running.values()) controller.abort(STOPPING);
    }, graceMs);
    return () => clearTimeout(deadline);
  }

  /** A run stopped for the worker's stop: its task is pending again and its job goes back to the queue. */
  private async handBack(task: TaskRow, stored: boolean): Promise<never> {
    if (stored) await new TaskRepository(this.db).unclaim(task.id);
    this.log.info('run stopped at the end of the stop grace; its job goes back to the queue', { task_id: task.id });
    throw new HandBack(STOPPING);
  }

  /**
   * Nothing ran: the tenant holds its share of this worker, or every runner is busy. A
   * synchronous caller without a task is told at once (503 with Retry-After); any other job is
   * put back on its queue to wait, longer each time, and its task (if this worker took it)
   * becomes pending again without the attempt counted.
   */
  private async refuse(job: ExecJob, queue: Queue, busy: RunnersBusyError, claimed?: TaskRow): Promise<void> {
    if (unstoredRun(job) && job.reply_to) {
      const refusal = { reason: busy.reason, message: busy.message, limit: Number(busy.details.limit), retry_after: Number(busy.details.retry_after) };
      await this.bus.send(job.reply_to, { task_id: job.task_id, status: 'busy', refusal, duration_ms: 0 }).catch((err: Error) => this.log.warn('refusal not sent', { task_id: job.task_id, error: err.message }));
      return;
    }
    if (claimed) await new TaskRepository(this.db).unclaim(claimed.id);
    this.log.debug('job waits for its tenant\'s share', { task_id: job.task_id, reason: busy.reason, waits: job.waits ?? 0 });
    await this.putBack(job, queue);
  }

  /** Puts a job back on its queue to be taken again later, waiting longer each time. */
  private async putBack(job: ExecJob, queue: Queue): Promise<void> {
    const waits = (job.waits ?? 0) + 1;
    await this.bus.send(`exec.${queue}`, { ...job, waits }, { delayMs: backoffDelayMs(WAITING, waits) });
  }

  /**
   * The task a job stands for, taken for a run (`stored` when it has a row); undefined when it
   * must not run now: finished, revoked, unknown, or run by another worker.
   */
  private async take(job: ExecJob, queue: Queue, redelivered: boolean): Promise<{ task: TaskRow; stored: boolean } | undefined> {
    // Fast path (rowless-sync-run.ts): a synchronous run before `store_from` runs without a row.
    const unstored = unstoredRun(job);
    if (unstored) return { task: unstoredRow(unstored), stored: false };
    const tasks = new TaskRepository(this.db);
    const { lease } = this.leases;
    // Claiming first saves a read on every run; only a job that cannot be claimed (finished,
    // revoked, unknown, or leased by another worker) costs the extra look.
    const task = job.sync ? await tasks.claimUnstored(job.sync.task, job.sync.attempt, lease) : await tasks.claim(job.task_id, lease);
    if (task) return { task, stored: true };
    const current = await tasks.find(job.task_id);
    if (current && !isTerminal(current)) {
      // The broker handed this job out again while another worker runs its task (that worker
      // lost its broker connection): looked at again later, when the task has ended (this job is
      // then acknowledged) or that worker's lease has lapsed (it died: the task runs here).
      this.log.debug('job put back: another worker runs its task', { task_id: job.task_id, lease_owner: current.leaseOwner });
      await this.putBack(job, queue);
      return undefined;
    }
    if (!current) this.log.warn('job for an unknown task dropped', { task_id: job.task_id });
    await this.reply(job, current);
    // Its worker may have died between recording the end and announcing it: announcing again
    // makes the events at least once (a death after announcing repeats them; consumers go by
    // task_id). A job put back stands for such a delivery too: it may be the only one left.
    if ((redelivered || job.waits) && current && isTerminal(current)) await announceEnd(this.events, current);
    return undefined;
  }

  /**
   * A run that ended while the database was out of reach keeps its end and writes it again
   * every second (up to `RECORD_WAIT_MS`, or the end of the stop grace), rather than failing the
   * job, whose redelivery would run the command a second time.
   */
  private async whileDatabaseAway<T>(write: () => Promise<T>): Promise<T> {
    const until = Date.now() + RECORD_WAIT_MS;
    for (;;) {
      try {
        return await write();
      } catch (err) {
        if (!isConnectionFailure(err) || Date.now() > until || this.handingBack) throw err;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  /** Records the end; undefined when the task was revoked meanwhile. */
  private end(job: ExecJob, task: TaskRow, ending: TaskEnding): Promise<TaskRow | undefined> {
    const tasks = new TaskRepository(this.db);
    if (!job.sync) return tasks.finish(task.id, ending);
    return tasks.recordUnstored(job.sync.task, { attempt: task.attempts, startedAt: task.startedAt ?? new Date() }, ending);
  }

  /**
   * `ctx.progress` of a run: to the API process whose caller waits for it (a synchronous run,
   * which MCP turns into `notifications/progress`), and onto the task's row when it has one
   * (`GET /api/v1/tasks/{id}`, MCP `tasks/get`). A caller gone away costs the pack nothing.
   */
  private async progress(job: ExecJob, task: TaskRow, stored: boolean, args: unknown): Promise<null> {
    const progress = parseInput(TaskProgress, args, 'ctx.progress');
    const waiting = job.reply_to
      ? this.bus.send(job.reply_to, { task_id: task.id, status: 'progress', progress }).catch((err: Error) => this.log.debug('progress not passed on', { task_id: task.id, error: err.message }))
      : undefined;
    await Promise.all([waiting, stored ? new TaskRepository(this.db).recordProgress(task.id, progress) : undefined]);
    return null;
  }

  /** Aborts a task running in this worker (its runner is killed if the command ignores the signal). */
  cancel(taskId: string): void {
    this.running.get(taskId)?.abort();
  }

  /** Re-queues a failed run after an exponential backoff; the broker holds it meanwhile, and the delivery until it has it. */
  private async retry(job: ExecJob, task: TaskRow, stored: boolean): Promise<void> {
    const delay = backoffDelayMs({ baseMs: this.settings.retryBaseMs, capMs: this.settings.retryMaxMs }, task.attempts);
    const tasks = new TaskRepository(this.db);
    if (stored && !(await tasks.requeue(task.id))) return this.reply(job, await tasks.find(task.id));
    this.log.info('task failed; retrying', { task_id: task.id, attempt: task.attempts, delay_ms: delay });
    await this.bus.send(`exec.${task.queue}`, job.sync ? { ...job, sync: { ...job.sync, attempt: job.sync.attempt + 1 } } : job, { delayMs: delay });
  }

  private async reply(job: ExecJob, task: TaskRow | undefined, onLost?: () => Promise<unknown>): Promise<void> {
    const outcome: RunOutcome | undefined = task && outcomeOf(task);
    if (!job.reply_to || !outcome) return;
    try {
      await this.bus.send(job.reply_to, outcome);
    } catch (err) {
      this.log.warn('reply not sent', { error: (err as Error).message, task_id: outcome.task_id });
      await onLost?.();
    }
  }
}
