import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type Identity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, ephemeralQueueName, type Bus } from '@svc/bus';
import type { EventPayload } from '@svc/contracts';
import { createCache } from '@svc/cache';
import { usageLimitKey } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { closeServer, createServiceApp, listen } from '@svc/platform';
import { createAdminService, type AdminServiceHandle } from '../app.js';
import { activity, adminUsers, inbox } from '../db/schema.js';

const log = createLogger({ service: 'test', silent: true });
const SECRET = 'admin-usage-test-secret-0123456789abcdef';
const MB = 1024 * 1024;

function caller(overrides: Partial<Identity> = {}): Identity {
  return { ...personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'someone', tier: 'free' }), ...overrides };
}

describe.each(testDatabaseKinds())('usage on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let otherBus: Bus;
  let admin: AdminServiceHandle;
  let unlimited: AdminServiceHandle;
  let server: Server;
  let base: string;
  let base2: string;
  let server2: Server;
  let now = new Date('2026-03-15T12:00:00Z');
  const cache = createCache({});
  const warnings: EventPayload<'usage.quota.exceeded'>[] = [];
  const mails: EventPayload<'email.requested'>[] = [];

  async function put(path: string, body: unknown, as?: Identity) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (as) headers[INTERNAL_IDENTITY_HEADER] = signInternalIdentity(as, SECRET);
    const res = await fetch(`${base}${path}`, { method: 'PUT', headers, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function get(path: string, as?: Identity, root = base) {
    const headers: Record<string, string> = {};
    if (as) headers[INTERNAL_IDENTITY_HEADER] = signInternalIdentity(as, SECRET);
    const res = await fetch(`${root}${path}`, { headers });
    return { status: res.status, body: (await res.json()) as any };
  }

  const ran = (who: Identity, command: string, status: 'success' | 'failure' | 'timeout', durationMs: number, messageId = randomUUID()) =>
    bus.publish('command.executed', { command, tenant_id: who.tenantId, user_id: who.userId, duration_ms: durationMs, task_id: randomUUID(), status }, { messageId });

  const counted = async (who: Identity, executed: number) =>
    vi.waitFor(async () => expect((await get('/usage', who)).body.data.usage.commands_executed).toBe(executed), { timeout: 5000 });

  beforeAll(async () => {
    db = await kind.open();
    bus = await createBus({ logger: log });
    await bus.subscribe(ephemeralQueueName('test.overage'), ['usage.quota.exceeded', 'email.requested'], async (m) => {
      if (m.name === 'usage.quota.exceeded') warnings.push(m.payload);
      else mails.push(m.payload as EventPayload<'email.requested'>);
    }, { ephemeral: true });
    admin = createAdminService({ database: db.database, cache, bus, log, config: { auditKey: 'admin-usage-test-audit-key-0123456789abc' }, now: () => now });
    await admin.start();
    server = await listen(createServiceApp({ service: 'test', routes: admin.routes, internalSecret: SECRET, log }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    // The same read model served with limits turned off, as a self-hosted deployment runs it.
    unlimited = createAdminService({ database: db.database, bus: (otherBus = await createBus({ logger: log })), log, config: { usageLimits: false, auditKey: 'admin-usage-test-audit-key-0123456789abc' }, now: () => now });
    server2 = await listen(createServiceApp({ service: 'test', routes: unlimited.routes, internalSecret: SECRET, log }), 0, '127.0.0.1');
    base2 = `http://127.0.0.1:${(server2.address() as AddressInfo).port}/api/v1`;
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    if (server2) await closeServer(server2);
    await admin?.stop();
    await bus?.close();
    await otherBus?.close();
    await db?.dispose();
  });

  it('counts each run once, even when the bus delivers the same event twice', async () => {
    const ada = caller();
    const duplicate = randomUUID();
    await ran(ada, 'acme.hello', 'success', 1500, duplicate);
    await ran(ada, 'acme.hello', 'success', 1500, duplicate);
    await ran(ada, 'acme.hello', 'failure', 500);
    await ran(ada, 'tools.lint', 'timeout', 1000);
    await counted(ada, 3);
    const { body } = await get('/usage', ada);
    expect(body.data).toEqual({
      period: '2026-03',
      tenant_id: ada.tenantId,
      usage: { commands_executed: 3, storage_bytes: 0, llm_tokens: { input: 0, output: 0, total: 0 }, concurrent_jobs: { current: 0, peak: 0 } },
      limits: { commands_per_month: 100, storage_bytes: 100 * MB, llm_tokens_per_month: 10_000, concurrent_jobs: null },
      percentage_used: { storage: 0, llm_tokens: 0 },
    });
    // Events that do not name their pack (a worker older than those fields) count under the command's namespace.
    const packs = await get('/usage/by-pack', ada);
    const none = { llm_tokens: { input: 0, output: 0, total: 0 }, llm_requests: 0 };
    expect(packs.body.data).toEqual({
      period: '2026-03',
      packs: [
        { pack: 'acme', versions: {}, commands_executed: 2, commands_succeeded: 1, commands_failed: 1, execution_time_seconds: 2, ...none },
        { pack: 'tools', versions: {}, commands_executed: 1, commands_succeeded: 0, commands_failed: 1, execution_time_seconds: 1, ...none },
      ],
    });
  });

  it('knows a run counted before by its activity row: the same end delivered in a later batch counts nothing, and no inbox row is written for it', async () => {
    const kim = caller();
    await bus.publish('user.registered', { user_id: kim.userId, tenant_id: kim.tenantId, email: 'kim@example.test', tier: 'free', access_code_id: randomUUID(), cohort: 'comp' });
    await vi.waitFor(async () => expect(await db.database.db.select().from(adminUsers).where(eq(adminUsers.userId, kim.userId))).toHaveLength(1), { timeout: 5000 });
    const once = randomUUID();
    await ran(kim, 'acme.hello', 'success', 1000, once);
    await counted(kim, 1);
    await ran(kim, 'acme.hello', 'success', 1000, once);
    await ran(kim, 'acme.hello', 'failure', 1000);
    await counted(kim, 2);
    expect((await get('/usage/by-pack', kim)).body.data.packs).toMatchObject([{ pack: 'acme', commands_executed: 2, commands_succeeded: 1, commands_failed: 1 }]);
    expect(await db.database.db.select({ id: activity.id }).from(activity).where(eq(activity.id, once))).toEqual([{ id: once }]);
    expect(await db.database.db.select().from(inbox).where(eq(inbox.eventId, once))).toEqual([]);
    // The user's count of events moves once per run too (and once for the sign-up).
    expect(await db.database.db.select({ events: adminUsers.eventsCount }).from(adminUsers).where(eq(adminUsers.userId, kim.userId))).toEqual([{ events: 3 }]);
  });

  it('counts runs and LLM calls per pack and version, two packs of one namespace apart', async () => {
    const pat = caller();
    const run = (command: string, pack: string, version: string) =>
      bus.publish('command.executed', { command, pack, version, tenant_id: pat.tenantId, user_id: pat.userId, duration_ms: 1000, task_id: randomUUID(), status: 'success' });
    await run('acme.chat', '@acme/assistant', '1.0.0');
    await run('acme.chat', '@acme/assistant', '1.1.0');
    await run('acme.chat', '@acme/assistant', '1.1.0');
    await run('acme.tidy', '@acme/janitor', '2.0.0');
    await bus.publish('llm.usage.reported', { command: 'acme.chat', pack: '@acme/assistant', version: '1.1.0', tenant_id: pat.tenantId, user_id: pat.userId, model: 'gpt-4o', input_tokens: 100, output_tokens: 20 });
    await counted(pat, 4);
    await vi.waitFor(async () => expect((await get('/usage', pat)).body.data.usage.llm_tokens.total).toBe(120), { timeout: 5000 });
    expect((await get('/usage/by-pack', pat)).body.data.packs).toEqual([
      { pack: '@acme/assistant', versions: { '1.0.0': 1, '1.1.0': 2 }, commands_executed: 3, commands_succeeded: 3, commands_failed: 0, execution_time_seconds: 3, llm_tokens: { input: 100, output: 20, total: 120 }, llm_requests: 1 },
      { pack: '@acme/janitor', versions: { '2.0.0': 1 }, commands_executed: 1, commands_succeeded: 1, commands_failed: 0, execution_time_seconds: 1, llm_tokens: { input: 0, output: 0, total: 0 }, llm_requests: 0 },
    ]);
    expect((await get('/usage?view=dashboard', pat)).body.data.usage.commands.by_pack).toEqual({ '@acme/assistant': 3, '@acme/janitor': 1 });
  });

  it('counts a call made with the user s own provider key as a request with no platform tokens, never toward the quota', async () => {
    const bea = caller();
    await bus.publish('user.registered', { user_id: bea.userId, tenant_id: bea.tenantId, email: 'bea@example.test', tier: 'free', access_code_id: randomUUID(), cohort: 'comp' });
    await vi.waitFor(async () => expect(await db.database.db.select().from(adminUsers).where(eq(adminUsers.userId, bea.userId))).toHaveLength(1), { timeout: 5000 });
    const report = (input: number, byok: boolean) =>
      bus.publish('llm.usage.reported', { command: 'acme.chat', pack: '@acme/assistant', version: '1.0.0', tenant_id: bea.tenantId, user_id: bea.userId, model: 'gpt-4o', input_tokens: input, output_tokens: 0, byok });
    await report(50_000, true);
    await report(50_000, true);
    await report(300, false);
    await vi.waitFor(async () => expect((await get('/usage/by-pack', bea)).body.data.packs[0]?.llm_requests).toBe(3), { timeout: 5000 });
    expect((await get('/usage', bea)).body.data.usage.llm_tokens).toEqual({ input: 300, output: 0, total: 300 });
    expect((await get('/usage/by-pack', bea)).body.data.packs[0].llm_tokens).toEqual({ input: 300, output: 0, total: 300 });
    // 100,000 tokens on the user's own key, past Free's 10,000: no warning, since none were the platform's.
    await new Promise((r) => setTimeout(r, 200));
    expect(warnings.filter((w) => w.tenant_id === bea.tenantId)).toEqual([]);
  });

  it('counts LLM tokens by model once per report, even when the bus delivers one twice', async () => {
    const liz = caller();
    const reported = (command: string, model: string, input: number, output: number, messageId = randomUUID()) =>
      bus.publish('llm.usage.reported', { command, tenant_id: liz.tenantId, user_id: liz.userId, model, input_tokens: input, output_tokens: output }, { messageId });
    const twice = randomUUID();
    await reported('acme.summarise', 'gpt-4o', 1000, 200, twice);
    await reported('acme.summarise', 'gpt-4o', 1000, 200, twice);
    await reported('acme.summarise', 'claude-3-5-haiku', 300, 100);
    await reported('tools.tag', 'gpt-4o', 100, 0);
    await vi.waitFor(async () => expect((await get('/usage', liz)).body.data.usage.llm_tokens).toEqual({ input: 1400, output: 300, total: 1700 }), { timeout: 5000 });
    expect((await get('/usage', liz)).body.data.percentage_used.llm_tokens).toBe(17);
    expect((await get('/usage?view=dashboard', liz)).body.data.usage.llm_tokens).toEqual({ used: 1700, limit: 10_000, percent_used: 17, by_model: { 'gpt-4o': 1300, 'claude-3-5-haiku': 400 } });
    expect((await get('/usage', caller())).body.data.usage.llm_tokens).toEqual({ input: 0, output: 0, total: 0 });
  });

  it('counts jobs running now and the month s peak from runs starting and ending, in any order and repeated', async () => {
    const jo = caller();
    const jobs = async () => (await get('/usage', jo)).body.data.usage.concurrent_jobs;
    const start = (taskId: string) => bus.publish('command.started', { command: 'acme.slow', tenant_id: jo.tenantId, user_id: jo.userId, task_id: taskId }, { messageId: `start-${taskId}` });
    const end = (taskId: string) =>
      bus.publish('command.executed', { command: 'acme.slow', tenant_id: jo.tenantId, user_id: jo.userId, duration_ms: 10, task_id: taskId, status: 'success' }, { messageId: `end-${taskId}` });
    const [a, b, c, late] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await start(a);
    await start(b);
    await start(b);
    await start(c);
    await vi.waitFor(async () => expect(await jobs()).toEqual({ current: 3, peak: 3 }), { timeout: 5000 });
    await end(a);
    await bus.publish('task.revoked', { task_id: b, tenant_id: jo.tenantId, user_id: jo.userId });
    await vi.waitFor(async () => expect(await jobs()).toEqual({ current: 1, peak: 3 }), { timeout: 5000 });
    // An end that overtakes its start: the late start never counts as running.
    await end(late);
    await counted(jo, 2);
    await start(late);
    await end(c);
    await vi.waitFor(async () => expect(await jobs()).toEqual({ current: 0, peak: 3 }), { timeout: 5000 });
    expect((await get('/usage', caller())).body.data.usage.concurrent_jobs).toEqual({ current: 0, peak: 0 });
  });

  it('warns of a quota gone past at most once a day per tenant and metric, by event and e-mail to the owner, and goes on counting', async () => {
    const kim = caller();
    await bus.publish('user.registered', { user_id: kim.userId, tenant_id: kim.tenantId, email: 'kim@example.test', tier: 'free', access_code_id: randomUUID(), cohort: 'comp' });
    const tokens = (input: number) => bus.publish('llm.usage.reported', { command: 'acme.chat', tenant_id: kim.tenantId, user_id: kim.userId, model: 'gpt-4o', input_tokens: input, output_tokens: 0 });
    const used = async (total: number) => vi.waitFor(async () => expect((await get('/usage', kim)).body.data.usage.llm_tokens.total).toBe(total), { timeout: 5000 });
    await vi.waitFor(async () => expect(await db.database.db.select().from(adminUsers).where(eq(adminUsers.userId, kim.userId))).toHaveLength(1), { timeout: 5000 });
    await tokens(9_000);
    await used(9_000);
    expect(warnings.filter((w) => w.tenant_id === kim.tenantId)).toEqual([]);
    await tokens(2_000);
    await used(11_000);
    await vi.waitFor(() => expect(mails.filter((m) => m.to === 'kim@example.test')).toHaveLength(1), { timeout: 5000 });
    expect(warnings.filter((w) => w.tenant_id === kim.tenantId)).toEqual([{ tenant_id: kim.tenantId, metric: 'llm_tokens_per_month', used: 11_000, limit: 10_000, period: '2026-03' }]);
    expect(mails.find((m) => m.to === 'kim@example.test')).toMatchObject({ kind: 'usage-quota-exceeded', user_id: kim.userId, text: expect.stringContaining('11000 LLM tokens') });
    await tokens(500);
    await used(11_500);
    now = new Date('2026-03-16T09:00:00Z');
    try {
      await tokens(100);
      await used(11_600);
      await vi.waitFor(() => expect(mails.filter((m) => m.to === 'kim@example.test')).toHaveLength(2), { timeout: 5000 });
      await tokens(100);
      await used(11_700);
    } finally {
      now = new Date('2026-03-15T12:00:00Z');
    }
    expect(warnings.filter((w) => w.tenant_id === kim.tenantId).map((w) => w.used)).toEqual([11_000, 11_600]);
    expect(mails.filter((m) => m.to === 'kim@example.test')).toHaveLength(2);
  });

  it('flags a tenant with hard limits once it is past a quota, and only then; turning them off drops the flag', async () => {
    // Enterprise callers turn hard limits on; the quotas are those of the tier the read model holds (Free here, as after a downgrade).
    const hal = caller({ tier: 'enterprise' });
    const soft = caller({ tier: 'enterprise' });
    for (const who of [hal, soft]) {
      await bus.publish('user.registered', { user_id: who.userId, tenant_id: who.tenantId, email: `${who.userId.slice(0, 8)}@example.test`, tier: 'free', access_code_id: randomUUID(), cohort: 'comp' });
    }
    await vi.waitFor(async () => expect(await db.database.db.select().from(adminUsers).where(eq(adminUsers.userId, soft.userId))).toHaveLength(1), { timeout: 5000 });
    expect(await put('/usage/limits', { hard: true }, hal)).toMatchObject({ status: 200, body: { data: { tenant_id: hal.tenantId, hard: true } } });
    const tokens = (who: Identity, input: number) => bus.publish('llm.usage.reported', { command: 'acme.chat', tenant_id: who.tenantId, user_id: who.userId, model: 'm', input_tokens: input, output_tokens: 0 });
    await tokens(hal, 5_000);
    await tokens(soft, 20_000);
    await vi.waitFor(async () => expect((await get('/usage', soft)).body.data.usage.llm_tokens.total).toBe(20_000), { timeout: 5000 });
    await vi.waitFor(async () => expect((await get('/usage', hal)).body.data.usage.llm_tokens.total).toBe(5_000), { timeout: 5000 });
    expect(await cache.get(usageLimitKey(hal.tenantId))).toBeNull();
    expect(await cache.get(usageLimitKey(soft.tenantId))).toBeNull();
    await tokens(hal, 6_000);
    await vi.waitFor(async () => expect(await cache.get(usageLimitKey(hal.tenantId))).toBe('llm_tokens_per_month'), { timeout: 5000 });
    expect(await put('/usage/limits', { hard: false }, hal)).toMatchObject({ status: 200, body: { data: { hard: false } } });
    expect(await cache.get(usageLimitKey(hal.tenantId))).toBeNull();
    // Turned on while already past a quota: held from the next run on.
    await put('/usage/limits', { hard: true }, soft);
    expect(await cache.get(usageLimitKey(soft.tenantId))).toBe('llm_tokens_per_month');
    // An upgrade whose quotas the tenant is within lifts the hold at once; going back sets it again.
    const tier = (to: 'pro' | 'free', from: 'pro' | 'free') =>
      bus.publish('user.tier.changed', { user_id: soft.userId, tenant_id: soft.tenantId, tier: to, previous_tier: from, source: 'billing', reason: null });
    await tier('pro', 'free');
    await vi.waitFor(async () => expect(await cache.get(usageLimitKey(soft.tenantId))).toBeNull(), { timeout: 5000 });
    await tier('free', 'pro');
    await vi.waitFor(async () => expect(await cache.get(usageLimitKey(soft.tenantId))).toBe('llm_tokens_per_month'), { timeout: 5000 });
    await put('/usage/limits', { hard: false }, soft);
  });

  it('lets only an enterprise tenant turn hard limits on, with a code of its own; turning them off is anybody s', async () => {
    for (const tier of ['free', 'developer_preview', 'pro'] as const) {
      const who = caller({ tier });
      expect(await put('/usage/limits', { hard: true }, who)).toMatchObject({ status: 403, body: { error: { code: 'HARD_LIMITS_ENTERPRISE_ONLY', details: { reason: 'enterprise_required', tier } } } });
      expect(await put('/usage/limits', { hard: false }, who)).toMatchObject({ status: 200, body: { data: { tenant_id: who.tenantId, hard: false } } });
    }
    expect((await put('/usage/limits', { hard: true }, caller({ tier: 'enterprise' }))).status).toBe(200);
  });

  it('lets only the tenant owner or an admin of it change its limits, and refuses a bad body', async () => {
    const org = randomUUID();
    const member = { ...caller({ tier: 'enterprise' }), tenantId: org, memberships: [{ tenantId: org, slug: 'acme', kind: 'organization' as const, role: 'member' as const }] };
    expect((await put('/usage/limits', { hard: true }, member)).status).toBe(403);
    expect((await put('/usage/limits', { hard: true })).status).toBe(401);
    for (const body of [{}, { hard: 'yes' }, { hard: true, tenant_id: org }]) expect((await put('/usage/limits', body, caller())).status, JSON.stringify(body)).toBe(400);
    const orgAdmin = { ...member, memberships: [{ ...member.memberships[0]!, role: 'admin' as const }] };
    expect((await put('/usage/limits', { hard: true }, orgAdmin)).status).toBe(200);
    await put('/usage/limits', { hard: false }, orgAdmin);
  });

  it('keeps the latest storage report, never an older one arriving late, and counts the month s operations', async () => {
    const bob = caller({ tier: 'pro' });
    await bus.publish('storage.changed', { tenant_id: bob.tenantId, storage_bytes: 50 * MB, storage_keys: 3, version: 2 });
    await vi.waitFor(async () => expect((await get('/usage', bob)).body.data.usage.storage_bytes).toBe(50 * MB), { timeout: 5000 });
    await bus.publish('storage.changed', { tenant_id: bob.tenantId, storage_bytes: 10 * MB, storage_keys: 1, version: 1 });
    await vi.waitFor(async () => expect((await get('/usage/history?months=1', bob)).body.data[0].storage_operations).toBe(2), { timeout: 5000 });
    const summary = (await get('/usage', bob)).body.data;
    expect(summary.usage.storage_bytes).toBe(50 * MB);
    expect(summary.limits).toEqual({ commands_per_month: null, storage_bytes: 10 * 1024 * MB, llm_tokens_per_month: 1_000_000, concurrent_jobs: 10 });
    expect(summary.percentage_used.storage).toBe(0.49);
  });

  it('answers the dashboard form', async () => {
    const cy = caller();
    await ran(cy, 'acme.hello', 'success', 10);
    await bus.publish('storage.changed', { tenant_id: cy.tenantId, storage_bytes: 25 * MB, storage_keys: 1, version: 1 });
    await counted(cy, 1);
    await vi.waitFor(async () => expect((await get('/usage', cy)).body.data.usage.storage_bytes).toBe(25 * MB), { timeout: 5000 });
    expect((await get('/usage?view=dashboard', cy)).body.data).toEqual({
      current_period: { start: '2026-03-01T00:00:00.000Z', end: '2026-03-31T23:59:59.999Z' },
      usage: {
        commands: { executed: 1, limit: 100, by_pack: { acme: 1 } },
        storage: { used_bytes: 25 * MB, limit_bytes: 100 * MB, percent_used: 25 },
        llm_tokens: { used: 0, limit: 10_000, percent_used: 0, by_model: {} },
      },
      subscription: { tier: 'free', status: null, current_period_end: null },
    });
  });

  it("shows the caller's subscription as billing last reported it in the dashboard form", async () => {
    const pro = caller({ tier: 'pro' });
    await bus.publish('user.registered', { user_id: pro.userId, tenant_id: pro.tenantId, email: 'pro@example.test', tier: 'pro', access_code_id: randomUUID(), cohort: 'comp' });
    await bus.publish('subscription.changed', { user_id: pro.userId, tier: 'pro', status: 'past_due', payment_issue: true, current_period_end: '2026-03-20T00:00:00.000Z', monthly_price_cents: 5000, occurred_at: '2026-03-10T00:00:00.000Z' });
    await vi.waitFor(async () => expect((await get('/usage?view=dashboard', pro)).body.data.subscription).toEqual({ tier: 'pro', status: 'past_due', current_period_end: '2026-03-20T00:00:00.000Z' }), { timeout: 5000 });
  });

  it('rolls counters over monthly and lists the months asked for, oldest first', async () => {
    const dee = caller();
    await ran(dee, 'acme.hello', 'success', 100);
    await counted(dee, 1);
    now = new Date('2026-04-02T00:00:00Z');
    try {
      expect((await get('/usage', dee)).body.data).toMatchObject({ period: '2026-04', usage: { commands_executed: 0 } });
      await ran(dee, 'acme.hello', 'success', 100);
      await ran(dee, 'acme.hello', 'success', 100);
      await counted(dee, 2);
      const history = (await get('/usage/history?months=3', dee)).body.data;
      expect(history.map((m: any) => [m.period, m.commands_executed])).toEqual([
        ['2026-02', 0],
        ['2026-03', 1],
        ['2026-04', 2],
      ]);
      expect((await get('/usage/history', dee)).body.data).toHaveLength(3);
      expect((await get('/usage/history?months=24', dee)).body.data).toHaveLength(24);
    } finally {
      now = new Date('2026-03-15T12:00:00Z');
    }
  });

  it('refuses a months outside 1-24, an unknown view and unknown parameters', async () => {
    const who = caller();
    for (const months of ['0', '25', 'x', '1.5']) {
      const reply = await get(`/usage/history?months=${months}`, who);
      expect(reply.status, months).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect((await get('/usage?view=chart', who)).status).toBe(400);
    expect((await get('/usage?tenant_id=someone-else', who)).status).toBe(400);
  });

  it('shows a tenant nothing of another tenant', async () => {
    const eve = caller();
    const frank = caller();
    await ran(eve, 'secret.pack', 'success', 10);
    await counted(eve, 1);
    expect((await get('/usage', frank)).body.data.usage.commands_executed).toBe(0);
    expect((await get('/usage/by-pack', frank)).body.data.packs).toEqual([]);
    expect((await get('/usage/history?months=1', frank)).body.data[0].commands_executed).toBe(0);
  });

  it('answers by-user to platform admins only, and 401 without an identity', async () => {
    const gil = caller();
    await ran(gil, 'acme.hello', 'success', 2000);
    await counted(gil, 1);
    expect((await get('/usage/by-user', gil)).status).toBe(403);
    expect((await get('/usage/by-user')).status).toBe(401);
    expect((await get('/usage')).status).toBe(401);
    const ops = caller({ role: 'admin' });
    const one = await get(`/usage/by-user?tenant_id=${gil.tenantId}`, ops);
    expect(one.body.data).toEqual({
      period: '2026-03',
      users: [{ tenant_id: gil.tenantId, user_id: gil.userId, commands_executed: 1, commands_succeeded: 1, commands_failed: 0, execution_time_seconds: 2 }],
    });
    const all = await get('/usage/by-user', caller({ role: 'owner' }));
    expect(all.body.data.users.length).toBeGreaterThan(1);
    expect((await get('/usage/by-user?tenant_id=nope', ops)).status).toBe(400);
  });

  it('has no limits where limits are turned off', async () => {
    const self = caller();
    expect((await get('/usage', self, base2)).body.data.limits).toEqual({ commands_per_month: null, storage_bytes: null, llm_tokens_per_month: null, concurrent_jobs: null });
  });
});
