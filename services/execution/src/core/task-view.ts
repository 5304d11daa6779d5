import { TERMINAL_STATUSES } from '../db/schema.js';
import type { TaskRow } from './repositories/task.repository.js';
import type { RunOutcome } from '@svc/contracts';

export function isTerminal(task: Pick<TaskRow, 'status'>): boolean {
  return TERMINAL_STATUSES.includes(task.status);
}

/** The outcome of a finished task, as a waiting caller would have received it. */
export function outcomeOf(task: TaskRow): RunOutcome | undefined {
  if (task.status === 'pending' || task.status === 'started') return undefined;
  return {
    task_id: task.id,
    status: task.status,
    ...(task.status === 'success' ? { result: task.result } : {}),
    ...(task.error ? { error: task.error } : {}),
    duration_ms: task.durationMs ?? 0,
    ...(task.logs ? { logs: task.logs } : {}),
  };
}

/** The spec's Task resource. */
export function taskView(task: TaskRow) {
  return {
    task_id: task.id,
    status: task.status,
    result: task.status === 'success' ? (task.result ?? null) : null,
    error: task.error ? { message: task.error.message, type: task.error.type } : null,
    started_at: task.startedAt?.toISOString() ?? null,
    completed_at: task.completedAt?.toISOString() ?? null,
    correlation_id: task.correlationId,
    progress: task.progress ?? null,
    logs: task.logs ?? [],
  };
}

export function statusUrl(taskId: string): string {
  return `/api/v1/tasks/${taskId}`;
}

/** A task in a list: what ran and how it stands, without its input or result. */
export function taskSummary(task: TaskRow) {
  return {
    task_id: task.id,
    command: `${task.namespace}.${task.command}`,
    status: task.status,
    created_at: task.createdAt.toISOString(),
    started_at: task.startedAt?.toISOString() ?? null,
    completed_at: task.completedAt?.toISOString() ?? null,
  };
}
