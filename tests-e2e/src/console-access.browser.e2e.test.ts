import { beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { signUp, type TestUser } from './support/accounts.js';
import { signInThroughPage } from './support/console-browser.js';
import { consoleSuite } from './support/console-suite.js';
import { ADMIN, oneMode } from './support/fleet.js';

describe.each(oneMode('embedded'))('the console: API keys and the operators’ access codes and users (%s infrastructure)', (mode) => {
  const suite = consoleSuite(mode, 'access', { clipboard: true });
  let user: TestUser;

  beforeAll(async () => {
    user = await signUp(suite.call, suite.admin);
  });

  it('creates an API key shown once with a copy button, which runs as the user until it is revoked', async () => {
    const { page, shot } = await suite.browser.open('/api-keys');
    await signInThroughPage(page, user);
    await page.getByLabel('Key name').fill('ci');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('secret').textContent())!;
    expect(key).toMatch(/^sk-svc-[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await shot('key-created');
    expect((await suite.call('/api/v1/tasks', { token: key })).status).toBe(200);

    // Listed by its prefix; the key itself is gone from the page once it is left.
    await page.reload();
    await page.getByRole('table', { name: 'API keys' }).getByText(`${key.slice(0, 12)}`, { exact: false }).waitFor();
    expect(await page.getByTestId('secret').count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    await page.getByRole('button', { name: 'Revoke ci' }).click();
    await page.getByText(/^revoked /).waitFor();
    await shot('key-revoked');
    await expect.poll(async () => (await suite.call('/api/v1/tasks', { token: key })).status).toBe(401);
  });

  it('lets an operator mint an access code shown once, deactivate it, and list users; others do not see the area', async () => {
    const { page, shot } = await suite.browser.open('/operators');
    expect(await page.getByRole('link', { name: 'Operators' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await signInThroughPage(page, { email: ADMIN.email, password: ADMIN.password });
    await page.getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('heading', { name: 'Access codes' }).waitFor();
    await page.getByLabel('Tier').first().selectOption('pro');
    await page.getByLabel('Cohort').fill('console-partners');
    await page.getByRole('button', { name: 'Mint' }).click();
    const code = (await page.getByTestId('secret').textContent())!;
    expect(code).toMatch(/^SVC-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await page.getByRole('button', { name: /Deactivate .* \(console-partners\)/ }).waitFor();
    await shot('code-minted');
    expect((await suite.call('/api/v1/access-codes/validate', { body: { code } })).body.data).toMatchObject({ valid: true, tier: 'pro' });

    await page.getByRole('button', { name: /Deactivate .* \(console-partners\)/ }).click();
    await page.getByRole('table', { name: 'Access codes' }).getByText('deactivated').first().waitFor();
    expect((await suite.call('/api/v1/access-codes/validate', { body: { code } })).status).not.toBe(200);

    await page.getByRole('table', { name: 'Users' }).getByText(user.email).waitFor();
    await page.getByLabel('Tier').nth(1).selectOption('enterprise');
    await expect.poll(() => page.getByRole('table', { name: 'Users' }).getByText(user.email).count()).toBe(0);
    await shot('users');
  });

  it('turns developer mode on with an organization, and a new password signs out everywhere', async () => {
    const person = await signUp(suite.call, suite.admin);
    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await suite.browser.open('/account');
    await signInThroughPage(page, person);
    await expect.poll(() => page.getByTestId('account-mode').textContent()).toBe('consumer');
    const slug = `org-${randomBytes(4).toString('hex')}`;
    await page.getByLabel('Organization name', { exact: true }).fill('Console Labs');
    await page.getByLabel('Organization namespace').fill(slug);
    await page.getByRole('button', { name: 'Turn developer mode on' }).click();
    await expect.poll(() => page.getByTestId('account-mode').textContent()).toBe('developer');
    await page.getByText(`(@${slug}, owner)`).waitFor();
    await shot('developer-mode');
    // The home page knows it without a reload.
    await page.getByRole('link', { name: 'svc', exact: true }).click();
    await expect.poll(() => page.getByTestId('home-developer-mode').textContent()).toBe('on');
    await page.getByRole('link', { name: 'Account' }).click();

    await page.getByLabel('Current password').fill(person.password);
    await page.getByLabel('New password').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Change password and sign out everywhere' }).click();
    await page.getByText('every session ended').waitFor();
    // The other session (the API client's) ended too.
    expect((await suite.call('/api/v1/auth/me', { token: person.token })).status).toBe(401);
    await signInThroughPage(page, { email: person.email, password: 'a-brand-new-password' });
  });

  it('shows an operator the onboarding funnel and revenue, downloads the events as CSV, and reads the audit log', async () => {
    await suite.browser.browser.context.clearCookies();
    const { page, shot } = await suite.browser.open('/operators');
    await signInThroughPage(page, { email: ADMIN.email, password: ADMIN.password });
    await page.getByRole('link', { name: 'Metrics' }).click();
    await page.getByRole('heading', { name: 'Metrics' }).waitFor();
    const funnel = (await suite.call('/api/v1/metrics/onboarding', { token: suite.admin })).body.data.funnel as { step: string; count: number }[];
    const signups = funnel.find((step) => step.step === 'signup')!.count;
    expect(signups).toBeGreaterThan(0);
    await page.getByRole('table', { name: 'Onboarding funnel' }).getByRole('row', { name: new RegExp(`^signup ${signups} `) }).waitFor();
    await page.getByRole('img', { name: 'Users at each onboarding step' }).waitFor();
    await page.getByTestId('mrr').getByText('$0.00').waitFor();
    await shot('metrics');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download events (CSV)' }).click()]);
    expect(download.suggestedFilename()).toBe('svc-events.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toBe('id,tenant_id,user_id,event_type,event_data,duration_ms,created_at');
    expect(csv).toContain(',user.registered,');

    // A day from now on: nobody has signed up yet.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Since').fill(tomorrow);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('table', { name: 'Onboarding funnel' }).getByRole('row', { name: /^signup 0 / }).waitFor();

    await page.getByRole('link', { name: 'Operators' }).first().click();
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByLabel('Action').fill('admin.users.list');
    await page.getByRole('button', { name: 'Filter' }).click();
    // The unfiltered rows stay on the page until the filtered ones replace them.
    const actions = page.getByRole('table', { name: 'Audit log' }).locator('tbody td:nth-child(3)');
    await expect.poll(async () => new Set(await actions.allTextContents()), { timeout: 10_000 }).toEqual(new Set(['admin.users.list']));
    await shot('audit-log');
    await page.reload();
    expect(await page.getByLabel('Action').inputValue()).toBe('admin.users.list');
  });
});
