import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type Identity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, type Bus } from '@svc/bus';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { closeServer, createServiceApp, listen } from '@svc/platform';
import { createAdminService, type AdminServiceHandle } from '../app.js';
import { auditLog } from '../db/schema.js';

const log = createLogger({ service: 'test', silent: true });
const SECRET = 'admin-metrics-test-secret-0123456789abcdef';
const as = (role: Identity['role']): Identity => ({ ...personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: role }), role });

describe.each(testDatabaseKinds())('metrics on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let admin: AdminServiceHandle;
  let server: Server;
  let base: string;
  let clock = Date.parse('2026-03-02T10:00:00Z');
  const ops = as('admin');
  const people = Array.from({ length: 4 }, (_, i) => ({ id: randomUUID(), tenant: randomUUID(), email: `journey${i}@example.test` }));

  async function get(path: string, who: Identity | null = ops) {
    const headers: Record<string, string> = {};
    if (who) headers[INTERNAL_IDENTITY_HEADER] = signInternalIdentity(who, SECRET);
    const res = await fetch(`${base}${path}`, { headers });
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type') ?? '', text, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
  }

  beforeAll(async () => {
    db = await kind.open();
    bus = await createBus({ logger: log });
    admin = createAdminService({ database: db.database, bus, log, config: { auditKey: 'admin-metrics-test-audit-key-0123456789ab' }, now: () => new Date((clock += 60_000)) });
    await admin.start();
    server = await listen(createServiceApp({ service: 'test', routes: admin.routes, internalSecret: SECRET, log }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    for (const p of people) {
      await bus.publish('user.registered', { user_id: p.id, tenant_id: p.tenant, email: p.email, tier: 'free', access_code_id: randomUUID(), cohort: 'friends' });
    }
    await vi.waitFor(async () => expect((await get('/metrics/onboarding')).body.data.funnel[0].count).toBe(4), { timeout: 5000 });
    const [a, b] = people as [(typeof people)[0], (typeof people)[0]];
    await bus.publish('user.developer-mode.enabled', { user_id: a.id, organization_id: randomUUID() });
    await bus.publish('user.developer-mode.enabled', { user_id: b.id, organization_id: randomUUID() });
    await bus.publish('pack.published', { pack_id: randomUUID(), version_id: randomUUID(), tenant_id: a.tenant, user_id: a.id, namespace: 'acme', name: 'tools', version: '1.0.0', visibility: 'public', commands: ['hello'] });
    const run = { command: 'acme.hello', tenant_id: a.tenant, user_id: a.id, task_id: randomUUID() };
    const once = randomUUID();
    await bus.publish('command.executed', { ...run, duration_ms: 100, status: 'success' }, { messageId: once });
    await bus.publish('command.executed', { ...run, duration_ms: 100, status: 'success' }, { messageId: once });
    await bus.publish('command.executed', { ...run, duration_ms: 300, status: 'failure', task_id: randomUUID() });
    await bus.publish('subscription.changed', { user_id: b.id, tier: 'pro', status: 'active', payment_issue: false, current_period_end: null, monthly_price_cents: 5000, occurred_at: '2026-03-02T11:00:00.000Z' });
    await bus.publish('billing.event.recorded', { billing_event_id: 'evt_started', type: 'checkout.started', user_id: b.id, amount_cents: null, occurred_at: '2026-03-02T10:30:00.000Z' });
    await bus.publish('billing.event.recorded', { billing_event_id: 'evt_done', type: 'checkout.completed', user_id: b.id, amount_cents: 5000, occurred_at: '2026-03-03T10:30:00.000Z' });
    await vi.waitFor(async () => expect((await get('/metrics/revenue')).body.data.recent_events).toHaveLength(2), { timeout: 5000 });
    await vi.waitFor(async () => expect((await get('/metrics/usage')).body.data.commands_executed).toBe(2), { timeout: 5000 });
    await vi.waitFor(async () => expect((await get('/metrics/onboarding')).body.data.funnel[2].count).toBe(2), { timeout: 5000 });
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    await admin?.stop();
    await bus?.close();
    await db?.dispose();
  });

  it('answers 401 without an identity and 403 to a member, with no audit row', async () => {
    await db.database.db.delete(auditLog);
    for (const path of ['/metrics/onboarding', '/metrics/revenue', '/metrics/usage', '/metrics/user-journeys', '/metrics/export', '/admin/metrics/funnel']) {
      expect((await get(path, null)).status, path).toBe(401);
      expect((await get(path, as('member'))).status, path).toBe(403);
    }
    expect(await db.database.db.select().from(auditLog)).toEqual([]);
  });

  it('answers the onboarding funnel, counting a run delivered twice once', async () => {
    expect((await get('/metrics/onboarding')).body.data).toEqual({
      funnel: [
        { step: 'signup', count: 4, conversion_pct: 100 },
        { step: 'access_code_redeemed', count: 4, conversion_pct: 100 },
        { step: 'developer_activated', count: 2, conversion_pct: 50 },
        { step: 'pack_created', count: 1, conversion_pct: 25 },
        { step: 'command_executed', count: 1, conversion_pct: 25 },
      ],
    });
    expect((await get('/metrics/onboarding?since=2030-01-01T00:00:00Z')).body.data.funnel[0]).toEqual({ step: 'signup', count: 0, conversion_pct: 0 });
    expect((await get('/metrics/onboarding?since=yesterday')).status).toBe(400);
  });

  it('answers revenue from live subscriptions and usage from runs', async () => {
    const revenue = (await get('/metrics/revenue')).body.data;
    expect(revenue).toMatchObject({ mrr_cents: 5000, active_pro_subscribers: 1 });
    expect(revenue.recent_events[0]).toEqual({ type: 'checkout.completed', data: { id: 'evt_done', user_id: people[1]!.id, amount_cents: 5000 }, created_at: '2026-03-03T10:30:00.000Z' });
    expect((await get('/metrics/usage')).body.data).toEqual({ commands_executed: 2, active_users: 1, error_count: 1, avg_command_duration_ms: 200 });
    expect((await get('/metrics/usage?since=2030-01-01T00:00:00Z')).body.data).toEqual({ commands_executed: 0, active_users: 0, error_count: 0, avg_command_duration_ms: 0 });
  });

  it('answers user journeys with the time to the first command', async () => {
    const journeys = (await get('/metrics/user-journeys?limit=200')).body.data;
    expect(journeys).toHaveLength(4);
    const a = journeys.find((j: any) => j.user_id === people[0]!.id);
    expect(a).toMatchObject({ email: 'journey0@example.test', cohort: 'friends', subscription_tier: 'free', events_count: 5 });
    expect(a.time_to_first_command_ms).toBeGreaterThan(0);
    expect(a.events.map((e: any) => e.type).sort()).toEqual(['command.executed', 'command.executed', 'pack.published', 'user.developer-mode.enabled', 'user.registered']);
    expect(journeys.find((j: any) => j.user_id === people[3]!.id).time_to_first_command_ms).toBeNull();
    expect((await get('/metrics/user-journeys?limit=2&offset=2')).body.data).toHaveLength(2);
    expect((await get('/metrics/user-journeys?limit=201')).status).toBe(400);
  });

  it('exports every event as streamed CSV with the spec s columns, or as JSON', async () => {
    const csv = await get('/metrics/export');
    expect(csv.status).toBe(200);
    expect(csv.type).toContain('text/csv');
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('id,tenant_id,user_id,event_type,event_data,duration_ms,created_at');
    expect(lines).toHaveLength(1 + 4 + 2 + 1 + 2 + 2);
    for (const p of people) expect(csv.text).not.toContain(p.email);
    const json = await get('/metrics/export?format=json');
    expect(json.body.data).toHaveLength(11);
    expect(Object.keys(json.body.data[0])).toEqual(['id', 'tenant_id', 'user_id', 'event_type', 'event_data', 'duration_ms', 'created_at']);
    expect((await get('/metrics/export?format=xml')).status).toBe(400);
    expect((await get('/metrics/export?since=2030-01-01T00:00:00Z&format=json')).body.data).toEqual([]);
  });

  it('aggregates the admin funnel by day or by week', async () => {
    const daily = (await get('/admin/metrics/funnel?interval=day&since=2026-03-01T00:00:00Z')).body.data;
    expect(daily.interval).toBe('day');
    expect(daily.buckets).toEqual([
      { start: '2026-03-02', checkout_started: 1, checkout_completed: 0, registered: 4, first_command: 1 },
      { start: '2026-03-03', checkout_started: 0, checkout_completed: 1, registered: 0, first_command: 0 },
    ]);
    const weekly = (await get('/admin/metrics/funnel?interval=week&since=2026-03-01T00:00:00Z')).body.data;
    expect(weekly.buckets).toEqual([{ start: '2026-03-02', checkout_started: 1, checkout_completed: 1, registered: 4, first_command: 1 }]);
    expect((await get('/admin/metrics/funnel?interval=month')).status).toBe(400);
  });
});
