import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { startFakeStripe, type FakeStripe } from '@svc/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/accounts.js';
import { signInThroughPage } from './support/console-browser.js';
import { consoleSuite } from './support/console-suite.js';
import { oneMode } from './support/fleet.js';

const REGISTRATION_SECRET = 'whsec_console_registration';

describe.each(oneMode('embedded'))('the console: served at /, sign in, register, sign out (%s infrastructure)', (mode) => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe();
  });
  afterAll(() => stripe?.close());
  const suite = consoleSuite(mode, 'auth', {
    fleet: () => ({
      billing: { stripeSecretKey: 'sk_test_console', stripeApiBase: stripe.url, stripePricePro: 'price_pro', stripePriceRegistration: 'price_registration', webhookSecret: 'whsec_console', registrationWebhookSecret: REGISTRATION_SECRET },
    }),
  });
  const open = (path = '/') => suite.browser.open(path);

  it('serves the page under its strict policy, with its files immutable, and keeps the API a JSON 404', async () => {
    const page = await fetch(`${suite.browser.origin}/tasks/some-task`);
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    const html = await page.text();
    expect(html).not.toMatch(/<script>(?!<)/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    expect((await fetch(`${suite.browser.origin}${script}`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/api/v1/nothing', '/.well-known/nothing', '/mcp/nothing']) {
      const res = await fetch(`${suite.browser.origin}${path}`);
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 404, expect.stringMatching(/^application\/json/)]);
    }
  });

  it('registers with an access code, keeps the session across a reload without storing a token, and signs out', async () => {
    const minted = await suite.call('/api/v1/access-codes', { token: suite.admin, body: { tier: 'developer_preview', cohort: 'console' } });
    const code = minted.body.data.codes[0] as string;
    const slug = `c-${randomBytes(4).toString('hex')}`;
    const { page, shot } = await open('/register');
    await page.getByLabel('Access code').fill(code);
    await page.getByLabel('E-mail').fill(`${slug}@example.test`);
    await page.getByLabel('Password').fill('console-password-1');
    await page.getByLabel('Account name').fill(slug);
    await shot('register-filled');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: `Welcome, ${slug}@example.test` }).or(page.getByRole('heading', { name: /^Welcome/ })).waitFor();
    await expect.poll(() => page.url()).toBe(`${suite.browser.origin}/`);
    await shot('registered-home');

    // The access token lives in memory only: nothing a script of this origin could read keeps it.
    const kept = await page.evaluate('({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie })');
    expect(kept).toEqual({ local: 0, session: 0, cookie: '' });

    await page.reload();
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await expect(page.getByText(slug, { exact: true }).first().isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot('signed-out');
  });

  it('sends a signed-out deep link to sign in and back to the page asked for; a wrong password is named', async () => {
    const user = await signUp(suite.call, suite.admin);
    const { page, shot } = await open('/tasks/x?tab=logs');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/tasks/x?tab=logs');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(async () => (await page.getByRole('alert').textContent()) ?? '').toMatch(/INVALID_CREDENTIALS|invalid/i);
    await shot('wrong-password');
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/tasks/x?tab=logs');
  });

  it('sells an access code: checkout, the return page waiting for the payment, the code filled in, registered', async () => {
    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await open('/register');
    await page.getByRole('button', { name: 'Buy an access code' }).click();
    // The processor's checkout page (the local fake's): the buyer pays there.
    await page.waitForURL((url) => url.href.startsWith(stripe.url));
    const [sessionId] = [...stripe.checkoutSessions.keys()];
    // Back from checkout before the payment has been confirmed: the page waits for it.
    await page.goto(`${suite.browser.origin}/register?session_id=${sessionId}`);
    await page.getByText('Waiting for your payment to arrive…').waitFor();
    await shot('paid-waiting');
    const email = `buyer-${randomBytes(4).toString('hex')}@example.test`;
    const payload = JSON.stringify({
      id: `evt_${randomBytes(8).toString('hex')}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: { id: sessionId, object: 'checkout.session', customer_details: { email }, payment_intent: `pi_${randomBytes(4).toString('hex')}`, amount_total: 1000 } },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: REGISTRATION_SECRET });
    expect((await suite.call('/api/v1/registration/webhook', { raw: payload, method: 'POST', headers: { 'content-type': 'application/json', 'payment-signature': signature } })).status).toBe(200);
    await page.getByText('Payment received').waitFor({ timeout: 15_000 });
    expect(await page.getByLabel('Access code').inputValue()).toMatch(/^SVC-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
    await page.getByLabel('Password').fill('console-password-1');
    await page.getByLabel('Account name').fill(`paid-${randomBytes(4).toString('hex')}`);
    await shot('paid-code-filled');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('works at phone width and from the keyboard: a skip link first, labelled fields', async () => {
    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await open('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.setViewportSize({ width: 375, height: 740 });
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.type')).toBe('email');
    // Nothing wider than the phone: no sideways scrolling, signed out or in (the navigation wraps).
    const overflow = () => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(await overflow()).toBe(0);
    await shot('phone-sign-in');
    await signInThroughPage(page, await signUp(suite.call, suite.admin));
    for (const path of ['/', '/commands', '/api-keys', '/account']) {
      await page.goto(`${suite.browser.origin}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect([path, await overflow()]).toEqual([path, 0]);
    }
    await shot('phone-signed-in');
  });
});
