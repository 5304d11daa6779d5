import type { EventOutbox } from '@svc/bus';
import type { Identity } from '@svc/auth';
import { ConflictError, GoneError, NotFoundError, PermissionError } from '@svc/core';
import type { Db } from '@svc/db';
import { TaskRepository, type TaskRow } from '../../core/repositories/task.repository.js';
import { isTerminal, taskView } from '../../core/task-view.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reading and cancelling tasks. A task belongs to the user and tenant that started it; anybody
 * else is told 403, an unknown id 404.
 */
export class TaskService {
  constructor(
    private readonly db: Db,
    private readonly events: EventOutbox,
    private readonly retentionMs: number,
  ) {}

  async get(caller: Identity, taskId: string) {
    const task = await this.owned(caller, taskId);
    if (isTerminal(task) && (task.resultPurged || (task.resultExpiresAt && task.resultExpiresAt.getTime() <= Date.now()))) {
      throw new GoneError('The task finished and its result has expired', { task_id: task.id, completed_at: task.completedAt?.toISOString() ?? null });
    }
    return taskView(task);
  }

  async cancel(caller: Identity, taskId: string) {
    const task = await this.owned(caller, taskId);
    // Written with the change and published once it commits: every worker stops the task if it runs it.
    const revoked = await this.events.transaction(async (tx, out) => {
      const row = await new TaskRepository(tx).revoke(task.id, this.retentionMs);
      if (row) out.publish('task.revoked', { task_id: task.id, tenant_id: task.tenantId, user_id: task.userId });
      return row;
    });
    if (!revoked) {
      const current = (await new TaskRepository(this.db).find(task.id)) ?? task;
      throw ConflictError.coded('TASK_TERMINAL', `Task already ${current.status}`, { task_id: task.id, status: current.status });
    }
    return { task_id: task.id, revoked: true as const };
  }

  private async owned(caller: Identity, taskId: string): Promise<TaskRow> {
    const task = UUID.test(taskId) ? await new TaskRepository(this.db).find(taskId) : undefined;
    if (!task) throw new NotFoundError('Task not found', { task_id: taskId });
    if (task.userId !== caller.userId || task.tenantId !== caller.tenantId) throw new PermissionError('This task belongs to another user');
    return task;
  }
}
