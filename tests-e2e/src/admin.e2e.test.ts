import { randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '@svc/testing';
import { adminToken, clientAddress, createOrganization, expectError, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { ADMIN, oneMode, startTestFleet, type TestFleet } from './support/fleet.js';

/** The writes of the admin area, each with a body it would accept; `{id}` is a user. */
const ADMIN_WRITES: Array<[string, unknown]> = [
  ['/api/v1/admin/users/{id}/access-codes', { tier: 'pro', kind: 'comp' }],
  ['/api/v1/admin/users/{id}/sessions/revoke', {}],
  ['/api/v1/admin/users/{id}/tier', { tier: 'pro', reason: 'role check' }],
];

const ADMIN_PATHS = [
  '/api/v1/admin/users',
  '/api/v1/admin/audit-log',
  '/api/v1/admin/metrics/funnel',
  '/api/v1/metrics/onboarding',
  '/api/v1/metrics/revenue',
  '/api/v1/metrics/usage',
  '/api/v1/metrics/user-journeys',
  '/api/v1/metrics/export',
  '/api/v1/usage/by-user',
];

async function until(check: () => Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const WEBHOOK_SECRET = 'whsec_e2e_admin';

describe.each(oneMode('real'))('usage, admin area and metrics through the gateway (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let stripe: FakeStripe;
  let call: Call;
  let owner: string;
  const codes: string[] = [];
  const customers: string[] = [];
  const people: TestUser[] = [];
  const logLines: string[] = [];

  /** A run's end, as a worker announces it: the usage and metrics read models count it. */
  const ran = (who: TestUser, status: 'success' | 'failure', durationMs: number) =>
    fleet.infra.bus.publish('command.executed', { command: 'acme.report', pack: '@acme/reports', version: '3.0.1', tenant_id: who.tenantId, user_id: who.id, duration_ms: durationMs, task_id: randomUUID(), status });

  /** The user pays for Pro: billing keeps the processor's customer id, which the admin area must never show or log. */
  async function subscribe(who: TestUser): Promise<string> {
    const customer = `cus_${randomBytes(8).toString('hex')}`;
    customers.push(customer);
    const session = { id: `cs_test_${randomBytes(6).toString('hex')}`, object: 'checkout.session', client_reference_id: who.id, metadata: { user_id: who.id }, customer, subscription: `sub_${randomBytes(6).toString('hex')}`, customer_details: { email: who.email }, amount_total: 5000 };
    const payload = JSON.stringify({ id: `evt_${randomBytes(12).toString('hex')}`, object: 'event', type: 'checkout.session.completed', created: Math.floor(Date.now() / 1000), data: { object: session }, livemode: false });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const reply = await call('/api/v1/billing/webhook', { raw: payload, method: 'POST', headers: { 'content-type': 'application/json', 'payment-signature': signature } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return customer;
  }

  /** Registers somebody with a code minted here, so that the test knows every literal it used. */
  async function register(tier = 'free'): Promise<TestUser> {
    const minted = await call('/api/v1/access-codes', { token: owner, body: { tier, cohort: 'e2e-admin' } });
    const code = minted.body.data.codes[0] as string;
    codes.push(code);
    const slug = `a-${randomBytes(5).toString('hex')}`;
    const body = { email: `${slug}@example.test`, password: 'e2e-password-1', slug, access_code: code };
    const reply = await call('/api/v1/auth/register', { body, headers: clientAddress() });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const me = await call('/api/v1/auth/me', { token: reply.body.data.tokens.accessToken });
    const user = { id: reply.body.data.user.id, email: body.email, password: body.password, slug, token: reply.body.data.tokens.accessToken, tenantId: me.body.data.tenantId };
    people.push(user);
    return user;
  }

  beforeAll(async () => {
    stripe = await startFakeStripe();
    fleet = await startTestFleet(mode, { logLines, billing: { stripeSecretKey: 'sk_test_e2e_admin', stripeApiBase: stripe.url, stripePricePro: 'price_pro', webhookSecret: WEBHOOK_SECRET } });
    call = client(fleet.url);
    owner = await adminToken(call);
  });

  afterAll(async () => {
    await fleet?.stop();
    await stripe?.close();
  });

  it('refuses the admin and metrics endpoints to a member (403) and to nobody (401)', async () => {
    const member = await register();
    for (const path of ADMIN_PATHS) {
      expectError(await call(path), 401, 'AUTHENTICATION_FAILED');
      expectError(await call(path, { token: member.token }), 403, 'PERMISSION_DENIED');
    }
    expectError(await call('/api/v1/usage'), 401, 'AUTHENTICATION_FAILED');
    // Another member, so that the free tier's requests per minute are not what answers.
    const writer = await register();
    for (const [path, body] of ADMIN_WRITES) {
      const target = path.replace('{id}', writer.id);
      expectError(await call(target, { body }), 401, 'AUTHENTICATION_FAILED');
      expectError(await call(target, { token: writer.token, body }), 403, 'PERMISSION_DENIED');
    }
    expectError(await call('/api/v1/admin/access-codes'), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/api/v1/admin/access-codes', { token: writer.token }), 403, 'PERMISSION_DENIED');
    // The refused revoke ended nothing.
    expect((await call('/api/v1/auth/me', { token: writer.token })).status).toBe(200);
  });

  it("counts a tenant's storage and shows it to that tenant only", async () => {
    const ada = await register();
    const bob = await register();
    expect((await call('/api/v1/storage/notes', { method: 'PUT', token: ada.token, body: { data: { text: 'x'.repeat(1000) } } })).status).toBe(201);
    await until(async () => (await call('/api/v1/usage', { token: ada.token })).body.data.usage.storage_bytes > 0);
    const summary = (await call('/api/v1/usage', { token: ada.token })).body.data;
    expect(summary).toMatchObject({ tenant_id: ada.tenantId, limits: { commands_per_month: 100, llm_tokens_per_month: 10_000 } });
    expect((await call('/api/v1/usage', { token: bob.token })).body.data.usage.storage_bytes).toBe(0);
    expect((await call('/api/v1/usage?view=dashboard', { token: ada.token })).body.data.usage.storage.used_bytes).toBe(summary.usage.storage_bytes);
    const history = (await call('/api/v1/usage/history?months=2', { token: ada.token })).body.data;
    expect(history).toHaveLength(2);
    expect(history[1].storage_operations).toBe(1);
    // Runs of a pack: by-pack shows them to their tenant, by pack and version, and nothing to another
    // (a pro user: polling until they are counted would exhaust a free user's 10 requests a minute).
    const carl = await register('pro');
    await ran(carl, 'success', 1200);
    await ran(carl, 'failure', 800);
    await until(async () => (await call('/api/v1/usage', { token: carl.token })).body.data.usage.commands_executed === 2);
    expect((await call('/api/v1/usage/by-pack', { token: carl.token })).body.data).toEqual({
      period: summary.period,
      packs: [{ pack: '@acme/reports', versions: { '3.0.1': 2 }, commands_executed: 2, commands_succeeded: 1, commands_failed: 1, execution_time_seconds: 2, llm_tokens: { input: 0, output: 0, total: 0 }, llm_requests: 0 }],
    });
    expect((await call('/api/v1/usage/by-pack', { token: bob.token })).body.data).toEqual({ period: summary.period, packs: [] });
    // by-user, for the owner: this tenant's one user and its runs.
    expect((await call(`/api/v1/usage/by-user?tenant_id=${carl.tenantId}`, { token: owner })).body.data).toEqual({
      period: summary.period,
      users: [{ tenant_id: carl.tenantId, user_id: carl.id, commands_executed: 2, commands_succeeded: 1, commands_failed: 1, execution_time_seconds: 2 }],
    });
    expectError(await call('/api/v1/usage/history?months=25', { token: ada.token }), 400, 'VALIDATION_FAILED');
  });

  it('lists every account, the platform owner bootstrapped at start-up too, and shows its detail', async () => {
    const me = (await call('/api/v1/auth/me', { token: owner })).body.data;
    await until(async () => (await call('/api/v1/admin/users?tier=enterprise', { token: owner })).body.data.users.some((u: any) => u.user_id === me.id));
    const listed = (await call('/api/v1/admin/users?tier=enterprise', { token: owner })).body.data.users.find((u: any) => u.user_id === me.id);
    expect(listed).toMatchObject({ user_id: me.id, tenant_id: me.tenantId, email: ADMIN.email, tier: 'enterprise', cohort: 'none', payment_customer_id_present: false });
    const detail = await call(`/api/v1/admin/users/${me.id}`, { token: owner });
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.data).toMatchObject({ user: { user_id: me.id, tier: 'enterprise' }, access_code: null });
  });

  it('lists users to the owner, pages them, and shows one with its code as a digest', async () => {
    const dev = await register('pro');
    await createOrganization(call, dev);
    await until(async () => (await call('/api/v1/admin/users?limit=200', { token: owner })).body.data.users.some((u: any) => u.user_id === dev.id));
    const first = await call('/api/v1/admin/users?limit=1&referral=e2e-admin', { token: owner });
    expect(first.body.data.users).toHaveLength(1);
    const second = await call(`/api/v1/admin/users?limit=1&referral=e2e-admin&cursor=${first.body.data.next_cursor}`, { token: owner });
    expect(second.body.data.users[0].user_id).not.toBe(first.body.data.users[0].user_id);
    expect((await call('/api/v1/admin/users?limit=1&offset=1&referral=e2e-admin', { token: owner })).body.data.users[0].user_id).toBe(second.body.data.users[0].user_id);
    // The pro users of this run's cohort, newest first: the developer, and the pro user of the usage test before.
    const pros = (await call('/api/v1/admin/users?tier=pro&referral=e2e-admin', { token: owner })).body.data.users;
    expect(pros.map((u: any) => u.tier)).toEqual(['pro', 'pro']);
    expect(pros[0].user_id).toBe(dev.id);
    expectError(await call('/api/v1/admin/users?limit=201', { token: owner }), 400, 'VALIDATION_FAILED');
    const detail = await call(`/api/v1/admin/users/${dev.id}`, { token: owner });
    expect(detail.body.data.user).toMatchObject({ user_id: dev.id, email: dev.email, payment_customer_id_present: false });
    expect(detail.body.data.access_code.digest).toMatch(/^hmac:/);
    // Billing answers the detail live: this user never subscribed.
    expect(detail.body.data.subscription).toMatchObject({ tier: 'pro', status: null, source: 'billing' });
    for (const code of codes) expect(JSON.stringify(detail.body)).not.toContain(code);
    await until(async () => (await call('/api/v1/metrics/onboarding', { token: owner })).body.data.funnel[2].count >= 1);
  });

  it("answers the usage metrics from the runs since the time asked for: counts, users, errors and the mean duration", async () => {
    const since = new Date().toISOString();
    const [cy, dee] = [await register(), await register()];
    await ran(cy, 'success', 100);
    await ran(cy, 'failure', 300);
    await ran(dee, 'success', 500);
    const usage = async () => (await call(`/api/v1/metrics/usage?since=${encodeURIComponent(since)}`, { token: owner })).body.data;
    await until(async () => (await usage()).commands_executed === 3);
    expect(await usage()).toEqual({ commands_executed: 3, active_users: 2, error_count: 1, avg_command_duration_ms: 300 });
  });

  it('answers every metrics endpoint to the owner', async () => {
    expect((await call('/api/v1/metrics/onboarding', { token: owner })).body.data.funnel.map((s: any) => s.step)).toEqual(['signup', 'access_code_redeemed', 'developer_activated', 'pack_created', 'command_executed']);
    expect((await call('/api/v1/metrics/revenue', { token: owner })).body.data).toMatchObject({ mrr_cents: 0, active_pro_subscribers: 0 });
    expect(Object.keys((await call('/api/v1/metrics/usage', { token: owner })).body.data).sort()).toEqual(['active_users', 'avg_command_duration_ms', 'commands_executed', 'error_count']);
    const journeys = (await call('/api/v1/metrics/user-journeys?limit=200', { token: owner })).body.data;
    expect(journeys.length).toBeGreaterThanOrEqual(people.length);
    const csv = await call('/api/v1/metrics/export', { token: owner });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(String(csv.body).split('\n')[0]).toBe('id,tenant_id,user_id,event_type,event_data,duration_ms,created_at');
    expect((await call('/api/v1/metrics/export?format=json', { token: owner })).body.data.length).toBeGreaterThan(0);
    const funnel = (await call('/api/v1/admin/metrics/funnel?interval=week', { token: owner })).body.data;
    expect(funnel.buckets.reduce((n: number, b: any) => n + b.registered, 0)).toBeGreaterThanOrEqual(people.length);
    const byUser = (await call('/api/v1/usage/by-user', { token: owner })).body.data;
    expect(byUser.users.length).toBeGreaterThanOrEqual(3);
    expect(byUser.users.every((u: any) => people.some((p) => p.id === u.user_id) && u.commands_executed === u.commands_succeeded + u.commands_failed)).toBe(true);
    // Most active first.
    expect(byUser.users.map((u: any) => u.commands_executed)).toEqual([...byUser.users.map((u: any) => u.commands_executed)].sort((a: number, b: number) => b - a));
  });

  it("shows that a paying user has a payment customer, never the customer id itself", async () => {
    const payer = await register();
    // Waits on the list, not the detail: the detail keeps billing's live answer for 60 s.
    await until(async () => (await call('/api/v1/admin/users?limit=200', { token: owner })).body.data.users.some((u: any) => u.user_id === payer.id));
    const customer = await subscribe(payer);
    expect((await call('/api/v1/billing/status', { token: payer.token })).body.data).toMatchObject({ subscription_tier: 'pro', payment_customer_id: customer });
    await until(async () => (await call(`/api/v1/admin/users/${payer.id}`, { token: owner })).body.data.user.payment_customer_id_present === true);
    const detail = await call(`/api/v1/admin/users/${payer.id}`, { token: owner });
    expect(detail.body.data.subscription).toMatchObject({ tier: 'pro', status: 'active', source: 'billing' });
    expect(JSON.stringify(detail.body)).not.toContain(customer);
    const listed = (await call('/api/v1/admin/users?tier=pro&limit=200', { token: owner })).body.data.users.find((u: any) => u.user_id === payer.id);
    expect(listed).toMatchObject({ payment_customer_id_present: true });
    expect(JSON.stringify(listed)).not.toContain(customer);
  });

  it('mints a comp code for a user, whose literal is answered once and registers somebody', async () => {
    const friend = await register();
    await until(async () => (await call(`/api/v1/admin/users/${friend.id}`, { token: owner })).status === 200);
    const minted = await call(`/api/v1/admin/users/${friend.id}/access-codes`, { token: owner, body: { tier: 'pro', kind: 'comp', max_uses: 1 } });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    expect(minted.body.data).toMatchObject({ user_id: friend.id, kind: 'comp', tier: 'pro', cohort: 'comp', max_uses: 1, expires_at: null });
    const code = minted.body.data.code as string;
    expect(code).toMatch(/^SVC-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    codes.push(code);
    expect((await call('/api/v1/access-codes/validate', { body: { code } })).body.data).toEqual({ valid: true, tier: 'pro' });
    // The literal is not shown again: not in the user's detail, nor in identity's list of codes.
    expect(JSON.stringify((await call(`/api/v1/admin/users/${friend.id}`, { token: owner })).body)).not.toContain(code);
    const listed = (await call('/api/v1/access-codes', { token: owner })).body.data;
    expect(listed.find((c: any) => c.id === minted.body.data.id)).toMatchObject({ code: null, cohort: 'comp', is_active: true });
    expect(JSON.stringify(listed)).not.toContain(code);
    // Registering with it works: the digest finds it.
    const slug = `c-${randomBytes(5).toString('hex')}`;
    const registered = await call('/api/v1/auth/register', { body: { email: `${slug}@example.test`, password: 'e2e-password-1', slug, access_code: code }, headers: clientAddress() });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect(registered.body.data.user.subscriptionTier).toBe('pro');
    people.push({ id: registered.body.data.user.id, email: `${slug}@example.test`, password: 'e2e-password-1', slug, token: registered.body.data.tokens.accessToken, tenantId: '' });
    expect((await call('/api/v1/access-codes/validate', { body: { code } })).body.success).toBe(false);

    // The admin list: filters, both paginations, and never a literal.
    const comp = (await call('/api/v1/admin/access-codes?kind=comp&redemption_status=redeemed&referral=comp', { token: owner })).body.data;
    expect(comp.access_codes.map((c: any) => c.id)).toContain(minted.body.data.id);
    expect(comp.access_codes.every((c: any) => c.kind === 'comp' && c.use_count > 0 && !('code' in c))).toBe(true);
    const unredeemed = (await call('/api/v1/admin/access-codes?redemption_status=unredeemed&limit=200', { token: owner })).body.data.access_codes;
    expect(unredeemed.every((c: any) => c.use_count === 0)).toBe(true);
    expect(unredeemed.map((c: any) => c.id)).not.toContain(minted.body.data.id);
    const first = (await call('/api/v1/admin/access-codes?referral=e2e-admin&limit=2', { token: owner })).body.data;
    expect(first.access_codes).toHaveLength(2);
    const second = (await call(`/api/v1/admin/access-codes?referral=e2e-admin&limit=2&cursor=${first.next_cursor}`, { token: owner })).body.data;
    expect((await call('/api/v1/admin/access-codes?referral=e2e-admin&limit=2&offset=2', { token: owner })).body.data.access_codes).toEqual(second.access_codes);
    expect(second.access_codes.map((c: any) => c.id)).not.toContain(first.access_codes[0].id);
    const all = JSON.stringify((await call('/api/v1/admin/access-codes?limit=200', { token: owner })).body);
    for (const literal of codes) expect(all).not.toContain(literal);
    expectError(await call('/api/v1/admin/access-codes?cursor=bogus', { token: owner }), 400, 'VALIDATION_FAILED');
    expectError(await call(`/api/v1/admin/access-codes?cursor=${first.next_cursor}&offset=1`, { token: owner }), 400, 'VALIDATION_FAILED');
    expectError(await call('/api/v1/admin/access-codes?redemption_status=maybe', { token: owner }), 400, 'VALIDATION_FAILED');

    const past = new Date(Date.now() - 60_000).toISOString();
    expectError(await call(`/api/v1/admin/users/${friend.id}/access-codes`, { token: owner, body: { tier: 'pro', kind: 'comp', expires_at: past } }), 400, 'VALIDATION_FAILED');
    expectError(await call(`/api/v1/admin/users/${friend.id}/access-codes`, { token: owner, body: { tier: 'pro', kind: 'standard' } }), 400, 'VALIDATION_FAILED');
    expectError(await call(`/api/v1/admin/users/${friend.id}/access-codes`, { token: owner, body: { tier: 'gold', kind: 'comp' } }), 400, 'VALIDATION_FAILED');
    expectError(await call('/api/v1/admin/users/00000000-0000-4000-8000-000000000000/access-codes', { token: owner, body: { tier: 'pro', kind: 'comp' } }), 404, 'NOT_FOUND');
    expectError(await call('/api/v1/admin/users/not-an-id/access-codes', { token: owner, body: { tier: 'pro', kind: 'comp' } }), 400, 'VALIDATION_FAILED');
  });

  it("revokes every session of a user: the access token issued before is refused right after, the refresh token too, the others' are not", async () => {
    const target = await register();
    const bystander = await register();
    const login = await call('/api/v1/auth/login', { body: { email: target.email, password: target.password }, headers: clientAddress() });
    const { accessToken, refreshToken } = login.body.data.tokens;
    expect((await call('/api/v1/auth/me', { token: accessToken })).status).toBe(200);
    expect((await call('/api/v1/auth/me', { token: target.token })).status).toBe(200);

    // An admin appointed by the owner may revoke too.
    const operator = await register();
    expect((await call(`/api/v1/users/${operator.id}/role`, { method: 'PUT', token: owner, body: { role: 'admin' } })).status).toBe(200);
    const revoked = await call(`/api/v1/admin/users/${target.id}/sessions/revoke`, { token: operator.token, body: {} });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.data).toEqual({ user_id: target.id, revoked_sessions: 2 });

    expectError(await call('/api/v1/auth/me', { token: accessToken }), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/api/v1/auth/me', { token: target.token }), 401, 'AUTHENTICATION_FAILED');
    expect((await call('/api/v1/auth/refresh', { body: { refreshToken } })).status).toBe(401);
    expect((await call('/api/v1/auth/me', { token: bystander.token })).status).toBe(200);
    // Signing in again works: the user is not locked out, only their sessions ended.
    expect((await call('/api/v1/auth/login', { body: { email: target.email, password: target.password }, headers: clientAddress() })).status).toBe(200);
    expectError(await call('/api/v1/admin/users/00000000-0000-4000-8000-000000000000/sessions/revoke', { token: owner, body: {} }), 404, 'NOT_FOUND');
  });

  it("changes a user's tier by hand with a reason; the user's next request sees it", async () => {
    const person = await register();
    await until(async () => (await call(`/api/v1/admin/users/${person.id}`, { token: owner })).status === 200);
    expectError(await call(`/api/v1/admin/users/${person.id}/tier`, { token: owner, body: { tier: 'pro' } }), 400, 'VALIDATION_FAILED');
    expectError(await call(`/api/v1/admin/users/${person.id}/tier`, { token: owner, body: { tier: 'gold', reason: 'x' } }), 400, 'VALIDATION_FAILED');
    const changed = await call(`/api/v1/admin/users/${person.id}/tier`, { token: owner, body: { tier: 'pro', reason: 'conference speaker' } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toEqual({ user_id: person.id, tier: 'pro', previous_tier: 'free', reason: 'conference speaker', email_requested: true });
    expect((await call('/api/v1/auth/me', { token: person.token })).body.data.subscriptionTier).toBe('pro');
    await until(async () => (await call(`/api/v1/admin/users/${person.id}`, { token: owner })).body.data.user.tier === 'pro');
    // The same tier again changes nothing and asks for no e-mail.
    expect((await call(`/api/v1/admin/users/${person.id}/tier`, { token: owner, body: { tier: 'pro', reason: 'again' } })).body.data).toMatchObject({ previous_tier: 'pro', email_requested: false });
  });

  it('keeps an audit row per admin request, readable by the owner, with no code, e-mail or customer id in it or in the logs', async () => {
    const log = await call('/api/v1/admin/audit-log?limit=200', { token: owner });
    expect(log.status).toBe(200);
    const actions = new Set(log.body.data.entries.map((e: any) => e.action));
    for (const action of ['admin.users.list', 'admin.users.read', 'admin.access-codes.mint', 'admin.access-codes.list', 'admin.sessions.revoke', 'admin.users.set-tier', 'metrics.onboarding', 'metrics.export', 'admin.metrics.funnel']) expect(actions).toContain(action);
    expect(log.body.data.entries.every((e: any) => e.correlation_id && ['owner', 'admin'].includes(e.actor_role))).toBe(true);
    const text = JSON.stringify(log.body.data.entries);
    for (const code of codes) expect(text).not.toContain(code);
    for (const person of people) {
      expect(text).not.toContain(person.email);
      expect(text).not.toContain(person.email.split('@')[0]!);
    }
    // A user paid during the run (above): its customer id is in none of them.
    expect(customers).toHaveLength(1);
    expect(actions).toContain('admin.users.read');
    for (const customer of customers) expect(text).not.toContain(customer);
    expect(text).not.toMatch(/cus_[A-Za-z0-9]+/);

    // Everything every service logged during the run, at level debug.
    expect(logLines.some((line) => line.includes('admin request'))).toBe(true);
    const logged = logLines.join('');
    for (const code of codes) expect(logged).not.toContain(code);
    for (const person of people) expect(logged).not.toContain(person.email);
    for (const customer of customers) expect(logged).not.toContain(customer);
    expect(logged).not.toMatch(/cus_[A-Za-z0-9]+/);
  });
});
