import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus, type Bus, type BusMessage } from '@svc/bus';
import { createLogger } from '@svc/core';
import { createDatabase, type Database } from '@svc/db';
import { EXECUTION_MIGRATIONS, EXECUTION_SCHEMA } from '../app.js';
import { TaskRepository, type NewTask } from '../repositories/task.repository.js';
import { RunnerPool } from '../runners/runner-pool.js';
import { PackCache } from './pack-cache.js';
import { TaskWorker } from './task-worker.js';

const log = createLogger({ service: 'task-worker-test', silent: true });

function newTask(): NewTask {
  return {
    userId: randomUUID(),
    tenantId: randomUUID(),
    namespace: 'acme',
    command: 'echo',
    packId: randomUUID(),
    packVersion: '1.0.0',
    packVersionId: randomUUID(),
    entry: 'commands/echo.js',
    queue: 'fast',
    async: true,
    input: {},
    maxRetries: 0,
    timeoutMs: 1000,
    correlationId: randomUUID(),
  };
}

describe('a job for a task that already ended', () => {
  let database: Database;
  let bus: Bus;
  let worker: TaskWorker;
  const events: BusMessage[] = [];

  beforeAll(async () => {
    database = await createDatabase({});
    await database.migrate({ migrationsFolder: EXECUTION_MIGRATIONS, schema: EXECUTION_SCHEMA });
    bus = createMemoryBus({ logger: log });
    await bus.subscribe('test.events', ['command.executed', 'task.*'], async (message) => {
      events.push(message);
    });
    // Neither runs anything here: a job for an ended task never reaches a runner.
    const pool = new RunnerPool({ logger: log });
    const packs = new PackCache(bus, join(tmpdir(), 'svc-task-worker-test-packs'));
    worker = new TaskWorker(database.db, bus, pool, packs, { retentionMs: 60_000, retryBaseMs: 10, retryMaxMs: 10 }, log);
  });
  afterAll(async () => {
    await bus.close();
    await database.close();
  });

  async function endedTask(): Promise<string> {
    const tasks = new TaskRepository(database.db);
    const { id } = await tasks.insert(newTask());
    await tasks.claim(id);
    await tasks.finish(id, { status: 'success', result: { ok: true }, durationMs: 5, retentionMs: 60_000 });
    return id;
  }

  const eventsOf = (taskId: string) => events.filter((e) => (e.payload as { task_id: string }).task_id === taskId).map((e) => e.name);

  it('is acknowledged without announcing again on a first delivery', async () => {
    const taskId = await endedTask();
    await worker.handle({ task_id: taskId }, false);
    await new Promise((r) => setTimeout(r, 50));
    expect(eventsOf(taskId)).toEqual([]);
  });

  it('announces the end again when redelivered: its worker may have died before announcing', async () => {
    const taskId = await endedTask();
    await worker.handle({ task_id: taskId }, true);
    await new Promise((r) => setTimeout(r, 50));
    expect(eventsOf(taskId).sort()).toEqual(['command.executed', 'task.completed']);
    expect(await new TaskRepository(database.db).find(taskId)).toMatchObject({ status: 'success', attempts: 1 });
  });
});
