import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, ephemeralQueueName, eventIdFor, EventOutbox, type Bus, type EventMessage } from '@svc/bus';
import { EXECUTION_REPLIES, type ExecJob, type RunOutcome } from '@svc/contracts';
import { createLogger, ServiceUnavailableError } from '@svc/core';
import { createDatabase, type Database } from '@svc/db';
import { EXECUTION_MIGRATIONS, EXECUTION_SCHEMA } from '../../app.js';
import { outbox } from '../../db/schema.js';
import { TaskRepository, type NewTask, type UnstoredTask } from '../../core/repositories/task.repository.js';
import { RunnerPool } from '../runners/runner-pool.js';
import { detachTask } from '../../api/services/detach.js';
import { PackCache } from './pack-cache.js';
import { TaskWorker } from './task-worker.js';

const log = createLogger({ service: 'task-worker-test', silent: true });
const REPLIES = ephemeralQueueName(EXECUTION_REPLIES);
const packId = randomUUID();
const versionId = randomUUID();

function newTask(command: 'echo' | 'fail' | 'nap' = 'echo'): NewTask {
  return {
    userId: randomUUID(),
    tenantId: randomUUID(),
    namespace: 'acme',
    command,
    packId,
    packName: 'tools',
    packVersion: '1.0.0',
    packVersionId: versionId,
    entry: `commands/${command}.js`,
    queue: 'fast',
    async: false,
    input: { text: 'hi' },
    maxRetries: 0,
    timeoutMs: 5000,
    correlationId: randomUUID(),
  };
}

describe('the task worker', () => {
  let database: Database;
  let bus: Bus;
  let outboxEvents: EventOutbox;
  let pool: RunnerPool;
  let worker: TaskWorker;
  let packsRoot: string;
  const events: EventMessage<'command.executed' | 'task.completed' | 'task.failed' | 'task.revoked'>[] = [];
  const replies: RunOutcome[] = [];
  const tasks = () => new TaskRepository(database.db);

  beforeAll(async () => {
    database = await createDatabase({});
    await database.migrate({ migrationsFolder: EXECUTION_MIGRATIONS, schema: EXECUTION_SCHEMA });
    bus = await createBus({ logger: log });
    outboxEvents = new EventOutbox({ db: database.db, table: outbox, bus, log });
    await bus.subscribe(ephemeralQueueName('test.events'), ['command.executed', 'task.*'], async (message) => {
      events.push(message);
    }, { ephemeral: true });
    await bus.consume(
      REPLIES,
      async (message) => {
        replies.push(message.payload);
      },
      { ephemeral: true },
    );
    // The pack as a worker keeps it once unpacked, so that no registry is asked for it.
    packsRoot = await mkdtemp(join(tmpdir(), 'svc-task-worker-'));
    // Runners run as another uid when the tests run as root.
    await chmod(packsRoot, 0o755);
    const packDir = join(packsRoot, packId, versionId);
    await mkdir(join(packDir, 'commands'), { recursive: true });
    await writeFile(join(packDir, 'commands/echo.js'), 'export default async (input) => ({ echoed: input });');
    await writeFile(join(packDir, 'commands/fail.js'), 'export default async () => { throw new TypeError("no good"); };');
    await writeFile(join(packDir, 'commands/nap.js'), 'export default async () => new Promise((resolve) => setTimeout(() => resolve({ napped: true }), 400));');
    await writeFile(join(packDir, '.svc-complete'), versionId);
    pool = new RunnerPool({ logger: log });
    worker = new TaskWorker(database.db, bus, outboxEvents, pool, new PackCache(bus, packsRoot), { retentionMs: 60_000, retryBaseMs: 10, retryMaxMs: 10 }, log);
  });
  afterAll(async () => {
    await pool.close();
    await bus.close();
    await database.close();
    await rm(packsRoot, { recursive: true, force: true });
  });

  /** The names of the events about a task, once the bus has delivered what was published. */
  async function eventsOf(taskId: string): Promise<string[]> {
    await new Promise((r) => setTimeout(r, 50));
    return events
      .filter((e) => e.payload.task_id === taskId)
      .map((e) => e.name)
      .sort();
  }

  async function replyFor(taskId: string): Promise<RunOutcome> {
    for (let i = 0; i < 100; i++) {
      const reply = replies.find((r) => r.task_id === taskId);
      if (reply) return reply;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no reply for ${taskId}`);
  }

  /** A synchronous job as the API sends it; `storeFrom` is when its caller may hold the task id. */
  function syncJob(task: UnstoredTask, storeFrom: number): ExecJob {
    return { task_id: task.id, reply_to: REPLIES, sync: { task, store_from: storeFrom, attempt: 1 } };
  }

  describe('a synchronous run', () => {
    it('that succeeds in time answers its caller and keeps no row', async () => {
      const task = { id: randomUUID(), ...newTask() };
      await worker.handle(syncJob(task, Date.now() + 60_000));
      expect(await replyFor(task.id)).toMatchObject({ status: 'success', result: { echoed: { text: 'hi' } } });
      expect(await tasks().find(task.id)).toBeUndefined();
      expect(await eventsOf(task.id)).toEqual(['command.executed']);
    });

    it('that fails keeps a row its caller can read', async () => {
      const task = { id: randomUUID(), ...newTask('fail') };
      await worker.handle(syncJob(task, Date.now() + 60_000));
      expect(await replyFor(task.id)).toMatchObject({ status: 'failure', error: { type: 'TypeError', message: 'no good' } });
      expect(await tasks().find(task.id)).toMatchObject({ status: 'failure', attempts: 1, error: { type: 'TypeError' } });
    });

    it('taken once its caller may hold the id is stored from the start and to the end', async () => {
      const task = { id: randomUUID(), ...newTask() };
      await worker.handle(syncJob(task, Date.now() - 1));
      expect(await tasks().find(task.id)).toMatchObject({ status: 'success', attempts: 1, result: { echoed: { text: 'hi' } }, startedAt: expect.any(Date) });
      expect((await replyFor(task.id)).status).toBe('success');
    });

    it('whose task the caller got and cancelled is not run', async () => {
      const task = { id: randomUUID(), ...newTask() };
      // What the API does when the wait ends, then the caller's cancel.
      await tasks().detach(task);
      await tasks().revoke(task.id, 60_000);
      await worker.handle(syncJob(task, Date.now() - 1));
      expect(await tasks().find(task.id)).toMatchObject({ status: 'revoked', startedAt: null });
      expect((await replyFor(task.id)).status).toBe('revoked');
      expect(await eventsOf(task.id)).toEqual([]);
    });

    it('taken early but ending after its caller was handed the task completes that task', async () => {
      const task = { id: randomUUID(), ...newTask('nap') };
      const running = worker.handle(syncJob(task, Date.now() + 100));
      // The caller's wait ends while the command runs: the API makes the row it hands out.
      await new Promise((r) => setTimeout(r, 200));
      expect(await detachTask(outboxEvents, task)).toMatchObject({ status: 'pending', async: true });
      await running;
      expect(await tasks().find(task.id)).toMatchObject({ status: 'success', async: true, result: { napped: true }, startedAt: expect.any(Date) });
      expect(await eventsOf(task.id)).toEqual(['command.executed', 'task.completed']);
    });

    it('already ended when its caller is handed the task: the task\'s end is announced then', async () => {
      const task = { id: randomUUID(), ...newTask() };
      // The worker stores the run in the last seconds of the wait, then the reply is too late.
      await worker.handle(syncJob(task, Date.now() - 1));
      expect(await eventsOf(task.id)).toEqual(['command.executed']);
      expect(await detachTask(outboxEvents, task)).toMatchObject({ status: 'success', async: true });
      expect(await eventsOf(task.id)).toEqual(['command.executed', 'task.completed']);
    });
  });

  describe('a job for a task that already ended', () => {
    async function endedTask(): Promise<string> {
      const { id } = await tasks().insert({ ...newTask(), async: true });
      await tasks().claim(id);
      await tasks().finish(id, { status: 'success', result: { ok: true }, durationMs: 5, retentionMs: 60_000 });
      return id;
    }

    it('is acknowledged without announcing again on a first delivery', async () => {
      const taskId = await endedTask();
      await worker.handle({ task_id: taskId }, false);
      expect(await eventsOf(taskId)).toEqual([]);
    });

    it('announces the end again when redelivered: its worker may have died before announcing', async () => {
      const taskId = await endedTask();
      await worker.handle({ task_id: taskId }, true);
      expect(await eventsOf(taskId)).toEqual(['command.executed', 'task.completed']);
      expect(await tasks().find(taskId)).toMatchObject({ status: 'success', attempts: 1 });
    });
  });

  it('keeps the events the broker did not take in the outbox, and its relay publishes them under the same ids', async () => {
    const away: Bus = {
      ...bus,
      publish: async () => {
        throw new ServiceUnavailableError('Message bus is reconnecting');
      },
    };
    const cutOff = new TaskWorker(database.db, bus, new EventOutbox({ db: database.db, table: outbox, bus: away, log }), pool, new PackCache(bus, packsRoot), { retentionMs: 60_000, retryBaseMs: 10, retryMaxMs: 10 }, log);
    const { id } = await tasks().insert({ ...newTask(), async: true });
    await cutOff.handle({ task_id: id });
    expect(await tasks().find(id)).toMatchObject({ status: 'success' });
    expect(await eventsOf(id)).toEqual([]);

    await outboxEvents.sendDue();
    expect(await eventsOf(id)).toEqual(['command.executed', 'task.completed']);
    const executed = events.find((e) => e.payload.task_id === id && e.name === 'command.executed')!;
    expect(executed.messageId).toBe(eventIdFor('command.executed', id));
  });
});
