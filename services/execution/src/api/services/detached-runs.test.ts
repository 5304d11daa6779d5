import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, destroyBusPrefix, type Bus, type Subscription } from '@svc/bus';
import { waitFor } from '@svc/bus/testing';
import { createCache } from '@svc/cache';
import { RESOLVE_COMMAND_RPC, type ExecJob, type ResolvedCommand } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { closeServer, createServiceApp, listen } from '@svc/platform';
import type { ExecutionConfig } from '../../config.js';
import { API_TEST_CONFIG } from '../api-test-config.js';
import { TaskRepository, type UnstoredTask } from '../../core/repositories/task.repository.js';
import { createExecutionService } from '../app.js';

const AMQP_URL = process.env.AMQP_URL ?? '';
const SECRET = 'detached-runs-secret-0123456789abcdef';
const PREFIX = `test-${randomUUID().slice(0, 8)}.`;
const SECOND_JOB_MS = 300;
const log = createLogger({ service: 'detached-runs-test', level: 'error', silent: true });

const CONFIG: ExecutionConfig = { ...API_TEST_CONFIG, syncWaitMs: 400, detachedJobDelayMs: SECOND_JOB_MS };

interface Taken {
  job: ExecJob;
  persistent: boolean;
}

/**
 * A synchronous run's job is transient: RabbitMQ keeps it in memory only, and a restart loses
 * it. The API alone, on RabbitMQ, with no worker: the test takes each job off `exec.fast` itself,
 * as a worker would, or as a restart would make it vanish, and looks at what the API queues once
 * the caller's wait has ended.
 */
describe.runIf(AMQP_URL)('a synchronous run handed to its caller as a task', () => {
  let db: TestDatabase;
  let bus: Bus;
  let service: { stop(): Promise<void> };
  let server: Server;
  let base = '';
  let connection: amqp.ChannelModel;
  const responders: Subscription[] = [];
  const caller = personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'caller', tier: 'pro' });

  const run = () =>
    fetch(`${base}/api/v1/commands/acme/echo`, {
      method: 'POST',
      headers: { [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(caller, SECRET), 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hi' }),
    });

  /** A message of `exec.fast` taken off the queue, if there is one; the API declares the queue with its first job. */
  async function get(): Promise<amqp.GetMessage | false> {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    try {
      return await channel.get(`${PREFIX}exec.fast`, { noAck: true });
    } catch {
      return false;
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  /** The next job on `exec.fast`, taken off the queue. */
  async function take(): Promise<Taken> {
    let message: amqp.GetMessage | false = false;
    await waitFor(async () => (message = await get()) !== false, 'a job on exec.fast');
    const got = message as unknown as amqp.GetMessage;
    return { job: JSON.parse(got.content.toString()) as ExecJob, persistent: got.properties.deliveryMode === 2 };
  }

  beforeAll(async () => {
    db = await testDatabaseKinds()[0]!.open();
    bus = await createBus({ amqpUrl: AMQP_URL, prefix: PREFIX, logger: log });
    responders.push(
      await bus.respond(RESOLVE_COMMAND_RPC, async (): Promise<ResolvedCommand> => {
        const pack = { id: randomUUID(), namespace: 'acme', name: 'tools', version: '1.0.0', version_id: randomUUID(), owner_tenant_id: caller.tenantId, visibility: 'public' as const };
        return { namespace: 'acme', name: 'echo', description: '', entry: 'commands/echo.js', input_schema: { type: 'object' }, output_schema: null, timeout: 5, retries: 0, queue: 'fast', pack, package: { sha256: 'x', size_bytes: 1 } };
      }),
    );
    const execution = createExecutionService({ database: db.database, cache: createCache({ prefix: `detached-${randomUUID()}:` }), bus, log, config: CONFIG });
    await execution.start();
    service = execution;
    server = await listen(createServiceApp({ service: 'execution', routes: execution.routes, internalSecret: SECRET, log }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    connection = await amqp.connect(AMQP_URL);
  });

  afterAll(async () => {
    await connection?.close();
    if (server) await closeServer(server);
    await service?.stop();
    await Promise.all(responders.map((r) => r.cancel()));
    await bus?.close();
    await destroyBusPrefix(AMQP_URL, PREFIX);
    await db?.dispose();
  });

  it('is queued again, durably, after the wait: the transient first job may have gone with a broker restart', async () => {
    const answer = run();
    const first = await take(); // gone from the broker, as after a restart
    expect(first.persistent).toBe(false);
    expect(first.job.sync).toBeDefined();

    const reply = await answer;
    const body = (await reply.json()) as { data: { task_id: string } };
    expect(reply.status).toBe(202);
    expect(body.data.task_id).toBe(first.job.task_id);

    const second = await take();
    expect(second.persistent).toBe(true);
    expect(second.job).toEqual({ task_id: first.job.task_id, tenant_id: caller.tenantId, tier: 'pro' });
    expect(await new TaskRepository(db.database.db).find(first.job.task_id)).toMatchObject({ status: 'pending', async: true });
  });

  it('is not queued again when its run had already ended', async () => {
    const answer = run();
    const first = await take();
    // What the worker does when a run taken early ends in the last seconds of the wait.
    await new TaskRepository(db.database.db).recordUnstored(first.job.sync!.task as UnstoredTask, { attempt: 1, startedAt: new Date() }, { status: 'success', result: { echoed: { text: 'hi' } }, durationMs: 3, retentionMs: 60_000 });

    const reply = await answer;
    expect(reply.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, SECOND_JOB_MS + 300));
    expect(await get()).toBe(false);
    expect(await new TaskRepository(db.database.db).find(first.job.task_id)).toMatchObject({ status: 'success', async: true });
  });
});
