import { eventIdFor, outboxEvent, type EventOutbox, type OutboxWriter } from '@svc/bus';
import type { EventInput } from '@svc/contracts';
import type { OutboxEntry } from '@svc/db';
import type { TaskRow } from './repositories/task.repository.js';

/** A run that ended: the only statuses a run's events carry. */
type EndedTask = TaskRow & { status: 'success' | 'failure' | 'timeout' };

/**
 * What every event of a run says of it: its command (`<namespace>.<command>`, Part 1) and its pack
 * (`@<namespace>/<name>` and the version that ran), which usage counts by. A row made before the
 * pack's name was kept has none, and its events name the command alone.
 */
function runOf(task: TaskRow): { command: string; pack?: string; version?: string } {
  const command = `${task.namespace}.${task.command}`;
  return task.packName ? { command, pack: `@${task.namespace}/${task.packName}`, version: task.packVersion } : { command };
}

function summary(task: EndedTask): EventInput<'command.executed'> {
  return { ...runOf(task), tenant_id: task.tenantId, user_id: task.userId, duration_ms: task.durationMs ?? 0, task_id: task.id, status: task.status };
}

/**
 * The same run's events always carry the same ids (derived from the task's), so that a run
 * announced twice (a redelivered job whose worker died before acknowledging it, or the API and
 * the worker both announcing a detached run's end) is one event to its consumers.
 */
const options = (name: string, task: TaskRow) => ({ eventId: eventIdFor(name, task.id), correlationId: task.correlationId });

function commandExecuted(task: EndedTask): OutboxEntry {
  return outboxEvent('command.executed', summary(task), options('command.executed', task));
}

/**
 * `command.started`: a worker began the run. Its id is the task's, so a retry or a redelivered
 * job announces the same start again, which consumers see as one.
 */
export function announceStart(events: EventOutbox, task: TaskRow): Promise<void> {
  const payload = { ...runOf(task), tenant_id: task.tenantId, user_id: task.userId, task_id: task.id };
  return events.publish([outboxEvent('command.started', payload, options('command.started', task))]);
}

/** `task.completed` or `task.failed`: the end of a task whose caller holds its id. */
function taskEnded(task: EndedTask): OutboxEntry {
  const name = task.status === 'success' ? 'task.completed' : 'task.failed';
  const error = task.error ? { error: { type: task.error.type, message: task.error.message } } : {};
  return outboxEvent(name, { ...summary(task), ...error }, options(name, task));
}

function ended(task: TaskRow): task is EndedTask {
  return task.status === 'success' || task.status === 'failure' || task.status === 'timeout';
}

/**
 * The events of a run that ended: `command.executed`, and the task's end when its caller holds
 * its id. Published now, with confirms, before the job is acknowledged (the job is what makes
 * them safe: a worker dying first has it redelivered, and announced again); those the broker
 * does not take go to the outbox for its relay.
 */
export function announceEnd(events: EventOutbox, task: TaskRow): Promise<void> {
  if (!ended(task)) return Promise.resolve();
  return events.publish(task.async ? [commandExecuted(task), taskEnded(task)] : [commandExecuted(task)]);
}

/** The task's end alone, in the transaction that hands the task to its caller after the run ended. */
export function announceTaskEnd(out: OutboxWriter, task: TaskRow): void {
  if (ended(task)) out.add(taskEnded(task));
}
