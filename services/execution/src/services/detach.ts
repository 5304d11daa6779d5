import type { Bus } from '@svc/bus';
import type { Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { TaskRepository, type TaskRow, type UnstoredTask } from '../repositories/task.repository.js';
import { announceTaskEnd } from './task-events.js';
import { isTerminal } from './task-view.js';

/**
 * A synchronous call whose wait ended hands its caller the task: the row is made, or the
 * worker's row marked as the caller's. When the worker already ended the run, the task's end
 * (`task.completed` / `task.failed`) is announced here, since the worker did not know.
 */
export async function detachTask(db: Db, bus: Bus, log: Logger, task: UnstoredTask): Promise<TaskRow> {
  const detached = await new TaskRepository(db).detach(task);
  if (isTerminal(detached) && detached.status !== 'revoked') await announceTaskEnd(bus, log, detached);
  return detached;
}
