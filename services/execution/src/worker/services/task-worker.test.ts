import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBus, ephemeralQueueName, eventIdFor, EventOutbox, type Bus, type EventMessage } from '@svc/bus';
import { EXECUTION_REPLIES, type ExecJob, type RunOutcome } from '@svc/contracts';
import { createLogger, ServiceUnavailableError } from '@svc/core';
import { createDatabase, type Database } from '@svc/db';
import { EXECUTION_MIGRATIONS, EXECUTION_SCHEMA } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { TaskRepository, type NewTask, type UnstoredTask } from '../../core/repositories/task.repository.js';
import { RunnerPool } from '../runners/runner-pool.js';
import { detachTask } from '../../api/services/task.service.js';
import { PackCache } from './pack-cache.js';
import { PackManifests } from './pack-manifests.js';
import { TaskWorker } from './task-worker.js';
import { DEFAULT_TENANT_SHARES, TenantShares } from './tenant-shares.js';

const log = createLogger({ service: 'task-worker-test', silent: true });
const REPLIES = ephemeralQueueName(EXECUTION_REPLIES);
const packId = randomUUID();
const versionId = randomUUID();
const secondVersionId = randomUUID();
const SETTINGS = { retentionMs: 60_000, retryBaseMs: 10, retryMaxMs: 10 };

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
    // The budget covers the runner's cold start (execution README, "Runners"), which a loaded
    // CI machine has taken more than 5 s over.
    timeoutMs: 30_000,
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
        // Progress reports travel on the same queue; these tests read outcomes.
        if (message.payload.status !== 'progress') replies.push(message.payload);
      },
      { ephemeral: true },
    );
    // The pack as a worker keeps it once unpacked, so that no registry is asked for it.
    packsRoot = await mkdtemp(join(tmpdir(), 'svc-task-worker-'));
    // Runners run as another uid when the tests run as root.
    await chmod(packsRoot, 0o755);
    for (const version of [versionId, secondVersionId]) {
      const packDir = join(packsRoot, packId, version);
      await mkdir(join(packDir, 'commands'), { recursive: true });
      await writeFile(join(packDir, 'commands/echo.js'), 'export default async (input) => ({ echoed: input });');
      await writeFile(join(packDir, 'commands/fail.js'), 'export default async () => { throw new TypeError("no good"); };');
      await writeFile(join(packDir, 'commands/nap.js'), 'export default async () => new Promise((resolve) => setTimeout(() => resolve({ napped: true }), 400));');
      await writeFile(join(packDir, 'pack.yaml'), JSON.stringify({ schema_version: 1, pack: { namespace: 'acme', name: 'tools', version: '1.0.0' }, commands: ['echo', 'fail', 'nap'].map((name) => ({ name, entry: `commands/${name}.js`, input_schema: { type: 'object' } })) }));
      await writeFile(join(packDir, '.svc-complete'), version);
    }
    pool = new RunnerPool({ logger: log });
    worker = workerWith(outboxEvents, new TenantShares(DEFAULT_TENANT_SHARES, { fast: 64, medium: 8, long: 2 }, 32));
  });
  afterAll(async () => {
    await pool.close();
    await bus.close();
    await database.close();
    await rm(packsRoot, { recursive: true, force: true });
  });

  function workerWith(events: EventOutbox, shares: TenantShares): TaskWorker {
    return new TaskWorker({ db: database.db, bus, events, pool, packs: new PackCache(bus, packsRoot), shares, manifests: new PackManifests(), settings: SETTINGS, log });
  }

  /** The names of the events about a task that the bus has delivered so far. */
  function eventsOf(taskId: string): string[] {
    return events
      .filter((e) => e.payload.task_id === taskId)
      .map((e) => e.name)
      .sort();
  }

  /** Waits until the events about a task are `names` (delivery is asynchronous), and fails if they never are. */
  async function expectEvents(taskId: string, names: string[]): Promise<void> {
    await vi.waitFor(() => expect(eventsOf(taskId)).toEqual(names), { timeout: 5000 });
  }

  /** No event about a task, after giving the bus time to deliver any. */
  async function expectNoEvents(taskId: string): Promise<void> {
    await new Promise((r) => setTimeout(r, 100));
    expect(eventsOf(taskId)).toEqual([]);
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
      await worker.handle(syncJob(task, Date.now() + 60_000), 'fast');
      expect(await replyFor(task.id)).toMatchObject({ status: 'success', result: { echoed: { text: 'hi' } } });
      expect(await tasks().find(task.id)).toBeUndefined();
      await expectEvents(task.id, ['command.executed']);
    });

    it('that fails keeps a row its caller can read', async () => {
      const task = { id: randomUUID(), ...newTask('fail') };
      await worker.handle(syncJob(task, Date.now() + 60_000), 'fast');
      expect(await replyFor(task.id)).toMatchObject({ status: 'failure', error: { type: 'TypeError', message: 'no good' } });
      expect(await tasks().find(task.id)).toMatchObject({ status: 'failure', attempts: 1, error: { type: 'TypeError' } });
    });

    it('taken once its caller may hold the id is stored from the start and to the end', async () => {
      const task = { id: randomUUID(), ...newTask() };
      await worker.handle(syncJob(task, Date.now() - 1), 'fast');
      expect(await tasks().find(task.id)).toMatchObject({ status: 'success', attempts: 1, result: { echoed: { text: 'hi' } }, startedAt: expect.any(Date) });
      expect((await replyFor(task.id)).status).toBe('success');
    });

    it('whose task the caller got and cancelled is not run', async () => {
      const task = { id: randomUUID(), ...newTask() };
      // What the API does when the wait ends, then the caller's cancel.
      await tasks().detach(task);
      await tasks().revoke(task.id, 60_000);
      await worker.handle(syncJob(task, Date.now() - 1), 'fast');
      expect(await tasks().find(task.id)).toMatchObject({ status: 'revoked', startedAt: null });
      expect((await replyFor(task.id)).status).toBe('revoked');
      await expectNoEvents(task.id);
    });

    it('taken early but ending after its caller was handed the task completes that task', async () => {
      const task = { id: randomUUID(), ...newTask('nap') };
      const running = worker.handle(syncJob(task, Date.now() + 100), 'fast');
      // The caller's wait ends while the command runs: the API makes the row it hands out.
      await new Promise((r) => setTimeout(r, 200));
      expect(await detachTask(outboxEvents, task)).toMatchObject({ status: 'pending', async: true });
      await running;
      expect(await tasks().find(task.id)).toMatchObject({ status: 'success', async: true, result: { napped: true }, startedAt: expect.any(Date) });
      await expectEvents(task.id, ['command.executed', 'task.completed']);
    });

    it('already ended when its caller is handed the task: the task\'s end is announced then', async () => {
      const task = { id: randomUUID(), ...newTask() };
      // The worker stores the run in the last seconds of the wait, then the reply is too late.
      await worker.handle(syncJob(task, Date.now() - 1), 'fast');
      await expectEvents(task.id, ['command.executed']);
      expect(await detachTask(outboxEvents, task)).toMatchObject({ status: 'success', async: true });
      await expectEvents(task.id, ['command.executed', 'task.completed']);
    });
  });

  describe('a job for a task that already ended', () => {
    async function endedTask(): Promise<string> {
      const { id } = await tasks().insert({ ...newTask(), async: true });
      await tasks().claim(id, { owner: 'test', ms: 60_000 });
      await tasks().finish(id, { status: 'success', result: { ok: true }, durationMs: 5, retentionMs: 60_000 });
      return id;
    }

    it('is acknowledged without announcing again on a first delivery', async () => {
      const taskId = await endedTask();
      await worker.handle({ task_id: taskId }, 'fast', false);
      await expectNoEvents(taskId);
    });

    it('announces the end again when redelivered: its worker may have died before announcing', async () => {
      const taskId = await endedTask();
      await worker.handle({ task_id: taskId }, 'fast', true);
      await expectEvents(taskId, ['command.executed', 'task.completed']);
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
    const cutOff = workerWith(new EventOutbox({ db: database.db, table: outbox, bus: away, log }), new TenantShares(DEFAULT_TENANT_SHARES, { fast: 64, medium: 8, long: 2 }, 32));
    const { id } = await tasks().insert({ ...newTask(), async: true });
    await cutOff.handle({ task_id: id }, 'fast');
    expect(await tasks().find(id)).toMatchObject({ status: 'success' });
    await expectNoEvents(id);

    await outboxEvents.sendDue();
    await expectEvents(id, ['command.executed', 'task.completed']);
    const executed = events.find((e) => e.payload.task_id === id && e.name === 'command.executed')!;
    expect(executed.messageId).toBe(eventIdFor('command.executed', id));
  });

  describe('a tenant past its share of the worker', () => {
    // One call and one runner per tenant at a time: half of a prefetch of 2 and of 2 runners.
    const halves = () => new TenantShares({ ...DEFAULT_TENANT_SHARES, free: 0.5 }, { fast: 2, medium: 2, long: 2 }, 2);

    it('is refused at once when it asks synchronously: nothing runs, no row, and other tenants run', async () => {
      const shared = workerWith(outboxEvents, halves());
      const napping = { id: randomUUID(), ...newTask('nap') };
      const refused = { id: randomUUID(), ...newTask(), tenantId: napping.tenantId };
      const neighbour = { id: randomUUID(), ...newTask() };
      const first = shared.handle(syncJob(napping, Date.now() + 60_000), 'fast');
      await shared.handle(syncJob(refused, Date.now() + 60_000), 'fast');
      await shared.handle(syncJob(neighbour, Date.now() + 60_000), 'fast');
      expect(await replyFor(refused.id)).toEqual({
        task_id: refused.id,
        status: 'busy',
        refusal: { reason: 'tenant_calls', message: expect.stringContaining('as many commands at once'), limit: 1, retry_after: 1 },
        duration_ms: 0,
      });
      expect(await tasks().find(refused.id)).toBeUndefined();
      await expectNoEvents(refused.id);
      expect(await replyFor(neighbour.id)).toMatchObject({ status: 'success' });
      await first;
      expect(await replyFor(napping.id)).toMatchObject({ status: 'success', result: { napped: true } });
    });

    it('is refused when it needs a runner more than its share and its runner is busy', async () => {
      const shared = workerWith(outboxEvents, new TenantShares({ ...DEFAULT_TENANT_SHARES, free: 0.5 }, { fast: 8, medium: 8, long: 8 }, 2));
      const napping = { id: randomUUID(), ...newTask('nap') };
      const otherVersion = { id: randomUUID(), ...newTask(), tenantId: napping.tenantId, packVersionId: secondVersionId };
      const first = shared.handle(syncJob(napping, Date.now() + 60_000), 'fast');
      await new Promise((r) => setTimeout(r, 100));
      await shared.handle(syncJob(otherVersion, Date.now() + 60_000), 'fast');
      expect(await replyFor(otherVersion.id)).toMatchObject({ status: 'busy', refusal: { reason: 'tenant_runners', limit: 1 } });
      await first;
    });

    it('waits on its queue when it is a task, and runs once the share frees, the wait not counted as an attempt', async () => {
      // Taken, then refused a runner (one each): the task is pending again, as it was.
      const shared = workerWith(outboxEvents, new TenantShares({ ...DEFAULT_TENANT_SHARES, free: 0.5 }, { fast: 8, medium: 8, long: 8 }, 2));
      const queue = `exec.fast`;
      const delivered: ExecJob[] = [];
      const consumer = await bus.consume(queue, async (message) => {
        delivered.push(message.payload);
        await shared.handle(message.payload, 'fast', message.redelivered);
      });
      try {
        const napping = await tasks().insert({ ...newTask('nap'), async: true });
        const waiting = await tasks().insert({ ...newTask(), tenantId: napping.tenantId, packVersionId: secondVersionId, async: true });
        await bus.send(queue, { task_id: napping.id, tenant_id: napping.tenantId, tier: 'free' });
        await new Promise((r) => setTimeout(r, 50));
        await bus.send(queue, { task_id: waiting.id, tenant_id: waiting.tenantId, tier: 'free' });
        for (let i = 0; i < 100 && (await tasks().find(waiting.id))?.status !== 'success'; i++) await new Promise((r) => setTimeout(r, 50));
        expect(await tasks().find(waiting.id)).toMatchObject({ status: 'success', attempts: 1, result: { echoed: { text: 'hi' } } });
        expect(delivered.filter((job) => job.task_id === waiting.id).map((job) => job.waits ?? 0)[0]).toBe(0);
        expect(Math.max(...delivered.filter((job) => job.task_id === waiting.id).map((job) => job.waits ?? 0))).toBeGreaterThanOrEqual(1);
        expect(await tasks().find(napping.id)).toMatchObject({ status: 'success' });
      } finally {
        await consumer.cancel();
      }
    });
  });
});
