import { randomBytes } from 'node:crypto';
import { startSmtpServer, type TestSmtpServer } from '@svc/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/accounts.js';
import { signInThroughPage } from './support/console-browser.js';
import { consoleSuite } from './support/console-suite.js';
import { oneMode } from './support/fleet.js';
import { mailsTo, resetLink } from './support/reset-mail.js';

describe.each(oneMode('embedded'))('the console: a forgotten password, by e-mail through an SMTP relay (%s infrastructure)', (mode) => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp?.close());
  const suite = consoleSuite(mode, 'password-reset', { fleet: () => ({ smtpUrl: smtp.url }) });

  /** Asks for a link on the forgotten-password page reached from sign in, and answers what the page then says. */
  async function askForLink(email: string): Promise<string> {
    const { page, shot } = await suite.browser.open('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    const said = (await page.getByRole('status').textContent())!;
    await shot('link-asked');
    return said.replace(email, '<address>');
  }

  it('mails a link from the sign-in page, says the same for an unknown address, and the link sets a password that signs out everywhere', async () => {
    const ada = await signUp(suite.call, suite.admin);
    const nobody = `nobody-${randomBytes(4).toString('hex')}@example.test`;
    const forKnown = await askForLink(ada.email);
    expect(await askForLink(nobody)).toBe(forKnown);

    const link = await resetLink(smtp, ada.email);
    expect(link.pathname).toBe('/reset-password');
    const { page, shot } = await suite.browser.open(`${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    // The browser's own check refuses it before the platform is asked.
    expect(await page.getByLabel('New password').evaluate((input) => (input as unknown as { validity: { tooShort: boolean } }).validity.tooShort)).toBe(true);
    await page.getByLabel('New password').fill('chosen-after-forgetting');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('every session ended').waitFor();
    await shot('password-set');
    expect((await suite.call('/api/v1/auth/me', { token: ada.token })).status).toBe(401);
    await signInThroughPage(page, { email: ada.email, password: 'chosen-after-forgetting' });
    expect(mailsTo(smtp, nobody)).toEqual([]);
  });

  it('shows the platform’s refusal of a used link, with the way to ask for another', async () => {
    const bob = await signUp(suite.call, suite.admin);
    await suite.call('/api/v1/auth/password-reset', { body: { email: bob.email } });
    const link = await resetLink(smtp, bob.email);
    expect((await suite.call('/api/v1/auth/password-reset/confirm', { body: { token: link.searchParams.get('token'), password: 'first-new-password' } })).status).toBe(200);

    const { page, shot } = await suite.browser.open(`${link.pathname}${link.search}`);
    await page.getByLabel('New password').fill('second-new-password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('alert').getByText('RESET_TOKEN_INVALID').waitFor();
    await shot('link-used');
    await page.getByRole('link', { name: 'Ask for another' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
  });
});
