import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventOutbox, type Bus, type Subscription } from '@svc/bus';
import { testBusKinds, waitFor, type TestBus } from '@svc/bus/testing';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { startTcpProxy, type TcpProxy } from '@svc/testing';
import { EXECUTION_MIGRATIONS, EXECUTION_SCHEMA } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { TaskRepository, type NewTask } from '../../core/repositories/task.repository.js';
import { RunnerPool } from '../runners/runner-pool.js';
import { PackCache } from './pack-cache.js';
import { PackManifests } from './pack-manifests.js';
import { packKeyOf, TaskWorker } from './task-worker.js';
import { DEFAULT_TENANT_SHARES, TenantShares } from './tenant-shares.js';

const log = createLogger({ service: 'task-leases-test', silent: true });
const AMQP_URL = process.env.AMQP_URL;
const DATABASE_URL = process.env.DATABASE_URL;
const packId = randomUUID();
const versionId = randomUUID();

/** A task of the `gated` command: it runs until the test writes the pack's `release` file. */
function gatedTask(tenantId: string = randomUUID()): NewTask {
  return {
    userId: randomUUID(),
    tenantId,
    namespace: 'acme',
    command: 'gated',
    packId,
    packName: 'tools',
    packVersion: '1.0.0',
    packVersionId: versionId,
    entry: 'commands/gated.js',
    queue: 'fast',
    async: true,
    input: {},
    maxRetries: 0,
    timeoutMs: 60_000,
    correlationId: randomUUID(),
  };
}

// Two workers on one database and one RabbitMQ, the first reaching the broker through a proxy
// the test cuts: the broker then hands the job the first still runs to the second.
describe.runIf(AMQP_URL && DATABASE_URL)('two workers and a job the broker hands out again (Postgres, RabbitMQ)', () => {
  let test: TestDatabase;
  let proxy: TcpProxy;
  let first: TestBus;
  let second: TestBus;
  let pool: RunnerPool;
  let packsRoot: string;
  let packDir: string;
  const subscriptions: Subscription[] = [];
  const tasks = () => new TaskRepository(test.database.db);

  function workerOn(bus: Bus): TaskWorker {
    const shares = new TenantShares(DEFAULT_TENANT_SHARES, { fast: 8, medium: 8, long: 8 }, 8);
    const events = new EventOutbox({ db: test.database.db, table: outbox, bus, log });
    return new TaskWorker({ db: test.database.db, bus, events, pool, packs: new PackCache(bus, packsRoot), shares, manifests: new PackManifests(), settings: { retentionMs: 60_000, retryBaseMs: 10, retryMaxMs: 10 }, log });
  }

  /**
   * Starts `tenantId`'s runner of the gated command and leaves it idle: a run the test then times
   * from the `release` file does not also wait for a runner's start, which runners, at nice 10,
   * make last as long as the machine is busy (the row is `started` from its claim, before that).
   */
  async function warmRunner(tenantId: string): Promise<void> {
    await writeFile(join(packDir, 'release'), '');
    const context = { tenant: tenantId, user: randomUUID(), correlationId: randomUUID() };
    await pool.run({ packKey: packKeyOf(packId, versionId), packDir, entry: 'commands/gated.js', command: 'gated', input: {}, context, timeoutMs: 120_000 });
    await rm(join(packDir, 'release'));
  }

  /** `worker` takes the jobs of `exec.fast` from `bus`; each delivery is noted with the task's status when it came. */
  async function consume(bus: Bus, worker: TaskWorker, deliveries: { redelivered: boolean; status?: string }[] = []) {
    subscriptions.push(
      await bus.consume('exec.fast', async (message) => {
        deliveries.push({ redelivered: message.redelivered, status: (await tasks().find(message.payload.task_id))?.status });
        await worker.handle(message.payload, 'fast', message.redelivered);
      }),
    );
    return deliveries;
  }

  beforeAll(async () => {
    const [, postgres] = testDatabaseKinds();
    test = await postgres!.open();
    await test.database.migrate({ migrationsFolder: EXECUTION_MIGRATIONS, schema: EXECUTION_SCHEMA });
    const target = new URL(AMQP_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5672) });
    const proxied = new URL(AMQP_URL!);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const [, rabbit] = testBusKinds(proxied.toString());
    first = await rabbit!.open();
    second = await testBusKinds()[1]!.open({ prefix: first.prefix });
    packsRoot = await mkdtemp(join(tmpdir(), 'svc-task-leases-'));
    // Runners run as another uid when the tests run as root.
    await chmod(packsRoot, 0o755);
    packDir = join(packsRoot, packId, versionId);
    await mkdir(join(packDir, 'commands'), { recursive: true });
    await writeFile(
      join(packDir, 'commands/gated.js'),
      "import { existsSync } from 'node:fs';\nexport default async () => { while (!existsSync(new URL('../release', import.meta.url))) await new Promise((r) => setTimeout(r, 20)); return { released: true }; };",
    );
    await writeFile(join(packDir, 'pack.yaml'), JSON.stringify({ schema_version: 1, pack: { namespace: 'acme', name: 'tools', version: '1.0.0' }, commands: [{ name: 'gated', entry: 'commands/gated.js', input_schema: { type: 'object' } }] }));
    await writeFile(join(packDir, '.svc-complete'), versionId);
    pool = new RunnerPool({ logger: log });
  }, 60_000);

  afterEach(async () => {
    await Promise.all(subscriptions.splice(0).map((s) => s.cancel().catch(() => undefined)));
    await rm(join(packDir, 'release'), { force: true });
  });

  afterAll(async () => {
    await pool?.close();
    proxy?.resume();
    await first?.bus.close();
    await second?.dispose();
    await proxy?.close();
    await test?.dispose();
    await rm(packsRoot, { recursive: true, force: true });
  });

  it('does not run a task the first worker still runs: the second puts the job back and acknowledges it once the task has ended', async () => {
    const tenantId = randomUUID();
    await warmRunner(tenantId);
    const assigned = pool.stats().assigned;
    const task = await tasks().insert(gatedTask(tenantId));
    const firstWorker = workerOn(first.bus);
    await consume(first.bus, firstWorker);
    await second.bus.send('exec.fast', { task_id: task.id });
    await waitFor(async () => (await tasks().find(task.id))?.status === 'started', 'the first worker to take the task', 20_000);
    const deliveries = await consume(second.bus, workerOn(second.bus));

    // The first worker's connection drops: the broker hands its unacknowledged job to the second.
    proxy.cut();
    await waitFor(() => deliveries.length > 0, 'the job handed to the second worker', 20_000);
    expect(deliveries[0]).toEqual({ redelivered: true, status: 'started' });
    expect(await tasks().find(task.id)).toMatchObject({ status: 'started', attempts: 1 });

    // The first run ends and is recorded; the job put back then finds the task ended.
    await writeFile(join(packDir, 'release'), '');
    await waitFor(() => deliveries.some((d) => d.status === 'success'), 'the job put back to come again once the task ended', 60_000);
    expect(await tasks().find(task.id)).toMatchObject({ status: 'success', attempts: 1, result: { released: true } });
    // The run went to the runner started above, not to one of its own.
    expect(pool.stats().assigned).toBe(assigned);
    proxy.resume();
  }, 270_000);

  it('runs the task of a worker that died once its lease has lapsed', async () => {
    const task = await tasks().insert(gatedTask());
    // Taken by a worker that then died: its lease is there, and nobody renews it.
    const dead = { owner: 'a-worker-that-died', ms: 60_000 };
    await tasks().claim(task.id, dead);
    await writeFile(join(packDir, 'release'), '');
    const deliveries = await consume(second.bus, workerOn(second.bus));
    await second.bus.send('exec.fast', { task_id: task.id });
    await waitFor(() => deliveries.length >= 2, 'the job put back while the lease holds', 20_000);
    expect(await tasks().find(task.id)).toMatchObject({ status: 'started', attempts: 1, leaseOwner: dead.owner });

    await tasks().renewLeases(dead.owner, [task.id], -1000);
    await waitFor(async () => (await tasks().find(task.id))?.status === 'success', 'the task to run once the lease lapsed', 20_000);
    expect(await tasks().find(task.id)).toMatchObject({ status: 'success', attempts: 2, result: { released: true } });
  }, 60_000);
});
