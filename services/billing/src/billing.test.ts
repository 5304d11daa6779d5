import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type Identity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, type Bus, ephemeralQueueName } from '@svc/bus';
import { DEACTIVATE_ACCESS_CODE_RPC, MINT_ACCESS_CODE_RPC, type EventPayload } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { closeServer, createServiceApp, listen } from '@svc/platform';
import { TIER_LIMITS } from '@svc/rate-limit';
import { startFakeStripe, type FakeStripe } from '@svc/testing';
import { createBillingService, type BillingConfig, type BillingServiceHandle } from './app.js';
import { DAY_MS } from './services/clock.js';

const log = createLogger({ service: 'test', silent: true });
const INTERNAL = 'billing-test-internal-secret-0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_billing_test_secret';
const REGISTRATION_SECRET = 'whsec_registration_test_secret';

type Reply = { status: number; body: any };

describe.each(testDatabaseKinds())('billing on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let stripe: FakeStripe;
  let service: BillingServiceHandle;
  let server: Server;
  let base: string;
  let offsetMs = 0;
  /** When set, the clock stands still there (a test pins a moment to the millisecond). */
  let frozen: Date | undefined;
  const clock = () => frozen ?? new Date(Date.now() + offsetMs);
  const changes: EventPayload<'subscription.changed'>[] = [];
  const emails: EventPayload<'email.requested'>[] = [];
  const recorded: EventPayload<'billing.event.recorded'>[] = [];
  const deactivated: string[] = [];
  const mintedIds: string[] = [];

  const config = (): BillingConfig => ({
    stripeSecretKey: 'sk_test_billing',
    stripeApiBase: stripe.url,
    stripePricePro: 'price_pro_monthly',
    stripePriceRegistration: 'price_registration',
    webhookSecret: WEBHOOK_SECRET,
    registrationWebhookSecret: REGISTRATION_SECRET,
    registrationReturnUrl: 'https://svc.example/register?session_id={CHECKOUT_SESSION_ID}',
    schedulerIntervalSeconds: 3600,
  });

  async function serve(handle: BillingServiceHandle) {
    await handle.start();
    const app = createServiceApp({ service: 'test', routes: handle.routes, rootRoutes: handle.rootRoutes, internalSecret: INTERNAL, log });
    const listening = await listen(app, 0, '127.0.0.1');
    return { listening, url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}/api/v1` };
  }

  async function call(path: string, options: { method?: string; as?: Identity; body?: unknown; raw?: string; headers?: Record<string, string> } = {}, at = base): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.as) headers[INTERNAL_IDENTITY_HEADER] = signInternalIdentity(options.as, INTERNAL);
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${at}${path}`, { method: options.method ?? 'GET', headers, body });
    return { status: res.status, body: await res.json() };
  }

  /** A processor event as the processor signs it (the SDK's own test signer), `ageSeconds` old. */
  function deliver(endpoint: 'billing' | 'registration', event: object, options: { secret?: string; ageSeconds?: number; signature?: string } = {}) {
    const payload = JSON.stringify(event);
    const timestamp = Math.floor(clock().getTime() / 1000) - (options.ageSeconds ?? 0);
    const secret = options.secret ?? (endpoint === 'billing' ? WEBHOOK_SECRET : REGISTRATION_SECRET);
    const signature = options.signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
    return call(`/${endpoint}/webhook`, { method: 'POST', raw: payload, headers: { 'payment-signature': signature } });
  }

  const event = (type: string, object: object) => ({ id: `evt_${randomUUID().replaceAll('-', '')}`, object: 'event', type, created: Math.floor(clock().getTime() / 1000), data: { object }, api_version: Stripe.API_VERSION, livemode: false });
  const user = () => personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'buyer', tier: 'free' });
  const changesOf = async (userId: string, count: number) => {
    for (let i = 0; i < 200; i += 1) {
      const mine = changes.filter((c) => c.user_id === userId);
      if (mine.length >= count) return mine;
      await new Promise((r) => setTimeout(r, 20));
    }
    return changes.filter((c) => c.user_id === userId);
  };
  const emailsOf = async (to: string, count: number) => {
    for (let i = 0; i < 200; i += 1) {
      if (emails.filter((e) => e.to === to).length >= count) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    return emails.filter((e) => e.to === to);
  };

  /** A user who paid: checkout completed with a customer id. */
  async function subscribed(): Promise<{ caller: Identity; customer: string }> {
    const caller = user();
    const customer = `cus_${randomUUID().slice(0, 8)}`;
    const session = { id: `cs_test_${randomUUID().slice(0, 8)}`, object: 'checkout.session', client_reference_id: caller.userId, metadata: { user_id: caller.userId }, customer, subscription: `sub_${randomUUID().slice(0, 8)}`, customer_details: { email: caller.email }, amount_total: 5000 };
    expect((await deliver('billing', event('checkout.session.completed', session))).status).toBe(200);
    return { caller, customer };
  }

  beforeAll(async () => {
    db = await kind.open();
    bus = await createBus({ logger: log });
    stripe = await startFakeStripe();
    await bus.subscribe(ephemeralQueueName('test.billing'), ['subscription.changed', 'email.requested', 'billing.event.recorded'], async (m) => {
      if (m.name === 'subscription.changed') changes.push(m.payload as EventPayload<'subscription.changed'>);
      else if (m.name === 'email.requested') emails.push(m.payload as EventPayload<'email.requested'>);
      else recorded.push(m.payload as EventPayload<'billing.event.recorded'>);
    }, { ephemeral: true });
    // Identity's answer to a mint: one code per idempotency key, as identity keeps it.
    const byKey = new Map<string, { id: string; code: string }>();
    await bus.respond(MINT_ACCESS_CODE_RPC, async ({ idempotency_key: key }) => {
      const known = key ? byKey.get(key) : undefined;
      if (known) return known;
      mintedIds.push(randomUUID());
      const minted = { id: mintedIds.at(-1)!, code: `SVC-TEST-${String(mintedIds.length).padStart(4, '0')}` };
      if (key) byKey.set(key, minted);
      return minted;
    });
    await bus.respond(DEACTIVATE_ACCESS_CODE_RPC, async ({ id }) => {
      deactivated.push(id);
      return { id, is_active: false as const };
    });
    service = createBillingService({ database: db.database, bus, log, config: config(), clock, outboxIntervalMs: 50 });
    const served = await serve(service);
    server = served.listening;
    base = served.url;
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    await service?.stop();
    await stripe?.close();
    await bus?.close();
    await db?.dispose();
  });

  it('lists the plans with the limits the gateway enforces, -1 for unlimited', async () => {
    const reply = await call('/billing/plans');
    expect(reply.status).toBe(200);
    const byId = Object.fromEntries(reply.body.data.map((p: any) => [p.id, p]));
    expect(Object.keys(byId)).toEqual(['free', 'developer_preview', 'pro']);
    expect(byId.pro).toMatchObject({ price: 5000, interval: 'month', limits: { requests_per_minute: TIER_LIMITS.pro.requestsPerMinute, commands_per_hour: -1 } });
    expect(byId.free).toMatchObject({ price: 0, interval: null, limits: { requests_per_minute: 10, commands_per_hour: 5 } });
  });

  it('starts a checkout through the SDK naming the user as Stripe documents', async () => {
    const caller = user();
    const reply = await call('/billing/checkout', { method: 'POST', as: caller, body: { success_url: 'https://svc.example/ok', cancel_url: 'https://svc.example/no' } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data.checkout_url).toMatch(new RegExp(`^${stripe.url}/pay/`));
    const request = stripe.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', stripeVersion: Stripe.API_VERSION });
    expect(request.idempotencyKey).toBeTruthy();
    expect(request.params).toMatchObject({ mode: 'subscription', client_reference_id: caller.userId, metadata: { user_id: caller.userId }, customer_email: caller.email, line_items: [{ price: 'price_pro_monthly', quantity: '1' }] });
  });

  it("records checkout.started for the funnel when a checkout session is created", async () => {
    const caller = user();
    const reply = await call('/billing/checkout', { method: 'POST', as: caller, body: { success_url: 'https://svc.example/ok', cancel_url: 'https://svc.example/no' } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    await vi.waitFor(() => expect(recorded.filter((r) => r.user_id === caller.userId && r.type === 'checkout.started')).toHaveLength(1));
    expect(recorded.find((r) => r.user_id === caller.userId)).toMatchObject({ billing_event_id: expect.stringMatching(/^checkout\.started:cs_/), amount_cents: null });
  });

  it('refuses bad checkout and portal bodies with 400', async () => {
    const caller = user();
    const bad = await call('/billing/checkout', { method: 'POST', as: caller, body: { success_url: 'javascript:alert(1)', cancel_url: 'https://svc.example/no' } });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
    const extra = await call('/billing/portal', { method: 'POST', as: caller, body: { return_url: 'https://svc.example', x: 1 } });
    expect(extra.status).toBe(400);
    expect((await call('/billing/status')).status).toBe(401);
  });

  it('answers 502 when the processor refuses, without its raw answer', async () => {
    stripe.failNext(402, { type: 'card_error', message: 'secret processor detail' });
    const reply = await call('/billing/checkout', { method: 'POST', as: user(), body: { success_url: 'https://svc.example/ok', cancel_url: 'https://svc.example/no' } });
    expect(reply.status).toBe(502);
    expect(JSON.stringify(reply.body)).not.toContain('secret processor detail');
  });

  it('upgrades at once on checkout.session.completed, and the portal opens for the stored customer', async () => {
    const { caller, customer } = await subscribed();
    const [change] = await changesOf(caller.userId, 1);
    expect(change).toMatchObject({ tier: 'pro', status: 'active', payment_issue: false, monthly_price_cents: 5000 });
    // The caller's credentials still say free (identity has not caught up here): the status is billing's stored subscription.
    expect(caller.tier).toBe('free');
    expect((await call('/billing/status', { as: caller })).body.data).toEqual({ subscription_tier: 'pro', payment_customer_id: customer, cohort: 'none', status: 'active', grace_ends_at: null, current_period_end: null });
    // Without a subscription of billing's, the tier the caller holds (an access code's, an operator's).
    expect((await call('/billing/status', { as: { ...user(), tier: 'developer_preview' } })).body.data).toEqual({ subscription_tier: 'developer_preview', payment_customer_id: null, cohort: 'none', status: null, grace_ends_at: null, current_period_end: null });
    const portal = await call('/billing/portal', { method: 'POST', as: caller, body: { return_url: 'https://svc.example/account' } });
    expect(portal.status).toBe(200);
    expect(portal.body.data).toEqual({ portal_url: expect.stringMatching(new RegExp(`^${stripe.url}/portal/[0-9a-f]{16}$`)) });
    expect(stripe.requests.at(-1)!.params).toMatchObject({ customer, return_url: 'https://svc.example/account' });
    expect((await call('/billing/portal', { method: 'POST', as: user(), body: { return_url: 'https://svc.example' } })).status).toBe(409);
  });

  it('refuses forged, wrongly keyed, stale and missing signatures with 401, and applies nothing', async () => {
    const caller = user();
    const completed = event('checkout.session.completed', { id: 'cs_test_forged', object: 'checkout.session', client_reference_id: caller.userId, customer: 'cus_forged' });
    expect((await deliver('billing', completed, { signature: `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` })).status).toBe(401);
    expect((await deliver('billing', completed, { secret: REGISTRATION_SECRET })).status).toBe(401);
    expect((await deliver('billing', completed, { ageSeconds: 301 })).status).toBe(401);
    const missing = await call('/billing/webhook', { method: 'POST', raw: JSON.stringify(completed) });
    expect(missing).toMatchObject({ status: 401, body: { error: { code: 'AUTHENTICATION_FAILED' } } });
    await new Promise((r) => setTimeout(r, 200));
    expect(changes.filter((c) => c.user_id === caller.userId)).toEqual([]);
  });

  it.each(['billing', 'registration'] as const)("checks the %s webhook signature's time both ways: 300 s either side accepted, past that refused (401)", async (endpoint) => {
    const unhandled = () => event('customer.created', { id: `cus_${randomUUID().slice(0, 8)}`, object: 'customer' });
    // Signatures count whole seconds: a running clock could tick between signing and checking.
    frozen = new Date(Date.now() + offsetMs);
    try {
      for (const ageSeconds of [300, -300]) expect((await deliver(endpoint, unhandled(), { ageSeconds })).status, `${ageSeconds} s old`).toBe(200);
      for (const ageSeconds of [301, -301, -400, -86_400]) {
        const reply = await deliver(endpoint, unhandled(), { ageSeconds });
        expect(reply, `${ageSeconds} s old`).toMatchObject({ status: 401, body: { error: { code: 'AUTHENTICATION_FAILED', details: { header: 'Payment-Signature' } } } });
      }
      const ahead = await deliver(endpoint, unhandled(), { ageSeconds: -400 });
      expect(ahead.body.error.details.reason).toMatch(/future/);
    } finally {
      frozen = undefined;
    }
  });

  it('applies a replayed event and ten concurrent copies once', async () => {
    const caller = user();
    const completed = event('checkout.session.completed', { id: 'cs_test_once', object: 'checkout.session', client_reference_id: caller.userId, customer: `cus_${randomUUID().slice(0, 8)}` });
    const replies = await Promise.all(Array.from({ length: 10 }, () => deliver('billing', completed)));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(replies[0]!.body).toEqual({ data: { received: true } });
    expect((await deliver('billing', completed)).status).toBe(200);
    await changesOf(caller.userId, 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(changes.filter((c) => c.user_id === caller.userId)).toHaveLength(1);
  });

  it('acknowledges an event type it does not handle', async () => {
    expect(await deliver('billing', event('customer.created', { id: 'cus_x', object: 'customer' }))).toMatchObject({ status: 200, body: { data: { received: true } } });
  });

  it('syncs customer.subscription.updated and downgrades on deleted, ignoring an older update', async () => {
    const { caller, customer } = await subscribed();
    const subscription = { id: 'sub_sync', object: 'subscription', customer, status: 'active', cancel_at_period_end: true, metadata: {}, items: { data: [{ current_period_end: 1_900_000_000 }] } };
    await deliver('billing', event('customer.subscription.updated', subscription));
    // Canceled: Pro until the period ends, which the caller is told.
    expect((await call('/billing/status', { as: caller })).body.data).toMatchObject({ subscription_tier: 'pro', status: 'canceled', current_period_end: new Date(1_900_000_000 * 1000).toISOString(), grace_ends_at: null });
    const stale = { ...event('customer.subscription.updated', { ...subscription, cancel_at_period_end: false }), created: Math.floor(clock().getTime() / 1000) - 3600 };
    await deliver('billing', stale);
    await deliver('billing', event('customer.subscription.deleted', { ...subscription, status: 'canceled' }));
    const seen = await changesOf(caller.userId, 3);
    expect(seen.map((c) => [c.tier, c.status])).toEqual([
      ['pro', 'active'],
      ['pro', 'canceled'],
      ['free', 'expired'],
    ]);
    expect(seen[1]!.current_period_end).toBe(new Date(1_900_000_000 * 1000).toISOString());
    expect((await call('/billing/status', { as: caller })).body.data).toMatchObject({ subscription_tier: caller.tier, status: 'expired', grace_ends_at: null });
    await deliver('billing', event('invoice.paid', { id: 'in_late', object: 'invoice', customer, amount_paid: 5000 }));
    await new Promise((r) => setTimeout(r, 200));
    expect(changes.filter((c) => c.user_id === caller.userId)).toHaveLength(3);
  });

  it('runs the grace period: past_due, a reminder a day, expiry after 7 days, and survives a restart', async () => {
    const { caller, customer } = await subscribed();
    await deliver('billing', event('invoice.payment_failed', { id: 'in_failed', object: 'invoice', customer, amount_due: 5000 }));
    const [, pastDue] = await changesOf(caller.userId, 2);
    expect(pastDue).toMatchObject({ tier: 'pro', status: 'past_due', payment_issue: true });
    expect((await emailsOf(caller.email, 1))[0]).toMatchObject({ kind: 'payment-failed', user_id: caller.userId });
    // A second failure (the processor retrying the charge) does not extend the grace.
    await deliver('billing', event('invoice.payment_failed', { id: 'in_failed_2', object: 'invoice', customer, amount_due: 5000 }));

    for (let day = 1; day <= 3; day += 1) {
      offsetMs += DAY_MS;
      await service.scheduler.tick();
    }
    expect((await emailsOf(caller.email, 4)).map((e) => e.kind)).toEqual(['payment-failed', 'payment-reminder', 'payment-reminder', 'payment-reminder']);

    // A replica restarts mid-grace: the schedule is in the database.
    await closeServer(server);
    await service.stop();
    service = createBillingService({ database: db.database, bus, log, config: config(), clock, outboxIntervalMs: 50 });
    const served = await serve(service);
    server = served.listening;
    base = served.url;

    offsetMs += 2 * DAY_MS + DAY_MS / 2;
    expect(await service.scheduler.tick()).toEqual({ reminded: 1, expired: 0 });
    offsetMs += DAY_MS;
    await service.scheduler.tick();
    expect((await emailsOf(caller.email, 6)).filter((e) => e.kind === 'payment-reminder')).toHaveLength(5);
    offsetMs += DAY_MS;
    expect(await service.scheduler.tick()).toEqual({ reminded: 0, expired: 1 });
    expect((await changesOf(caller.userId, 3))[2]).toMatchObject({ tier: 'free', status: 'expired', payment_issue: true, monthly_price_cents: 0 });
    expect(await service.scheduler.tick()).toEqual({ reminded: 0, expired: 0 });

    // Paying the open invoice after the grace restores Pro.
    await deliver('billing', event('invoice.paid', { id: 'in_recovered', object: 'invoice', customer, amount_paid: 5000 }));
    expect((await changesOf(caller.userId, 4))[3]).toMatchObject({ tier: 'pro', status: 'active', payment_issue: false });
  });

  it('expires a past_due subscription exactly seven days after the failed payment, not a millisecond before', async () => {
    const { caller, customer } = await subscribed();
    await changesOf(caller.userId, 1);
    const failedAt = new Date(Date.now() + offsetMs);
    const graceEndsAt = new Date(failedAt.getTime() + 7 * DAY_MS);
    frozen = failedAt;
    try {
      await deliver('billing', event('invoice.payment_failed', { id: 'in_exact', object: 'invoice', customer, amount_due: 5000 }));
      expect((await changesOf(caller.userId, 2))[1]).toMatchObject({ status: 'past_due', payment_issue: true });
      // The caller is told the grace and its end, to the millisecond the scheduler keeps.
      expect((await call('/billing/status', { as: caller })).body.data).toMatchObject({ subscription_tier: 'pro', status: 'past_due', grace_ends_at: graceEndsAt.toISOString() });
      frozen = new Date(graceEndsAt.getTime() - 1);
      await service.scheduler.tick();
      frozen = graceEndsAt;
      await service.scheduler.tick();
      const [, pastDue, expired] = await changesOf(caller.userId, 3);
      expect(pastDue).toMatchObject({ status: 'past_due' });
      expect(expired).toMatchObject({ tier: 'free', status: 'expired', occurred_at: graceEndsAt.toISOString() });
      for (let i = 0; i < 100 && !recorded.some((r) => r.user_id === caller.userId && r.type === 'subscription.expired'); i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(recorded.filter((r) => r.user_id === caller.userId && r.type === 'subscription.expired')).toEqual([
        { billing_event_id: `subscription.expired:${caller.userId}:${graceEndsAt.toISOString()}`, type: 'subscription.expired', user_id: caller.userId, amount_cents: null, occurred_at: graceEndsAt.toISOString() },
      ]);
    } finally {
      frozen = undefined;
    }
  });

  it('shares due grace steps between replicas: each subscription expires once', async () => {
    const users = await Promise.all([subscribed(), subscribed(), subscribed()]);
    for (const { customer } of users) await deliver('billing', event('invoice.payment_failed', { id: `in_${customer}`, object: 'invoice', customer }));
    for (const { caller } of users) await changesOf(caller.userId, 2);
    const replica = createBillingService({ database: db.database, bus, log, config: config(), clock });
    offsetMs += 8 * DAY_MS;
    const [a, b] = await Promise.all([service.scheduler.tick(), replica.scheduler.tick()]);
    expect(a.expired + b.expired).toBe(3);
    for (const { caller } of users) {
      await changesOf(caller.userId, 3);
      expect(changes.filter((c) => c.user_id === caller.userId && c.status === 'expired')).toHaveLength(1);
    }
  });

  it('clears the payment issue on invoice.payment_succeeded within the grace', async () => {
    const { caller, customer } = await subscribed();
    await deliver('billing', event('invoice.payment_failed', { id: 'in_f', object: 'invoice', customer }));
    await deliver('billing', event('invoice.payment_succeeded', { id: 'in_s', object: 'invoice', customer, amount_paid: 5000 }));
    expect((await changesOf(caller.userId, 3))[2]).toMatchObject({ tier: 'pro', status: 'active', payment_issue: false });
    const types = recorded.filter((r) => r.user_id === caller.userId && r.type !== 'checkout.started').map((r) => r.type);
    expect(types).toEqual(['checkout.completed', 'invoice.payment_failed', 'invoice.paid']);
  });

  describe('paid registration', () => {
    const checkout = async (ref?: unknown) => call('/registration/checkout', { method: 'POST', body: ref === undefined ? {} : { ref } });

    it('sanitises ref and starts a one-payment checkout', async () => {
      const reply = await checkout('partner_<script>-42' + 'x'.repeat(100));
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body.data.session_id).toMatch(/^cs_test_/);
      const params = stripe.requests.at(-1)!.params as any;
      expect(params.mode).toBe('payment');
      expect(params.metadata.ref).toMatch(/^partnerscript-42x+$/);
      expect(params.metadata.ref).toHaveLength(64);
      expect((await checkout(null)).status).toBe(200);
      expect((await checkout(42)).status).toBe(400);
    });

    it('is pending until the registration webhook completes it, then ready with a minted code, e-mailed', async () => {
      const { session_id } = (await checkout('ref-1')).body.data;
      expect((await call(`/registration/session/${session_id}`)).body.data).toEqual({ status: 'pending' });
      const completed = event('checkout.session.completed', { id: session_id, object: 'checkout.session', customer_details: { email: 'new@example.test' }, payment_intent: 'pi_reg_1', amount_total: 1000 });
      // The billing endpoint's secret does not open the registration endpoint.
      expect((await deliver('registration', completed, { secret: WEBHOOK_SECRET })).status).toBe(401);
      await Promise.all(Array.from({ length: 5 }, () => deliver('registration', completed)));
      const ready = (await call(`/registration/session/${session_id}`)).body.data;
      expect(ready).toMatchObject({ status: 'ready', email: 'new@example.test', code: expect.stringMatching(/^SVC-/) });
      const mails = await emailsOf('new@example.test', 1);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(ready.code);
      // The copies asked with the session as the key: one code, none withdrawn.
      expect(mintedIds).toHaveLength(1);
      expect(deactivated).toEqual([]);

      await deliver('registration', event('charge.dispute.created', { id: 'dp_1', object: 'dispute', payment_intent: 'pi_reg_1', amount: 1000 }));
      expect((await call(`/registration/session/${session_id}`)).body.data).toEqual({ status: 'disputed' });
      expect(new Set(deactivated)).toEqual(new Set(mintedIds));
    });

    it('marks an abandoned checkout expired, and answers 404 and 400 for unknown and malformed ids', async () => {
      const { session_id } = (await checkout()).body.data;
      await deliver('registration', event('checkout.session.expired', { id: session_id, object: 'checkout.session' }));
      expect((await call(`/registration/session/${session_id}`)).body.data).toEqual({ status: 'expired' });
      expect((await call('/registration/session/cs_test_unknown')).status).toBe(404);
      expect((await call('/registration/session/..%2Fetc')).status).toBe(400);
    });
  });

  it('answers 503 naming the missing setting when billing is not configured, while plans and status work', async () => {
    const bare = createBillingService({ database: db.database, bus, log, config: { ...config(), stripeSecretKey: undefined, webhookSecret: undefined }, clock });
    const { listening, url } = await serve(bare);
    try {
      const caller = user();
      const reply = await call('/billing/checkout', { method: 'POST', as: caller, body: { success_url: 'https://a.example', cancel_url: 'https://a.example' } }, url);
      expect(reply).toMatchObject({ status: 503, body: { error: { code: 'SERVICE_UNAVAILABLE', details: { missing: 'STRIPE_SECRET_KEY' } } } });
      expect(reply.body.error.message).toMatch(/not configured/);
      expect((await call('/registration/checkout', { method: 'POST', body: {} }, url)).status).toBe(503);
      expect((await call('/billing/webhook', { method: 'POST', raw: '{}', headers: { 'payment-signature': 't=1,v1=0' } }, url)).status).toBe(503);
      expect((await call('/billing/plans', {}, url)).status).toBe(200);
      expect((await call('/billing/status', { as: caller }, url)).status).toBe(200);
    } finally {
      await closeServer(listening);
      await bare.stop();
    }
  });
});
