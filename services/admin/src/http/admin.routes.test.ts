import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type Identity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, type Bus } from '@svc/bus';
import { createLogger } from '@svc/core';
import { SUBSCRIPTION_STATUS_RPC } from '@svc/contracts';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { closeServer, createServiceApp, listen } from '@svc/platform';
import { createAdminService, type AdminServiceHandle } from '../app.js';
import { auditLog } from '../db/schema.js';

const log = createLogger({ service: 'test', silent: true });
const SECRET = 'admin-routes-test-secret-0123456789abcdef';

const as = (role: Identity['role']): Identity => ({ ...personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: role }), role });

describe.each(testDatabaseKinds())('admin endpoints on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let admin: AdminServiceHandle;
  let server: Server;
  let base: string;
  let clock = Date.parse('2026-03-01T00:00:00Z');
  const admin1 = as('admin');
  const owner = as('owner');
  const member = as('member');
  const users: Array<{ id: string; email: string; code: string }> = [];

  async function get(path: string, who?: Identity, requestId?: string) {
    const headers: Record<string, string> = {};
    if (who) headers[INTERNAL_IDENTITY_HEADER] = signInternalIdentity(who, SECRET);
    if (requestId) headers['x-request-id'] = requestId;
    const res = await fetch(`${base}${path}`, { headers });
    return { status: res.status, body: (await res.json()) as any };
  }
  const auditRows = () => db.database.db.select().from(auditLog);

  beforeAll(async () => {
    db = await kind.open();
    bus = await createBus({ logger: log });
    admin = createAdminService({ database: db.database, bus, log, config: { auditKey: 'admin-routes-test-audit-key-0123456789ab' }, now: () => new Date((clock += 1000)) });
    await admin.start();
    server = await listen(createServiceApp({ service: 'test', routes: admin.routes, internalSecret: SECRET, log }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    for (let i = 0; i < 7; i++) {
      const user = { id: randomUUID(), email: `person${i}@example.test`, code: randomUUID() };
      users.push(user);
      const event = { user_id: user.id, tenant_id: randomUUID(), email: user.email, tier: i < 2 ? 'pro' : 'free', access_code_id: user.code, cohort: i % 2 ? 'partner' : 'friends' } as const;
      const messageId = randomUUID();
      await bus.publish('user.registered', event, { messageId });
      if (i === 0) await bus.publish('user.registered', event, { messageId });
    }
    await bus.publish('subscription.changed', { user_id: users[0]!.id, tier: 'pro', status: 'active', payment_issue: false, current_period_end: '2026-04-01T00:00:00.000Z', monthly_price_cents: 5000, occurred_at: '2026-03-01T00:00:10.000Z' });
    await bus.publish('billing.event.recorded', { billing_event_id: 'evt_1', type: 'invoice.paid', user_id: users[0]!.id, amount_cents: 5000, occurred_at: '2026-03-01T00:00:11.000Z' });
    await vi.waitFor(async () => expect((await get(`/admin/users/${users[0]!.id}`, admin1)).body.data?.recent_billing_events).toHaveLength(1), { timeout: 5000 });
    await vi.waitFor(async () => expect((await get('/admin/users?limit=200', admin1)).body.data.users).toHaveLength(7), { timeout: 5000 });
    await db.database.db.delete(auditLog);
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    await admin?.stop();
    await bus?.close();
    await db?.dispose();
  });

  it('answers 401 without an identity and 403 to a member, writing no audit row', async () => {
    for (const path of ['/admin/users', `/admin/users/${users[0]!.id}`, '/admin/audit-log']) {
      expect((await get(path)).status, path).toBe(401);
      expect((await get(path, member)).status, path).toBe(403);
    }
    expect((await get('/admin/audit-log', admin1)).status).toBe(403);
    expect(await auditRows()).toEqual([]);
  });

  it('lists users newest first, 50 by default, with filters', async () => {
    const all = await get('/admin/users', admin1);
    expect(all.status).toBe(200);
    const listed = all.body.data.users;
    expect(listed.map((u: any) => u.user_id).sort()).toEqual(users.map((u) => u.id).sort());
    const times = listed.map((u: any) => u.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.body.data.next_cursor).toBeNull();
    expect(listed.find((u: any) => u.user_id === users[0]!.id)).toEqual({
      user_id: users[0]!.id,
      tenant_id: expect.any(String),
      email: 'person0@example.test',
      tier: 'pro',
      cohort: 'friends',
      created_at: expect.any(String),
      subscription_status: 'active',
      payment_customer_id_present: true,
    });
    expect((await get('/admin/users?tier=pro', admin1)).body.data.users).toHaveLength(2);
    expect((await get('/admin/users?referral=partner', admin1)).body.data.users).toHaveLength(3);
    const after = listed[3].created_at;
    expect((await get(`/admin/users?created_after=${encodeURIComponent(after)}`, admin1)).body.data.users).toHaveLength(3);
  });

  it('pages by cursor and by offset alike', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await get(`/admin/users?limit=3${cursor ? `&cursor=${cursor}` : ''}`, admin1);
      seen.push(...page.body.data.users.map((u: any) => u.user_id));
      cursor = page.body.data.next_cursor;
    } while (cursor);
    const all = (await get('/admin/users', admin1)).body.data.users.map((u: any) => u.user_id);
    expect(seen).toEqual(all);
    const byOffset = await get('/admin/users?limit=3&offset=3', admin1);
    expect(byOffset.body.data.users.map((u: any) => u.user_id)).toEqual(seen.slice(3, 6));
  });

  it('refuses a limit outside 1-200, a bad cursor, cursor with offset and unknown parameters', async () => {
    for (const query of ['limit=0', 'limit=201', 'limit=x', 'offset=-1', 'cursor=nonsense', 'cursor=abc&offset=1', 'created_after=yesterday', 'sort=email']) {
      const reply = await get(`/admin/users?${query}`, admin1);
      expect(reply.status, query).toBe(400);
      expect(reply.body.error.code, query).toBe('VALIDATION_FAILED');
    }
    expect((await get('/admin/users?limit=200', admin1)).status).toBe(200);
  });

  it('shows one user with the access code as a keyed digest only and no payment customer id', async () => {
    const reply = await get(`/admin/users/${users[0]!.id}`, admin1);
    expect(reply.status).toBe(200);
    expect(reply.body.data.access_code).toEqual({ digest: expect.stringMatching(/^hmac:[0-9a-f]{32}$/), cohort: 'friends' });
    // Billing does not answer here: the read model its events keep stands in.
    expect(reply.body.data.subscription).toEqual({ tier: 'pro', status: 'active', payment_issue: false, current_period_end: '2026-04-01T00:00:00.000Z', monthly_price_cents: 5000, source: 'read_model' });
    expect(reply.body.data.recent_billing_events).toEqual([{ id: 'evt_1', type: 'invoice.paid', amount_cents: 5000, occurred_at: '2026-03-01T00:00:11.000Z' }]);
    expect(JSON.stringify(reply.body)).not.toContain(users[0]!.code);
    expect(JSON.stringify(reply.body)).not.toContain('payment_customer_id"');
    expect((await get(`/admin/users/${randomUUID()}`, admin1)).status).toBe(404);
    expect((await get('/admin/users/not-an-id', admin1)).status).toBe(400);
  });

  it("shows billing's live subscription when billing answers, and keeps that answer 60 s", async () => {
    let asked = 0;
    let status: 'past_due' | 'canceled' = 'past_due';
    const responder = await bus.respond(SUBSCRIPTION_STATUS_RPC, async () => {
      asked += 1;
      return { subscription: { tier: 'pro' as const, status, payment_issue: status === 'past_due', current_period_end: '2026-04-01T00:00:00.000Z', monthly_price_cents: 5000 } };
    });
    try {
      const user = users[1]!.id;
      const first = (await get(`/admin/users/${user}`, admin1)).body.data;
      expect(first.subscription).toMatchObject({ status: 'past_due', payment_issue: true, source: 'billing' });
      expect(first.user).toMatchObject({ subscription_status: 'past_due', payment_customer_id_present: true });
      status = 'canceled';
      // Each request moves this test's clock by a second: the answer stands for 60 of them.
      expect((await get(`/admin/users/${user}`, admin1)).body.data.subscription.status).toBe('past_due');
      expect(asked).toBe(1);
      clock += 60_000;
      expect((await get(`/admin/users/${user}`, admin1)).body.data.subscription.status).toBe('canceled');
      expect(asked).toBe(2);
    } finally {
      await responder.cancel();
    }
  });

  it('writes one row per request before answering, errors included, and lets owners read them', async () => {
    await db.database.db.delete(auditLog);
    const requestId = randomUUID();
    await get('/admin/users?limit=2', admin1, requestId);
    await get(`/admin/users/${users[1]!.id}`, owner);
    await get('/admin/users?limit=0', admin1);
    const rows = await auditRows();
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.correlationId === requestId)).toMatchObject({ actorId: admin1.userId, actorRole: 'admin', action: 'admin.users.list', outcome: 'success', target: null });
    expect(rows.find((r) => r.action === 'admin.users.read')).toMatchObject({ actorId: owner.userId, target: users[1]!.id, outcome: 'success' });
    expect(rows.find((r) => r.outcome === 'VALIDATION_FAILED')).toBeDefined();

    const read = await get(`/admin/audit-log?actor_id=${admin1.userId}&limit=1`, owner);
    expect(read.status).toBe(200);
    expect(read.body.data.entries).toHaveLength(1);
    expect(read.body.data.entries[0]).toMatchObject({ actor_id: admin1.userId, action: 'admin.users.list' });
    const next = await get(`/admin/audit-log?actor_id=${admin1.userId}&limit=1&cursor=${read.body.data.next_cursor}`, owner);
    expect(next.body.data.entries).toHaveLength(1);
    expect(next.body.data.next_cursor).toBeNull();
    expect((await get('/admin/audit-log?action=admin.users.read', owner)).body.data.entries).toHaveLength(1);
    expect((await auditRows()).filter((r) => r.action === 'admin.audit-log.read')).toHaveLength(3);
  });

  it('never keeps an access code, an e-mail or a path it did not recognise in a row', async () => {
    await get('/admin/users/person0@example.test', admin1);
    const text = JSON.stringify(await auditRows());
    for (const user of users) {
      expect(text).not.toContain(user.email);
      expect(text).not.toContain(user.code);
    }
  });
});
