import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { spawnSvc, waitForText } from '@svc/cli/testing';
import { adminToken, signUp, type TestUser } from './support/accounts.js';
import { launchChromium, type TestBrowser } from './support/browser.js';
import { cliHome } from './support/cli-home.js';
import { client, type Call } from './support/client.js';
import { startTestFleet, type TestFleet } from './support/fleet.js';

/**
 * `svc login` in a real browser: the sign-in page hands the session to the CLI and leaves the
 * browser without a `svc_refresh` cookie of it, so that nothing in the browser can rotate the
 * CLI's refresh token under it. What is checked is the page's and the browser's behaviour, the
 * same on either infrastructure: embedded only.
 */
describe('svc login through the sign-in page in Chromium', () => {
  let fleet: TestFleet;
  let call: Call;
  let person: TestUser;
  let browser: TestBrowser;
  let home: string;
  let work: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    fleet = await startTestFleet('embedded');
    call = client(fleet.url);
    person = await signUp(call, await adminToken(call));
    ({ home, work, remove } = await cliHome('svc-cli-login-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await fleet?.stop();
    await remove?.();
  });

  it('hands the session to the CLI and leaves no refresh cookie in the browser that could spend it', async () => {
    const configPath = join(home, '.config', 'svc', 'config.toml');
    const login = spawnSvc(['login', '--no-browser', '-o', 'json'], { cwd: work, env: { HOME: home, SVC_CONFIG: configPath, SVC_REGISTRY_URL: fleet.url, NO_COLOR: '1' } });
    let stderr = '';
    login.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitForText(() => stderr, 'Sign in at ');
    const page = await browser.context.newPage();
    await page.goto(/Sign in at (\S+)/.exec(stderr)![1]!, { waitUntil: 'load' });
    await page.fill('input[name=email]', person.email);
    await page.fill('input[name=password]', person.password);
    await page.click('button');
    const signedIn = await login.done;
    expect(signedIn.code, signedIn.stdout + stderr).toBe(0);
    expect(signedIn.json().data).toMatchObject({ signed_in: true, refreshable: true, user: { email: person.email } });

    expect((await browser.context.cookies()).filter((cookie) => cookie.name === 'svc_refresh')).toEqual([]);
    // The browser renewing "its" session finds none, and the CLI's refresh token is still the live one.
    // Sent with the browser's cookies (the context's request API shares them), as the console would.
    const renewal = (await browser.context.request.post(`${fleet.url}/api/v1/auth/refresh-cookie`, { headers: { origin: fleet.url } })).status();
    expect(renewal).toBe(401);
    const stored = (parse(await readFile(configPath, 'utf8')) as { auth: { refresh_token: string } }).auth;
    expect((await call('/api/v1/auth/refresh', { body: { refreshToken: stored.refresh_token } })).status).toBe(200);
  });
});
