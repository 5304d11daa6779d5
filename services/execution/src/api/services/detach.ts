import type { EventOutbox } from '@svc/bus';
import { TaskRepository, type TaskRow, type UnstoredTask } from '../../core/repositories/task.repository.js';
import { announceTaskEnd } from '../../core/task-events.js';

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
