import type { ExecJob, SyncRun } from '@svc/contracts';
import type { TaskEnding, TaskRow } from '../../core/repositories/task.repository.js';

/**
 * The rowless fast path of a synchronous run. The job carries the whole task (`SyncRun`); until
 * `store_from`, nobody but the waiting caller knows the task's id, so a run that succeeds by then
 * needs no row: no insert, no claim, no finish. Every other run (a failure, a retry, a run still
 * going at `store_from`) is stored as any task is, and the worker takes the row path.
 */

/** Whether a synchronous run has reached the time from which its caller may hold its id. */
function storing(sync: SyncRun): boolean {
  return Date.now() >= sync.store_from;
}

/** The synchronous run a job stands for, while it may still run without a row. */
export function unstoredRun(job: ExecJob): SyncRun | undefined {
  return job.sync && !storing(job.sync) ? job.sync : undefined;
}

/** Whether a run that ended so may end without a row. */
export function endsRowless(job: ExecJob, ending: TaskEnding): boolean {
  return ending.status === 'success' && unstoredRun(job) !== undefined;
}

/**
 * The row a synchronous run would have, while it has none. The task's fields are assigned onto
 * the rest, not spread into a literal that goes on with the rest: V8 builds that literal from a
 * parsed object some fifty times slower (BENCHMARKS.md, thirteenth round).
 */
export function unstoredRow(sync: SyncRun): TaskRow {
  const now = new Date();
  const started: Omit<TaskRow, keyof SyncRun['task']> = {
    // Synchronous runs are never a schedule's.
    scheduleId: null,
    scheduledFor: null,
    status: 'started',
    result: null,
    error: null,
    attempts: sync.attempt,
    durationMs: null,
    createdAt: now,
    startedAt: now,
    completedAt: null,
    resultExpiresAt: null,
    resultPurged: false,
    progress: null,
    logs: null,
    leaseOwner: null,
    leaseExpiresAt: null,
  };
  return Object.assign(started, sync.task);
}
