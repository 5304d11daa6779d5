import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, ephemeralQueueName, EventOutbox, type Bus, type EventMessage } from '@svc/bus';
import { waitFor } from '@svc/bus/testing';
import { createLogger } from '@svc/core';
import { createDatabase, type Database } from '@svc/db';
import { EXECUTION_MIGRATIONS, EXECUTION_SCHEMA } from '../config.js';
import { outbox } from '../db/schema.js';
import type { TaskRow } from './repositories/task.repository.js';
import { announceEnd, announceStart } from './task-events.js';

const log = createLogger({ service: 'test', silent: true });

function endedTask(overrides: Partial<TaskRow> = {}): TaskRow {
  const now = new Date();
  return {
    id: randomUUID(),
    userId: randomUUID(),
    tenantId: randomUUID(),
    namespace: 'acme',
    command: 'chat',
    packId: randomUUID(),
    packName: 'assistant',
    packVersion: '1.2.0',
    packVersionId: randomUUID(),
    entry: 'commands/chat.js',
    queue: 'medium',
    status: 'success',
    async: true,
    input: {},
    result: { ok: true },
    error: null,
    attempts: 1,
    maxRetries: 0,
    timeoutMs: 5000,
    durationMs: 12,
    correlationId: randomUUID(),
    createdAt: now,
    startedAt: now,
    completedAt: now,
    resultExpiresAt: now,
    resultPurged: false,
    leaseOwner: null,
    leaseExpiresAt: null,
    scheduleId: null,
    scheduledFor: null,
    progress: null,
    logs: null,
    ...overrides,
  };
}

describe("a run's events", () => {
  let database: Database;
  let bus: Bus;
  let events: EventOutbox;
  const seen: EventMessage<'command.started' | 'command.executed' | 'task.completed'>[] = [];
  const of = (task: TaskRow) => seen.filter((m) => m.payload.task_id === task.id);

  beforeAll(async () => {
    database = await createDatabase({});
    await database.migrate({ migrationsFolder: EXECUTION_MIGRATIONS, schema: EXECUTION_SCHEMA });
    bus = await createBus({ logger: log });
    await bus.subscribe(ephemeralQueueName('test.run-events'), ['command.started', 'command.executed', 'task.completed'], async (m) => void seen.push(m), { ephemeral: true });
    events = new EventOutbox({ db: database.db, table: outbox, bus, log });
  });

  afterAll(async () => {
    await bus?.close();
    await database?.close();
  });

  it('name the pack (@namespace/name) and the version that ran, beside the command', async () => {
    const task = endedTask();
    await announceStart(events, task);
    await announceEnd(events, task);
    await waitFor(() => of(task).length === 3, 'start, end and task end');
    const named = { command: 'acme.chat', pack: '@acme/assistant', version: '1.2.0', tenant_id: task.tenantId, user_id: task.userId, task_id: task.id };
    expect(of(task).map((m) => [m.name, m.payload])).toEqual([
      ['command.started', named],
      ['command.executed', { ...named, duration_ms: 12, status: 'success' }],
      ['task.completed', { ...named, duration_ms: 12, status: 'success' }],
    ]);
  });

  it('name the command alone for a row made before the pack s name was kept', async () => {
    const task = endedTask({ packName: '', async: false });
    await announceEnd(events, task);
    await waitFor(() => of(task).length === 1, 'the end');
    expect(of(task)[0]!.payload).toEqual({ command: 'acme.chat', tenant_id: task.tenantId, user_id: task.userId, duration_ms: 12, task_id: task.id, status: 'success' });
  });
});
