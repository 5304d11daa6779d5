import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clientAddress, signUp, type TestUser } from './support/accounts.js';
import { signInThroughPage } from './support/console-browser.js';
import { consoleSuite } from './support/console-suite.js';
import { ADMIN, oneMode } from './support/fleet.js';

describe.each(oneMode('embedded'))('the console: the operators’ users and a user’s page; billing without payments (%s infrastructure)', (mode) => {
  const suite = consoleSuite(mode, 'operators', { clipboard: true });

  /** A user registered with a code of `cohort` (the list's referral), with a refresh token of their own. */
  async function referred(cohort: string): Promise<TestUser & { refreshToken: string }> {
    const minted = await suite.call('/api/v1/access-codes', { token: suite.admin, body: { tier: 'free', cohort } });
    const slug = `r-${randomBytes(5).toString('hex')}`;
    const body = { email: `${slug}@example.test`, password: 'e2e-password-1', slug, access_code: minted.body.data.codes[0] };
    const reply = await suite.call('/api/v1/auth/register', { body, headers: clientAddress() });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const { accessToken, refreshToken } = reply.body.data.tokens;
    return { id: reply.body.data.user.id, email: body.email, password: body.password, slug, token: accessToken, tenantId: '', refreshToken };
  }

  it('filters users by referral and joining day, a page at a time, keeping the filters in the address', async () => {
    const cohort = `console-${randomBytes(3).toString('hex')}`;
    const people = [];
    for (let i = 0; i < 11; i += 1) people.push(await referred(cohort));
    const target = people.at(-1)!;
    // Admin's read model of users follows the registrations.
    await expect.poll(async () => (await suite.call(`/api/v1/admin/users?referral=${cohort}`, { token: suite.admin })).body.data.users.length, { timeout: 15_000, interval: 250 }).toBe(11);

    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await suite.browser.open('/operators');
    await signInThroughPage(page, { email: ADMIN.email, password: ADMIN.password });
    const users = page.getByRole('table', { name: 'Users' });
    await page.getByLabel('Referral').fill(cohort);
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Joined after').fill(today);
    await page.getByRole('button', { name: 'Filter users' }).click();
    await page.getByLabel('Per page').selectOption('10');
    await expect.poll(() => users.locator('tbody tr').count()).toBe(10);
    // Newest first: the last to register heads the first page; the first comes with the next page.
    expect(await users.locator('tbody tr').first().getByRole('link').textContent()).toBe(target.email);
    await page.getByRole('button', { name: 'More users' }).click();
    await expect.poll(() => users.locator('tbody tr').count()).toBe(11);
    expect(await page.getByRole('button', { name: 'More users' }).count()).toBe(0);
    await users.getByRole('link', { name: people[0]!.email }).waitFor();
    await shot('users-filtered');
    // The filters are in the address: kept across a reload; a day ahead matches nobody.
    await page.reload();
    expect(await page.getByLabel('Referral').inputValue()).toBe(cohort);
    await expect.poll(() => users.locator('tbody tr').count()).toBe(10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Joined after').fill(tomorrow);
    await page.getByRole('button', { name: 'Filter users' }).click();
    await page.getByText('No users match.').waitFor();
    await page.goBack();
    expect(await page.getByLabel('Joined after').inputValue()).toBe(today);
    await users.getByRole('link', { name: target.email }).click();
    await page.getByRole('heading', { level: 1, name: target.email }).waitFor();
  }, 60_000);

  it('on a user’s page changes the tier with a reason, revokes the sessions after a confirmation and mints a comp code', async () => {
    const cohort = `console-${randomBytes(3).toString('hex')}`;
    const target = await referred(cohort);
    await expect.poll(async () => (await suite.call(`/api/v1/admin/users?referral=${cohort}`, { token: suite.admin })).body.data.users.length, { timeout: 15_000, interval: 250 }).toBe(1);
    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await suite.browser.open(`/operators?referral=${cohort}`);
    await signInThroughPage(page, { email: ADMIN.email, password: ADMIN.password });
    await page.getByRole('table', { name: 'Users' }).getByRole('link', { name: target.email }).click();
    await page.getByRole('heading', { level: 1, name: target.email }).waitFor();
    expect(await page.getByTestId('user-tier').textContent()).toBe('free');
    expect(await page.getByText(`(${cohort})`).count()).toBe(1);

    // The tier, with a reason (required: the form does not go without one).
    await page.getByLabel('New tier').selectOption('pro');
    await page.getByRole('button', { name: 'Change tier' }).click();
    expect(await page.getByLabel('Reason').evaluate((input) => (input as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing)).toBe(true);
    await page.getByLabel('Reason').fill('Conference speaker');
    await page.getByRole('button', { name: 'Change tier' }).click();
    await page.getByText('Tier changed from free to pro').waitFor();
    await expect.poll(async () => (await suite.call('/api/v1/auth/me', { token: target.token })).body.data.subscriptionTier, { timeout: 15_000, interval: 250 }).toBe('pro');
    await shot('tier-changed');

    // Revoking asks first; cancelling ends nothing, confirming ends every session.
    await page.getByRole('button', { name: 'Revoke sessions…' }).click();
    await page.getByRole('group', { name: 'Confirm revoking sessions' }).waitFor();
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Revoke all sessions');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await suite.call('/api/v1/auth/me', { token: target.token })).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke sessions…' }).click();
    await page.keyboard.press('Enter');
    await page.getByText(/^\d+ sessions? ended\.$/).waitFor();
    const refreshed = await suite.call('/api/v1/auth/refresh', { body: { refreshToken: target.refreshToken }, headers: clientAddress() });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(401);
    expect((await suite.call('/api/v1/auth/me', { token: target.token })).status).toBe(401);

    // A comp code, shown once with a copy button, that registers a new account.
    await page.getByLabel('Code tier').selectOption('pro');
    await page.getByRole('button', { name: 'Mint comp code' }).click();
    const code = (await page.getByTestId('secret').textContent())!;
    expect(code).toMatch(/^SVC-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(code);
    await shot('comp-code');
    const slug = `comp-${randomBytes(4).toString('hex')}`;
    const registered = await suite.call('/api/v1/auth/register', { body: { email: `${slug}@example.test`, password: 'e2e-password-1', slug, access_code: code }, headers: clientAddress() });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect((await suite.call('/api/v1/auth/me', { token: registered.body.data.tokens.accessToken })).body.data.subscriptionTier).toBe('pro');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: target.email }).waitFor();
    expect(await page.content()).not.toContain(code);

    // The page at phone width: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
  }, 60_000);

  it('says plainly that payments are not set up when billing is not configured, while the plans and status still show', async () => {
    const user = await signUp(suite.call, suite.admin, { tier: 'free' });
    await suite.browser.browser.context.clearCookies();
    const tab = await suite.browser.open('/billing');
    const { page, shot } = tab;
    await signInThroughPage(page, user);
    await expect.poll(() => page.getByTestId('billing-tier').textContent()).toBe('free');
    await page.getByRole('heading', { name: 'Pro', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.getByText('Payments are not set up on this platform').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await shot('billing-not-configured');
    // The checkout's 503 is the answer the page shows; Chromium reports it as failed loads.
    expect(tab.problems.every((problem) => problem.includes('503'))).toBe(true);
    expect(tab.problems.some((problem) => problem.includes('/api/v1/billing/checkout'))).toBe(true);
    tab.problems.length = 0;
  });
});
