import { startReceiver, verifySignature, type TestReceiver } from '@svc/notify/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { ConsoleBrowser, screenshotFolder, signInThroughPage } from './support/console-browser.js';
import { MODES, startTestFleet, type TestFleet } from './support/fleet.js';

const SHOTS = screenshotFolder('developer');

describe.each(MODES)('the console: developers’ webhooks (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let browser: ConsoleBrowser;
  let receiver: TestReceiver;
  let dev: TestUser;

  beforeAll(async () => {
    receiver = await startReceiver();
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    dev = await signUp(call, await adminToken(call));
    await createOrganization(call, dev);
    browser = await ConsoleBrowser.launch(fleet.url, SHOTS);
  });
  afterEach(() => browser.closeTabs());
  afterAll(async () => {
    await browser?.close();
    await fleet?.stop();
    await receiver?.close();
  });

  it('registers an endpoint with its secret shown once, pings it, redelivers the ping, and removes it', async () => {
    const { page, shot } = await browser.open('/webhooks');
    await signInThroughPage(page, dev);
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description').fill('CI receiver');
    await page.getByLabel('task.completed').check();
    await page.getByRole('button', { name: 'Register endpoint' }).click();
    const secret = (await page.getByTestId('secret').textContent())!;
    expect(secret.length).toBeGreaterThan(20);
    await shot('webhook-registered');

    await page.getByRole('table', { name: 'Endpoints' }).getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { name: 'Endpoint' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
    const ping = receiver.received[0]!;
    expect(ping.event.type).toBe('webhook.ping');
    expect(verifySignature(secret, String(ping.headers['svc-signature']), ping.body)).toBe(true);
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh deliveries' }).click();
          return deliveries.getByRole('cell', { name: 'succeeded', exact: true }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await shot('webhook-pinged');

    await page.getByRole('button', { name: `Redeliver webhook.ping ${ping.event.id}` }).click();
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);
    expect(receiver.received[1]!.event.id).toBe(ping.event.id);
    await deliveries.getByRole('row').nth(2).waitFor();

    await page.getByRole('link', { name: 'All endpoints' }).click();
    await page.getByRole('button', { name: `Remove ${receiver.url}` }).click();
    await page.getByText('No endpoints.').waitFor();
    expect((await call('/api/v1/webhooks', { token: dev.token })).body.data).toEqual([]);
  });
});
