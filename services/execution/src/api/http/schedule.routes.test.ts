import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type Identity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, type Bus, type Subscription } from '@svc/bus';
import { createCache } from '@svc/cache';
import { RESOLVE_COMMAND_RPC, USER_PRINCIPAL_RPC, type ResolvedCommand } from '@svc/contracts';
import { createLogger, NotFoundError } from '@svc/core';
import { parentIdOf, recordedSpans } from '@svc/tracing/testing';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { closeServer, createServiceApp, listen } from '@svc/platform';
import { schedules as scheduleTable } from '../../db/schema.js';
import type { ExecutionConfig } from '../../config.js';
import { API_TEST_CONFIG } from '../api-test-config.js';
import { createExecutionService } from '../app.js';

const SECRET = 'schedule-routes-secret-0123456789abcdef';
const log = createLogger({ service: 'schedule-routes-test', level: 'error', silent: true });
const spans = await recordedSpans();

type Reply = { status: number; body: any };


/**
 * The execution API's schedules, two replicas on one database and bus, each with its scheduler,
 * both reading a clock the test moves. The registry and identity answer over the bus as their
 * responders do (who sees the command, and who the creator is now); no worker takes the jobs, so
 * runs stay pending, which is what `overlap: skip` looks at.
 */
describe.each(testDatabaseKinds())('schedules on $name, two scheduler replicas', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let now = new Date('2026-05-01T10:00:30Z');
  const replicas: Array<{ stop(): Promise<void>; server: Server }> = [];
  const responders: Subscription[] = [];
  let base = '';
  /** Users whose principal identity answers only once their promise settles: a tick of theirs stays being fired. */
  const held = new Map<string, Promise<void>>();
  /** Who identity knows, by user id; a user missing here is gone. */
  const users = new Map<string, Identity>();
  /** The tenants that may see `acme.report`, and the schema it has now. */
  const seers = new Set<string>();
  let reportSchema: Record<string, unknown> = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

  const person = (tier: Identity['tier'] = 'pro') => {
    const identity = personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'someone', tier });
    users.set(identity.userId, identity);
    seers.add(identity.tenantId);
    return identity;
  };
  const call = async (path: string, as: Identity, options: { method?: string; body?: unknown } = {}): Promise<Reply> => {
    const headers: Record<string, string> = { [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(as, SECRET) };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const create = (as: Identity, body: Record<string, unknown>) => call('/schedules', as, { method: 'POST', body: { command: 'acme.report', input: { text: 'hi' }, cron: '* * * * *', ...body } });
  const runsOf = async (as: Identity, id: string) => (await call(`/schedules/${id}/runs?limit=100`, as)).body.data.runs as Array<{ task_id: string; status: string; scheduled_for: string | null; error: { type: string } | null }>;
  const rowOf = async (id: string) => (await db.database.db.select().from(scheduleTable).where(eq(scheduleTable.id, id)))[0]!;
  const expectError = (reply: Reply, status: number, code: string, field?: string) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(status);
    expect(reply.body.error.code).toBe(code);
    if (field) expect(reply.body.error.details.field).toBe(field);
  };
  /** What the registry announces when who sees a command changes: the API drops what it remembered of the namespace. */
  const commandChanged = async () => {
    await bus.publish('pack.grant.changed', { pack_id: randomUUID(), tenant_id: randomUUID(), grantee_tenant_id: randomUUID(), namespace: 'acme', name: 'tools', granted: false, user_id: randomUUID() });
    await new Promise((resolve) => setTimeout(resolve, 50));
  };
  /** Moves the clock and waits until the schedulers have looked at least twice since. */
  const advance = async (ms: number) => {
    now = new Date(now.getTime() + ms);
    await new Promise((resolve) => setTimeout(resolve, 120));
  };
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (let i = 0; i < 200; i += 1) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    throw new Error('condition not reached');
  }

  async function startReplica(schedules: ExecutionConfig['schedules'] = { clock: () => now, pollMs: 20 }): Promise<void> {
    const service = createExecutionService({ database: db.database, cache: createCache({ prefix: `sched-${randomUUID()}:` }), bus, log, config: { ...API_TEST_CONFIG, schedules } });
    await service.start();
    const server = await listen(createServiceApp({ service: 'execution', routes: service.routes, internalSecret: SECRET, log }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    replicas.push({ server, stop: () => service.stop() });
  }
  async function stopReplicas(): Promise<void> {
    for (const replica of replicas.splice(0)) {
      await closeServer(replica.server);
      await replica.stop();
    }
  }

  beforeAll(async () => {
    db = await kind.open();
    bus = await createBus({ logger: log });
    responders.push(
      await bus.respond(RESOLVE_COMMAND_RPC, async (request): Promise<ResolvedCommand> => {
        if (request.namespace !== 'acme' || request.name !== 'report' || !request.tenant_ids.some((id) => seers.has(id))) throw new NotFoundError('No such command');
        const pack = { id: randomUUID(), namespace: 'acme', name: 'tools', version: '1.0.0', version_id: randomUUID(), owner_tenant_id: randomUUID(), visibility: 'public' as const };
        return { namespace: 'acme', name: 'report', description: '', entry: 'commands/report.js', input_schema: reportSchema, output_schema: null, timeout: 30, retries: 0, queue: 'medium', pack, package: { sha256: 'x', size_bytes: 1 } };
      }),
      await bus.respond(USER_PRINCIPAL_RPC, async ({ user_id }) => {
        await held.get(user_id);
        return { identity: users.get(user_id) ?? null };
      }),
    );
    await startReplica();
    await startReplica();
  });

  afterAll(async () => {
    await stopReplicas();
    await Promise.all(responders.map((r) => r.cancel()));
    await bus?.close();
    await db?.dispose();
  });

  it('creates with defaults (201), reads, lists, changes, pauses, resumes and deletes a schedule', async () => {
    const me = person();
    const created = await create(me, { description: 'daily digest', cron: '0 9 * * *', timezone: 'Europe/Berlin' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const schedule = created.body.data;
    expect(schedule).toMatchObject({ command: 'acme.report', input: { text: 'hi' }, cron: '0 9 * * *', timezone: 'Europe/Berlin', enabled: true, overlap: 'skip', catch_up: 'none', description: 'daily digest', paused_reason: null, next_run_at: '2026-05-02T07:00:00.000Z', proposed_by: null, created_by: me.userId });
    expect((await call(`/schedules/${schedule.id}`, me)).body.data).toEqual(schedule);
    expect((await call('/schedules', me)).body.data).toMatchObject({ schedules: [schedule], total: 1, page: 1, pages: 1 });

    const changed = await call(`/schedules/${schedule.id}`, me, { method: 'PATCH', body: { cron: '@hourly', timezone: 'UTC', overlap: 'queue', catch_up: 'latest' } });
    expect(changed.body.data).toMatchObject({ cron: '@hourly', overlap: 'queue', catch_up: 'latest', next_run_at: '2026-05-01T11:00:00.000Z' });
    const paused = await call(`/schedules/${schedule.id}/pause`, me, { method: 'POST' });
    expect(paused.body.data).toMatchObject({ enabled: false, paused_reason: 'paused', next_run_at: null });
    expect((await call('/schedules?enabled=true', me)).body.data.total).toBe(0);
    const resumed = await call(`/schedules/${schedule.id}/resume`, me, { method: 'POST' });
    expect(resumed.body.data).toMatchObject({ enabled: true, paused_reason: null, next_run_at: '2026-05-01T11:00:00.000Z' });
    expect((await call(`/schedules/${schedule.id}`, me, { method: 'DELETE' })).body.data).toEqual({ id: schedule.id, deleted: true });
    expectError(await call(`/schedules/${schedule.id}`, me), 404, 'NOT_FOUND');
  });

  it('answers 400 with details.field for a bad cron, time zone, command, input or body', async () => {
    const me = person();
    expectError(await create(me, { cron: 'every day' }), 400, 'VALIDATION_FAILED', 'cron');
    expectError(await create(me, { cron: '0 0 9 * * *' }), 400, 'VALIDATION_FAILED', 'cron');
    expectError(await create(me, { cron: '61 * * * *' }), 400, 'VALIDATION_FAILED', 'cron');
    expectError(await create(me, { cron: '@fortnightly' }), 400, 'VALIDATION_FAILED', 'cron');
    expectError(await create(me, { timezone: 'Mars/Olympus_Mons' }), 400, 'VALIDATION_FAILED', 'timezone');
    expectError(await create(me, { command: 'acme.nothing' }), 400, 'VALIDATION_FAILED', 'command');
    expectError(await create(me, { command: 'acme/report' }), 400, 'VALIDATION_FAILED', 'command');
    expectError(await create(me, { input: { text: 7 } }), 400, 'VALIDATION_FAILED', 'input.text');
    expectError(await create(me, { input: {} }), 400, 'VALIDATION_FAILED', 'input.text');
    expectError(await create(me, { input: [1] }), 400, 'VALIDATION_FAILED', 'input');
    expectError(await create(me, { overlap: 'sometimes' }), 400, 'VALIDATION_FAILED', 'overlap');
    expectError(await create(me, { colour: 'red' }), 400, 'VALIDATION_FAILED');
    expectError(await call('/schedules/not-a-uuid', me), 400, 'VALIDATION_FAILED', 'id');
    const made = (await create(me, {})).body.data;
    expectError(await call(`/schedules/${made.id}`, me, { method: 'PATCH', body: {} }), 400, 'VALIDATION_FAILED');
    expectError(await call(`/schedules/${made.id}`, me, { method: 'PATCH', body: { timezone: 'Nowhere/Else' } }), 400, 'VALIDATION_FAILED', 'timezone');
    expectError(await call(`/schedules/${made.id}/runs?limit=1000`, me), 400, 'VALIDATION_FAILED', 'limit');
    await call(`/schedules/${made.id}`, me, { method: 'DELETE' });
  });

  it('holds a free tenant to 5 enabled schedules, once an hour at most; paused ones do not count', async () => {
    const free = person('free');
    expectError(await create(free, { cron: '*/30 * * * *' }), 400, 'VALIDATION_FAILED', 'cron');
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await create(free, { cron: '0 * * * *' })).body.data.id);
    const sixth = await create(free, { cron: '0 * * * *' });
    expectError(sixth, 403, 'SCHEDULE_LIMIT_REACHED');
    expect(sixth.body.error.details).toMatchObject({ limit: 5, tier: 'free' });
    const paused = await create(free, { cron: '0 * * * *', enabled: false });
    expect(paused.status).toBe(201);
    expectError(await call(`/schedules/${paused.body.data.id}/resume`, free, { method: 'POST' }), 403, 'SCHEDULE_LIMIT_REACHED');
    await call(`/schedules/${ids[0]}/pause`, free, { method: 'POST' });
    expect((await call(`/schedules/${paused.body.data.id}/resume`, free, { method: 'POST' })).status).toBe(200);
    expectError(await call(`/schedules/${ids[1]}`, free, { method: 'PATCH', body: { cron: '*/5 * * * *' } }), 400, 'VALIDATION_FAILED', 'cron');
    for (const id of [...ids, paused.body.data.id]) await call(`/schedules/${id}`, free, { method: 'DELETE' });
  });

  it("answers 404 for another tenant's schedule, whatever the call, and lists none of it", async () => {
    const owner = person();
    const stranger = person();
    const { id } = (await create(owner, { cron: '0 * * * *' })).body.data;
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/pause'], ['POST', '/resume'], ['POST', '/trigger'], ['GET', '/runs']] as const) {
      expectError(await call(`/schedules/${id}${path}`, stranger, { method, body: method === 'PATCH' ? { description: 'mine now' } : undefined }), 404, 'NOT_FOUND');
    }
    expect((await call('/schedules', stranger)).body.data).toMatchObject({ schedules: [], total: 0 });
    expect((await rowOf(id)).description).toBe('');
    await call(`/schedules/${id}`, owner, { method: 'DELETE' });
  });

  it('fires an every-minute schedule once per tick across both replicas, as tasks of its creator', async () => {
    const me = person();
    const { id } = (await create(me, { overlap: 'queue' })).body.data;
    const ticks: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      await advance(60_000);
      ticks.push(new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString());
      await until(() => runsOf(me, id), (runs) => runs.length === i + 1);
    }
    await advance(0);
    const runs = await runsOf(me, id);
    expect(runs.map((r) => r.scheduled_for).reverse()).toEqual(ticks);
    expect(runs.every((r) => r.status === 'pending')).toBe(true);
    expect((await rowOf(id)).lastTaskId).toBe(runs[0]!.task_id);
    await call(`/schedules/${id}`, me, { method: 'DELETE' });
  });

  it('fires each tick in a trace of its own rooted at schedule.fire, with its task\'s job published under it', async () => {
    const me = person();
    const { id } = (await create(me, { overlap: 'queue' })).body.data;
    await advance(60_000);
    const [run] = await until(() => runsOf(me, id), (runs) => runs.length === 1);
    const fired = spans.named('schedule.fire').filter((span) => span.attributes['svc.schedule.id'] === id);
    expect(fired).toHaveLength(1);
    expect(parentIdOf(fired[0]!), 'the root of its trace').toBeUndefined();
    expect(fired[0]!.attributes).toMatchObject({ 'svc.command': 'acme/report', 'svc.tenant.id': me.tenantId });
    const publish = await until(
      async () => spans.named('bus.publish exec.medium').filter((span) => span.spanContext().traceId === fired[0]!.spanContext().traceId),
      (found) => found.length === 1,
    );
    expect(parentIdOf(publish[0]!)).toBe(fired[0]!.spanContext().spanId);
    expect(run!.status).toBe('pending');
    await call(`/schedules/${id}`, me, { method: 'DELETE' });
  });

  it('answers a pause once the run of a tick being fired is made, so that the runs it then lists are all there is', async () => {
    const me = person();
    let release = () => {};
    held.set(me.userId, new Promise<void>((resolve) => (release = resolve)));
    const { id } = (await create(me, { overlap: 'queue' })).body.data;
    await advance(60_000);
    await until(() => rowOf(id), (row) => row.pendingTick !== null);
    const pausing = call(`/schedules/${id}/pause`, me, { method: 'POST' });
    await until(() => rowOf(id), (row) => !row.enabled);
    release();
    expect((await pausing).body.data).toMatchObject({ enabled: false, paused_reason: 'paused' });
    expect(await runsOf(me, id)).toHaveLength(1);
    await advance(60_000);
    expect(await runsOf(me, id)).toHaveLength(1);
    await call(`/schedules/${id}`, me, { method: 'DELETE' });
  });

  it('overlap skip: ticks while the last run is unfinished fire nothing, and are counted', async () => {
    const me = person();
    const { id } = (await create(me, {})).body.data;
    await advance(60_000);
    await until(() => runsOf(me, id), (runs) => runs.length === 1);
    await advance(60_000);
    await advance(60_000);
    await until(() => rowOf(id), (row) => row.skippedTicks === 2);
    expect(await runsOf(me, id)).toHaveLength(1);
    await call(`/schedules/${id}`, me, { method: 'DELETE' });
  });

  it('triggers one run now, listed with no tick; an input the command no longer takes gives a failed run, not a crash', async () => {
    const me = person();
    const { id } = (await create(me, { cron: '0 0 1 1 *' })).body.data;
    const triggered = await call(`/schedules/${id}/trigger`, me, { method: 'POST' });
    expect(triggered.status).toBe(202);
    expect(triggered.body.data).toMatchObject({ status: 'pending', status_url: `/api/v1/tasks/${triggered.body.data.task_id}` });
    reportSchema = { type: 'object', properties: { text: { type: 'string', maxLength: 1 } } };
    await commandChanged();
    try {
      const refused = await call(`/schedules/${id}/trigger`, me, { method: 'POST' });
      expect(refused.body.data.status).toBe('failure');
      const runs = await runsOf(me, id);
      expect(runs.map((r) => [r.status, r.scheduled_for, r.error?.type ?? null])).toEqual([
        ['failure', null, 'ValidationError'],
        ['pending', null, null],
      ]);
      expect((await rowOf(id)).enabled).toBe(true);
    } finally {
      reportSchema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
      await commandChanged();
    }
    await call(`/schedules/${id}`, me, { method: 'DELETE' });
  });

  it('pauses itself, with the reason, when its creator can no longer reach the command or is gone', async () => {
    const lost = person();
    const gone = person();
    const a = (await create(lost, { overlap: 'queue' })).body.data.id;
    const b = (await create(gone, { overlap: 'queue' })).body.data.id;
    seers.delete(lost.tenantId);
    users.delete(gone.userId);
    await commandChanged();
    await advance(60_000);
    expect(await until(() => rowOf(a), (row) => !row.enabled)).toMatchObject({ pausedReason: 'command_unavailable', nextRunAt: null });
    expect(await until(() => rowOf(b), (row) => !row.enabled)).toMatchObject({ pausedReason: 'creator_unavailable', nextRunAt: null });
    expect(await runsOf(lost, a)).toEqual([]);
    // Resuming checks the command again: still out of reach, refused.
    expectError(await call(`/schedules/${a}/resume`, lost, { method: 'POST' }), 400, 'VALIDATION_FAILED', 'command');
    seers.add(lost.tenantId);
    await commandChanged();
    expect((await call(`/schedules/${a}/resume`, lost, { method: 'POST' })).body.data).toMatchObject({ enabled: true, paused_reason: null });
    await call(`/schedules/${a}`, lost, { method: 'DELETE' });
  });

  it('fires a tick whose scheduler died after claiming it, once, even when its run was already made', async () => {
    const me = person();
    const { id } = (await create(me, { cron: '0 * * * *', overlap: 'queue' })).body.data;
    const tick = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
    // As a scheduler leaves it that claimed the tick and died before making its run.
    const leave = () => db.database.db.update(scheduleTable).set({ pendingTick: tick, pendingSince: new Date(now.getTime() - 3 * 60_000) }).where(eq(scheduleTable.id, id));
    await leave();
    const runs = await until(() => runsOf(me, id), (found) => found.length === 1);
    expect(runs[0]!.scheduled_for).toBe(tick.toISOString());
    expect(await until(() => rowOf(id), (row) => row.pendingTick === null)).toMatchObject({ pendingSince: null, lastTaskId: runs[0]!.task_id });
    // Died after making the run, before saying so: fired again, nothing is run twice.
    await leave();
    await until(() => rowOf(id), (row) => row.pendingTick === null);
    expect(await runsOf(me, id)).toHaveLength(1);
    await call(`/schedules/${id}`, me, { method: 'DELETE' });
  });

  it('counts a tick missed, and stays on, when identity cannot be asked who its creator is', async () => {
    const me = person();
    const { id } = (await create(me, { overlap: 'queue' })).body.data;
    const identity = responders.splice(1, 1)[0]!;
    await identity.cancel();
    try {
      await advance(60_000);
      expect(await until(() => rowOf(id), (row) => row.missedTicks === 1)).toMatchObject({ enabled: true, pausedReason: null });
      expect(await runsOf(me, id)).toEqual([]);
    } finally {
      responders.push(await bus.respond(USER_PRINCIPAL_RPC, async ({ user_id }) => ({ identity: users.get(user_id) ?? null })));
    }
    await call(`/schedules/${id}`, me, { method: 'DELETE' });
  });

  it('survives both schedulers stopping: catch_up none fires none of the missed ticks, latest fires the latest once', async () => {
    const me = person();
    const none = (await create(me, { cron: '0 * * * *', catch_up: 'none', overlap: 'queue' })).body.data.id;
    const latest = (await create(me, { cron: '0 * * * *', catch_up: 'latest', overlap: 'queue' })).body.data.id;
    await stopReplicas();
    // Down for three hourly ticks and a half.
    const due = (await rowOf(none)).nextRunAt!;
    now = new Date(due.getTime() + 2 * 3_600_000 + 1_800_000);
    await startReplica();
    await startReplica();
    const caughtUp = await until(() => runsOf(me, latest), (runs) => runs.length === 1);
    expect(caughtUp[0]!.scheduled_for).toBe(new Date(due.getTime() + 2 * 3_600_000).toISOString());
    await until(() => rowOf(none), (row) => row.missedTicks === 3);
    expect(await runsOf(me, none)).toEqual([]);
    expect((await rowOf(none)).nextRunAt).toEqual(new Date(due.getTime() + 3 * 3_600_000));
    expect((await rowOf(latest)).missedTicks).toBe(2);
    for (const id of [none, latest]) await call(`/schedules/${id}`, me, { method: 'DELETE' });
  });

  it("creates a pack's proposed schedules paused for the installing tenant, once", async () => {
    const me = person();
    const event = {
      pack_id: randomUUID(),
      tenant_id: me.tenantId,
      user_id: me.userId,
      namespace: 'acme',
      name: 'tools',
      version: '1.0.0',
      version_id: randomUUID(),
      commands: ['report'],
      previous_version: null,
      visibility: 'public',
      schedules: [{ command: 'report', cron: '0 8 * * 1', timezone: 'Europe/Berlin', input: { text: 'weekly' }, description: 'Monday report' }],
    };
    await bus.publish('pack.installed', event);
    await bus.publish('pack.installed', { ...event, version: '1.0.1', previous_version: '1.0.0' });
    const listed = await until(() => call('/schedules', me), (reply) => reply.body.data.schedules.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await call('/schedules', me)).body.data.total).toBe(1);
    const proposal = listed.body.data.schedules[0];
    expect(proposal).toMatchObject({ command: 'acme.report', cron: '0 8 * * 1', timezone: 'Europe/Berlin', input: { text: 'weekly' }, description: 'Monday report', enabled: false, paused_reason: 'proposed_by_pack', proposed_by: '@acme/tools', next_run_at: null });
    const on = await call(`/schedules/${proposal.id}/resume`, me, { method: 'POST' });
    expect(on.body.data).toMatchObject({ enabled: true, paused_reason: null });
    expect(new Date(on.body.data.next_run_at).getTime()).toBeGreaterThan(now.getTime());
  });

  it('a scheduler with nothing due looks less and less often, and at the tick its own replica sets, not at its next look', async () => {
    await stopReplicas();
    await db.database.db.delete(scheduleTable);
    // A wall clock 4.7 s before a minute: looks at 0, 1 and 3 s find nothing, so the next is due at 7 s.
    const minute = Math.ceil((Date.now() + 60_000) / 60_000) * 60_000;
    const offset = minute - 4_700 - Date.now();
    await startReplica({ clock: () => new Date(Date.now() + offset), pollMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    const me = person();
    const created = await create(me, { overlap: 'queue' });
    expect(new Date(created.body.data.next_run_at).getTime()).toBe(minute);
    // The tick is due 1.5 s after it was set; the look after 3 s was planned for 4 s later.
    const runs = await until(() => runsOf(me, created.body.data.id), (listed) => listed.length === 1);
    expect(Date.now() + offset).toBeLessThan(minute + 1_500);
    expect(runs[0]!.scheduled_for).toBe(new Date(minute).toISOString());
  });
});
