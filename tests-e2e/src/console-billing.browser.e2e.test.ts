import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { startFakeStripe, type FakeStripe } from '@svc/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, oneMode } from './support/fleet.js';
import { signUp, type TestUser } from './support/accounts.js';
import { signInThroughPage } from './support/console-browser.js';
import { consoleSuite } from './support/console-suite.js';

const WEBHOOK_SECRET = 'whsec_console_billing';

describe.each(oneMode('embedded'))('the console: billing, revenue and the free tier’s limit (%s infrastructure)', (mode) => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe();
  });
  afterAll(() => stripe?.close());
  const suite = consoleSuite(mode, 'billing', {
    fleet: () => ({
      billing: { stripeSecretKey: 'sk_test_console', stripeApiBase: stripe.url, stripePricePro: 'price_pro', stripePriceRegistration: 'price_registration', webhookSecret: WEBHOOK_SECRET, registrationWebhookSecret: 'whsec_console_registration' },
    }),
  });

  /** A billing event as the processor sends it, signed with the SDK's own test signer. */
  async function deliver(type: string, object: object) {
    const payload = JSON.stringify({ id: `evt_${randomBytes(8).toString('hex')}`, object: 'event', type, created: Math.floor(Date.now() / 1000), livemode: false, data: { object } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const reply = await suite.call('/api/v1/billing/webhook', { raw: payload, method: 'POST', headers: { 'content-type': 'application/json', 'payment-signature': signature } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }

  /** The processor's word that `user` paid for Pro (the checkout's session, or one of the test's own); the customer id. */
  async function paidForPro(user: TestUser, sessionId = `cs_test_${randomBytes(6).toString('hex')}`): Promise<string> {
    const customer = `cus_${randomBytes(6).toString('hex')}`;
    await deliver('checkout.session.completed', { id: sessionId, object: 'checkout.session', client_reference_id: user.id, metadata: { user_id: user.id }, customer, subscription: `sub_${randomBytes(6).toString('hex')}`, customer_details: { email: user.email }, amount_total: 5000 });
    return customer;
  }

  const statusOf = async (user: TestUser) => (await suite.call('/api/v1/billing/status', { token: user.token })).body.data;

  it('upgrades a free account through the processor’s checkout, waits for the payment, shows Pro, and opens the portal', async () => {
    const user = await signUp(suite.call, suite.admin, { tier: 'free' });
    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await suite.browser.open('/billing');
    await signInThroughPage(page, user);
    await expect.poll(() => page.getByTestId('billing-tier').textContent()).toBe('free');
    await page.getByTestId('billing-state').getByText('No subscription').waitFor();
    expect(await page.getByRole('button', { name: 'Manage payment and invoices' }).count()).toBe(0);
    await shot('free');

    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/pay/`));
    const [session] = [...stripe.checkoutSessions.values()].filter((s) => s.client_reference_id === user.id);
    expect(session).toMatchObject({ mode: 'subscription', success_url: `${suite.browser.origin}/billing/upgraded`, cancel_url: `${suite.browser.origin}/billing?checkout=canceled` });

    // Back from the processor before its webhook: the page waits, then shows the upgrade.
    await page.goto(session!.success_url as string);
    await page.getByText('Waiting for the payment to be confirmed…').waitFor();
    await shot('waiting');
    await paidForPro(user, session!.id as string);
    await page.getByText('You are on Pro.').waitFor();
    await shot('upgraded');
    // The rest of the console knows it too, without a reload.
    await page.getByRole('link', { name: 'svc', exact: true }).click();
    await expect.poll(() => page.getByTestId('home-tier').textContent()).toBe('pro');
    await page.getByRole('link', { name: 'Billing' }).click();
    await expect.poll(() => page.getByTestId('billing-tier').textContent()).toBe('pro');
    await page.getByTestId('billing-state').getByText(/^Active/).waitFor();
    expect(await page.getByRole('button', { name: 'Upgrade to Pro' }).count()).toBe(0);
    // The tier the platform applies follows: Pro's rate limit on the user's next request.
    await expect.poll(async () => (await suite.call('/api/v1/auth/me', { token: user.token })).headers.get('x-ratelimit-limit'), { timeout: 15_000, interval: 250 }).toBe('300');

    await page.getByRole('button', { name: 'Manage payment and invoices' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/portal/`));
    expect(stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!.params).toMatchObject({ return_url: `${suite.browser.origin}/billing` });
  });

  it('tells a past_due subscriber of the 7-day grace and when it ends, at phone width and from the keyboard', async () => {
    const user = await signUp(suite.call, suite.admin, { tier: 'free' });
    const customer = await paidForPro(user);
    await deliver('invoice.payment_failed', { id: `in_${randomBytes(6).toString('hex')}`, object: 'invoice', customer, amount_due: 5000 });
    await expect.poll(async () => (await statusOf(user)).status, { timeout: 10_000 }).toBe('past_due');
    const { grace_ends_at: graceEnds } = await statusOf(user);

    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await suite.browser.open('/billing');
    await page.setViewportSize({ width: 390, height: 844 });
    await signInThroughPage(page, user);
    await page.getByTestId('billing-state').getByText(/Payment failed\. Pro stays on during a 7-day grace period/).waitFor();
    expect(await page.getByTestId('grace-ends').getAttribute('datetime')).toBe(graceEnds);
    expect(await page.getByTestId('grace-ends').textContent()).toBe(await page.evaluate((iso) => new Date(iso).toLocaleString(), graceEnds));
    expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
    await shot('past-due-phone');

    // From the top of the page, the keyboard reaches the portal through the navigation, in order.
    await page.reload();
    await page.getByTestId('grace-ends').waitFor();
    const order: string[] = [];
    for (let i = 0; i < 30 && order.at(-1) !== 'Manage payment and invoices'; i += 1) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate('document.activeElement.textContent'));
    }
    expect(order.slice(0, 2)).toEqual(['Skip to content', 'svc']);
    expect(order.indexOf('Billing')).toBeLessThan(order.indexOf('Sign out'));
    expect(order.at(-1)).toBe('Manage payment and invoices');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/portal/`));
  });

  it('tells a canceled subscriber Pro lasts until the period ends, and an ended subscription that it has expired', async () => {
    const user = await signUp(suite.call, suite.admin, { tier: 'free' });
    const customer = await paidForPro(user);
    const periodEnd = Math.floor(Date.now() / 1000) + 20 * 86_400;
    const subscription = { id: `sub_${randomBytes(6).toString('hex')}`, object: 'subscription', customer, status: 'active', cancel_at_period_end: true, metadata: {}, items: { data: [{ current_period_end: periodEnd }] } };
    await deliver('customer.subscription.updated', subscription);

    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await suite.browser.open('/billing');
    await signInThroughPage(page, user);
    await page.getByTestId('billing-state').getByText(/^Canceled: Pro until/).waitFor();
    expect(await page.getByTestId('access-ends').getAttribute('datetime')).toBe(new Date(periodEnd * 1000).toISOString());
    expect(await page.getByRole('button', { name: 'Upgrade to Pro' }).count()).toBe(0);
    await shot('canceled');

    await deliver('customer.subscription.deleted', { ...subscription, status: 'canceled' });
    // Back on the tier the platform applies: identity's, which follows billing's event.
    await expect.poll(async () => (await statusOf(user)).subscription_tier, { timeout: 15_000, interval: 1000 }).toBe('free');
    await page.reload();
    await page.getByTestId('billing-state').getByText(/^Expired: the subscription has ended/).waitFor();
    expect(await page.getByTestId('billing-tier').textContent()).toBe('free');
    await page.getByRole('button', { name: 'Upgrade to Pro' }).waitFor();
  });

  it('shows an operator revenue from real payments: recurring revenue, Pro subscribers and the payments chart', async () => {
    const payer = await signUp(suite.call, suite.admin, { tier: 'free' });
    const customer = await paidForPro(payer);
    const invoice = `in_${randomBytes(6).toString('hex')}`;
    await deliver('invoice.paid', { id: invoice, object: 'invoice', customer, amount_paid: 5000 });
    const revenueNow = async () => (await suite.call('/api/v1/metrics/revenue', { token: suite.admin })).body.data as { mrr_cents: number; active_pro_subscribers: number; recent_events: { type: string; data: { id: string; amount_cents: number | null } }[] };
    // The admin area's read models follow the events: the payment, and the subscription that makes recurring revenue.
    await expect.poll(async () => { const now = await revenueNow(); return now.mrr_cents >= 5000 && now.recent_events.some((e) => e.data.id === `invoice.paid:${invoice}`); }, { timeout: 15_000, interval: 250 }).toBe(true);
    const revenue = await revenueNow();

    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await suite.browser.open('/operators/metrics');
    await signInThroughPage(page, { email: ADMIN.email, password: ADMIN.password });
    const dollars = (cents: number) => page.evaluate((c) => (c / 100).toLocaleString(undefined, { style: 'currency', currency: 'USD' }), cents);
    await page.getByTestId('mrr').getByText(await dollars(revenue.mrr_cents), { exact: true }).waitFor();
    expect(await page.getByTestId('pro-subscribers').textContent()).toBe(String(revenue.active_pro_subscribers));
    // The chart's figures are the money received among the recent events, newest first, in
    // dollars: checkouts and paid invoices, not a failed payment (the test before has one).
    const bars = { 'checkout.completed': 'checkout', 'invoice.paid': 'invoice' } as Record<string, string>;
    const payments = revenue.recent_events.filter((e) => bars[e.type]).map((e) => `${bars[e.type]} ${e.data.amount_cents! / 100}`);
    expect(payments.slice(0, 2)).toEqual(['invoice 50', 'checkout 50']);
    const chart = page.getByRole('figure').filter({ has: page.getByRole('img', { name: 'Recent payments (dollars)' }) });
    expect(await chart.locator('figcaption').textContent()).toBe(`Recent payments (dollars): ${payments.join(', ')}`);
    expect(await chart.locator('text.value').allTextContents()).toEqual(payments.map((p) => p.split(' ')[1]));
    await page.getByRole('table', { name: 'Recent revenue events' }).getByRole('row', { name: /invoice\.paid/ }).first().waitFor();
    await shot('revenue');
  });

  it('tells a free account which limit it reached, its tier and when the console tries again, then carries on; renewing the session costs none of it', async () => {
    const user = await signUp(suite.call, suite.admin, { tier: 'free' });
    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await suite.browser.open('/billing');
    await signInThroughPage(page, user);
    await page.getByTestId('billing-tier').waitFor();

    // A reload renews the session with the cookie: the address's budget, not the user's. The
    // user's own requests are who is signed in and the status (the plans are public).
    const spent: string[] = [];
    const renewals: string[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path === '/api/v1/auth/refresh-cookie') renewals.push(response.headers()['x-ratelimit-limit'] ?? 'none');
      else if (path.startsWith('/api/v1/') && response.headers()['x-ratelimit-limit'] === '10') spent.push(path);
    });
    await page.reload();
    await page.getByTestId('billing-tier').waitFor();
    await page.getByRole('list', { name: 'Plans' }).waitFor();
    expect(renewals).toEqual(['60']);
    expect(spent.sort()).toEqual(['/api/v1/auth/me', '/api/v1/billing/status']);

    // The rest of the minute's ten spent elsewhere (the same user over the API).
    await expect.poll(async () => (await suite.call('/api/v1/auth/me', { token: user.token })).status, { timeout: 10_000, interval: 0 }).toBe(429);
    await page.reload();
    const note = page.getByTestId('rate-limit');
    await note.getByText('The free tier allows 10 requests a minute.').waitFor();
    const seconds = Number(/\(in (\d+) s\)/.exec((await note.textContent())!)![1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await note.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await shot('rate-limited');

    // Once the minute is over the held request goes again and the page carries on by itself.
    await page.getByTestId('billing-tier').waitFor({ timeout: 120_000 });
    await page.getByRole('list', { name: 'Plans' }).waitFor();
    expect(await note.count()).toBe(0);
    await shot('recovered');
  }, 180_000);
});
