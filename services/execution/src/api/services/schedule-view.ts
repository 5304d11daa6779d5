import type { ScheduleRow } from '../../core/repositories/schedule.repository.js';
import type { TaskRow } from '../../core/repositories/task.repository.js';
import { taskView } from '../../core/task-view.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A schedule as the API answers it. */
export function scheduleView(row: ScheduleRow) {
  return {
    id: row.id,
    command: `${row.namespace}.${row.command}`,
    input: row.input,
    cron: row.cron,
    timezone: row.timezone,
    enabled: row.enabled,
    overlap: row.overlap,
    catch_up: row.catchUp,
    description: row.description,
    /** Why it is paused; null while enabled. */
    paused_reason: row.pausedReason,
    next_run_at: iso(row.nextRunAt),
    last_run_at: iso(row.lastRunAt),
    last_task_id: row.lastTaskId,
    missed_ticks: row.missedTicks,
    skipped_ticks: row.skippedTicks,
    proposed_by: row.proposedBy,
    created_by: row.userId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A schedule's run: the task as the task API shows it, with the tick it was fired for (null when triggered). */
export function scheduleRunView(task: TaskRow) {
  return { ...taskView(task), scheduled_for: iso(task.scheduledFor), created_at: task.createdAt.toISOString() };
}
