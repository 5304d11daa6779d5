import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair, LOOPBACK_CIDRS, OpenSshServer, SSHD } from '@svc/ssh/testing';
import { startReceiver, verifySignature, type TestReceiver } from '@svc/notify/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signUp, type TestUser } from './support/accounts.js';
import { signInThroughPage } from './support/console-browser.js';
import { consoleSuite } from './support/console-suite.js';
import { oneMode } from './support/fleet.js';

describe.each(oneMode('embedded'))('the console: developers’ webhooks, pack secrets and SSH targets (%s infrastructure)', (mode) => {
  let receiver: TestReceiver;
  let dev: TestUser;
  let sshd: OpenSshServer | undefined;
  let dir: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    dir = await mkdtemp(join(tmpdir(), 'svc-console-ssh-'));
    if (existsSync(SSHD)) sshd = await OpenSshServer.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await sshd?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  // The test's OpenSSH server listens on loopback, which targets may not use by default.
  const suite = consoleSuite(mode, 'developer', { fleet: () => ({ sshAllowedCidrs: LOOPBACK_CIDRS }) });
  beforeAll(async () => {
    dev = await signUp(suite.call, suite.admin);
    await createOrganization(suite.call, dev);
  });

  /** A tab at `path` signed in as the developer afresh (no session left from another test). */
  async function openAsDev(path: string) {
    await suite.browser.browser.context.clearCookies();
    const tab = await suite.browser.open(path);
    await signInThroughPage(tab.page, dev);
    return tab;
  }

  it('registers an endpoint with its secret shown once, pings it, redelivers the ping, and removes it', async () => {
    const { page, shot } = await openAsDev('/webhooks');
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
    expect((await suite.call('/api/v1/webhooks', { token: dev.token })).body.data).toEqual([]);
  });

  it('sets a pack’s secret by name, never shows a value, keeps the pack across a reload, and removes it', async () => {
    const { page, shot } = await openAsDev('/secrets');
    await page.getByLabel('Pack', { exact: true }).fill('acme/not-a/pack');
    await page.getByRole('button', { name: 'Show secrets' }).click();
    await page.getByText('A pack is named @namespace/pack.').waitFor();
    await page.getByLabel('Pack', { exact: true }).fill('@acme/weather');
    await page.getByRole('button', { name: 'Show secrets' }).click();
    await page.getByText('No secrets.').waitFor();
    await page.getByLabel('Secret name').fill('WEATHER_TOKEN');
    await page.getByLabel('Value').fill('tok-very-secret-1');
    await page.getByRole('button', { name: 'Set secret' }).click();
    await page.getByRole('table', { name: 'Secrets' }).getByText('WEATHER_TOKEN').waitFor();
    const listed = await suite.call('/api/v1/secrets/acme/weather', { token: dev.token });
    expect(listed.body.data.secrets.map((s: { name: string }) => s.name)).toEqual(['WEATHER_TOKEN']);

    await page.reload();
    await page.getByRole('table', { name: 'Secrets' }).getByText('WEATHER_TOKEN').waitFor();
    expect(await page.content()).not.toContain('tok-very-secret-1');
    await shot('secret-set');

    await page.getByLabel('Secret name').fill('bad name!');
    await page.getByLabel('Value').fill('x');
    await page.getByRole('button', { name: 'Set secret' }).click();
    await page.getByRole('alert').getByText('VALIDATION_FAILED').waitFor();

    await page.getByRole('button', { name: 'Remove WEATHER_TOKEN' }).click();
    await page.getByText('No secrets.').waitFor();
    expect((await suite.call('/api/v1/secrets/acme/weather', { token: dev.token })).body.data.secrets).toEqual([]);
  });

  it.skipIf(!existsSync(SSHD))('registers an SSH target, verifies it showing the fingerprint, and trusts only a key line with that fingerprint', async () => {
    const server = sshd!;
    const key = await generateKeyPair(dir, ['-t', 'ed25519']);
    await server.authorize(key.publicKey);
    const { page, shot } = await openAsDev('/ssh-targets');
    await page.getByText('No targets.').waitFor();
    await page.getByLabel('Target name').fill('build-box');
    await page.getByLabel('Host').fill('127.0.0.1');
    await page.getByLabel('Port').fill(String(server.port));
    await page.getByLabel('Username').fill(server.username);
    await page.getByLabel('Private key').fill(key.privateKey);
    await page.getByRole('button', { name: 'Register target' }).click();
    const row = page.getByRole('table', { name: 'SSH targets' }).getByRole('row', { name: /build-box/ });
    await row.getByText('not trusted yet').waitFor();
    expect(await page.content()).not.toContain(key.privateKey.split('\n')[1]);

    await page.getByRole('button', { name: 'Verify build-box' }).click();
    await page.getByText('Connected: the credential was accepted.').waitFor();
    const fingerprint = (await page.getByTestId('fingerprint').textContent())!;
    expect(fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const line = page.getByLabel('known_hosts line');
    const other = await generateKeyPair(dir, ['-t', 'ed25519']);
    await line.fill(`[127.0.0.1]:${server.port} ${other.publicKey.split(' ').slice(0, 2).join(' ')}`);
    await page.getByText('not the one the host showed').waitFor();
    expect(await page.getByRole('button', { name: 'Trust this key' }).isDisabled()).toBe(true);
    await line.fill(server.knownHostsLine);
    await page.getByText('Its key has this fingerprint.').waitFor();
    await shot('ssh-fingerprint');
    await page.getByRole('button', { name: 'Trust this key' }).click();
    await row.getByText('trusted', { exact: true }).waitFor();
    await shot('ssh-trusted');
    const targets = (await suite.call('/api/v1/ssh/targets', { token: dev.token })).body as { name: string; known_hosts: string | null }[];
    expect(targets).toEqual([expect.objectContaining({ name: 'build-box', known_hosts: server.knownHostsLine })]);

    await page.getByRole('button', { name: 'Remove build-box' }).click();
    await page.getByText('No targets.').waitFor();
  });
});
