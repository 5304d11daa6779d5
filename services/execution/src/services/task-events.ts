import type { Bus } from '@svc/bus';
import type { Logger } from '@svc/core';
import type { TaskRow } from '../repositories/task.repository.js';

type TaskEvent = [name: 'command.executed' | 'task.completed' | 'task.failed', payload: Record<string, unknown>];

function summary(task: TaskRow) {
  return { command: `${task.namespace}.${task.command}`, tenant_id: task.tenantId, user_id: task.userId, duration_ms: task.durationMs ?? 0, task_id: task.id, status: task.status };
}

/** `task.completed` or `task.failed`: the end of a task whose caller holds its id. */
function taskEnded(task: TaskRow): TaskEvent {
  const error = task.error ? { error: { type: task.error.type, message: task.error.message } } : {};
  return [task.status === 'success' ? 'task.completed' : 'task.failed', { ...summary(task), ...error }];
}

/** Publishes events together (one write, confirmations awaited at once); a failure is logged, not thrown. */
async function publish(bus: Bus, log: Logger, task: TaskRow, events: TaskEvent[]): Promise<void> {
  await Promise.all(
    events.map(([name, payload]) => bus.publish(name, payload, { correlationId: task.correlationId }).catch((err: Error) => log.error(`${name} not published`, { error: err.message, task_id: task.id }))),
  );
}

/** The events of a run that ended: `command.executed`, and the task's end when its caller holds its id. */
export function announceEnd(bus: Bus, log: Logger, task: TaskRow): Promise<void> {
  return publish(bus, log, task, task.async ? [['command.executed', summary(task)], taskEnded(task)] : [['command.executed', summary(task)]]);
}

/** The task's end alone: for a run whose caller was handed the task only after the run ended. */
export function announceTaskEnd(bus: Bus, log: Logger, task: TaskRow): Promise<void> {
  return publish(bus, log, task, [taskEnded(task)]);
}
