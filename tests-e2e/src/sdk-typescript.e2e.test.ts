import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, createClient, NotFoundError, TaskFailedError, verifyWebhook, type RetryInfo, type SvcClient, type Tokens } from '@svc/client';
import { startReceiver, type TestReceiver } from '@svc/notify/testing';
import { adminToken, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';
import { describedSdkFetch, firstCodeBlock, sdkTestPackage } from './support/sdk.js';

const run = promisify(execFile);
const SDK_DIR = fileURLToPath(new URL('../../sdk/typescript/', import.meta.url));
const ACCESS_TTL_SECONDS = 8;

describe.each(oneMode('real'))('@svc/client against the platform (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let ada: TestUser;
  let svc: SvcClient;
  const tokens: Tokens[] = [];
  const retries: RetryInfo[] = [];
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    // Short-lived access tokens, so that renewal happens within the test; a small command budget
    // (3 runs in 2 s per user), so that a burst meets 429s the client must wait out.
    fleet = await startTestFleet(mode, { accessTtlSeconds: ACCESS_TTL_SECONDS, commandGroupLimit: { points: 3, durationSeconds: 2 } });
    call = client(fleet.url);
    ada = await signUp(call, await adminToken(call), { slug: 'ada' });
    svc = createClient({ baseUrl: fleet.url, fetch: describedSdkFetch, onTokens: (t) => void tokens.push(t), onRetry: (r) => void retries.push(r) });
    await svc.signIn({ email: ada.email, password: ada.password });
    // Developer mode, then the pack published and installed over REST by the SDK itself.
    const dev = await svc.api.POST('/api/v1/account/developer-mode', { body: { organization: { name: 'Ada Labs', slug: `ada-labs-${randomBytes(3).toString('hex')}` } } });
    expect(dev.response.status, JSON.stringify(dev.error)).toBe(200);
    const published = await svc.packs.publish(await sdkTestPackage('ada'));
    expect(published.pack).toMatchObject({ namespace: 'ada', name: 'tools' });
    await svc.packs.install('@ada/tools', '1.0.0');
  });

  afterAll(async () => {
    await fleet?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('signs in and answers who the caller is, with the platform errors as classes', async () => {
    expect((await svc.me()).email).toBe(ada.email);
    const missing = await svc.storage.get('no-such-key').catch((err) => err);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(missing.correlationId).toMatch(/\S/);
    const wrong = await createClient({ baseUrl: fleet.url, fetch: describedSdkFetch }).signIn({ email: ada.email, password: 'not-her-password' }).catch((err) => err);
    expect(wrong).toBeInstanceOf(AuthenticationError);
  });

  it('runs a command synchronously and as a task, and an idempotency key twice runs it once', async () => {
    expect(await svc.run('ada/echo', { text: 'hi' })).toEqual({ echoed: { text: 'hi' } });
    expect(await svc.run('@ada/echo', { text: 'task' }, { async: true })).toEqual({ echoed: { text: 'task' } });
    const key = `k-${randomBytes(6).toString('hex')}`;
    const first = await svc.start('ada/count', {}, { idempotencyKey: key });
    const again = await svc.start('ada/count', {}, { idempotencyKey: key });
    expect(again).toMatchObject({ task_id: first.task_id, replayed: true });
    expect(first.replayed).toBe(false);
    const once = await svc.run('ada/count', {}, { idempotencyKey: key });
    expect(once).toEqual((await svc.tasks.wait(first.task_id)).result);
    const failed = await svc.run('ada/fail').catch((err) => err);
    expect(failed).toMatchObject({ status: 502, code: 'INTEGRATION_ERROR' });
    const failedTask = await svc.run('ada/fail', {}, { async: true }).catch((err) => err);
    expect(failedTask).toBeInstanceOf(TaskFailedError);
    expect(failedTask.task.status).toBe('failure');
  });

  it('cancels a task by hand, when the signal aborts and when timeoutMs passes', async () => {
    const task = await svc.start('ada/nap-long', { ms: 60_000 });
    expect((await svc.tasks.cancel(task.task_id)).revoked).toBe(true);
    expect((await svc.tasks.wait(task.task_id)).status).toBe('revoked');

    const controller = new AbortController();
    const running = svc.run('ada/nap-long', { ms: 60_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('changed my mind')), 300);
    await expect(running).rejects.toThrow('changed my mind');
    await expect(svc.run('ada/nap-long', { ms: 60_000 }, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'CLIENT_TIMEOUT' });
  });

  it('keeps a storage entry, lists it and removes it', async () => {
    const written = await svc.storage.put('notes', { text: 'remember' }, 600);
    expect(written).toMatchObject({ key: 'notes', created: true });
    expect((await svc.storage.get('notes')).value).toEqual({ text: 'remember' });
    expect((await svc.storage.list({ prefix: 'no' })).keys).toContain('notes');
    await svc.storage.delete('notes');
    await expect(svc.storage.get('notes')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('waits out 429s as Retry-After says', async () => {
    retries.length = 0;
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => svc.run('ada/echo', { n })));
    expect(results.map((r: any) => r.echoed.n)).toEqual([1, 2, 3, 4, 5, 6]);
    const waited = retries.filter((r) => r.status === 429);
    expect(waited.length).toBeGreaterThan(0);
    expect(waited.every((r) => r.waitMs >= 1000 && r.waitMs <= 2000)).toBe(true);
  });

  it('renews an expired access token, rotating the refresh token', async () => {
    const before = svc.session.tokens!;
    await new Promise((resolve) => setTimeout(resolve, ACCESS_TTL_SECONDS * 1000 + 500));
    expect((await svc.me()).email).toBe(ada.email);
    const after = svc.session.tokens!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(tokens.at(-1)).toEqual(after);
    // A client given a token the platform refuses renews it with its refresh token on the 401.
    const { data } = await svc.api.POST('/api/v1/auth/login', { body: { email: ada.email, password: ada.password } });
    const revived = createClient({ baseUrl: fleet.url, fetch: describedSdkFetch, accessToken: 'not.a-valid.token', refreshToken: data!.data.tokens.refreshToken });
    expect((await revived.me()).email).toBe(ada.email);
    // A spent refresh token is refused: only the rotated one works.
    const spent = createClient({ baseUrl: fleet.url, fetch: describedSdkFetch, refreshToken: data!.data.tokens.refreshToken });
    await expect(spent.me()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('renews in the cookie flow with the svc_refresh cookie, never with a refresh token in a body', async () => {
    // What a browser does with cookies, for this test's fetch: keep the svc_refresh cookie a
    // response sets, send it back to /api/v1/auth paths on requests made with credentials.
    let cookie: string | undefined;
    const refreshes: string[] = [];
    const browserFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      if (path.startsWith('/api/v1/auth/refresh')) refreshes.push(`${path} ${await request.clone().text()}`);
      if (cookie && request.credentials === 'include' && path.startsWith('/api/v1/auth')) request.headers.set('cookie', cookie);
      const response = await describedSdkFetch(request);
      const set = response.headers.get('set-cookie');
      if (set?.startsWith('svc_refresh=')) cookie = set.split(';')[0];
      return response;
    };
    const browser = createClient({ baseUrl: fleet.url, cookies: true, fetch: browserFetch });
    await browser.signIn({ email: ada.email, password: ada.password });
    expect(cookie).toMatch(/^svc_refresh=./);
    expect(browser.session.tokens!.refreshToken).toBeUndefined();
    const first = browser.session.tokens!.accessToken;
    await new Promise((resolve) => setTimeout(resolve, ACCESS_TTL_SECONDS * 1000 + 500));
    expect((await browser.me()).email).toBe(ada.email);
    expect(browser.session.tokens!.accessToken).not.toBe(first);
    expect(refreshes).toEqual(['/api/v1/auth/refresh-cookie ']);
  });

  it('verifies a webhook delivery with verifyWebhook', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const hook = await svc.webhooks.create({ url: receiver.url, events: ['command.executed'] });
    await svc.run('ada/echo', { text: 'hooked' });
    const deadline = Date.now() + 20_000;
    while (!receiver.received.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const delivery = receiver.received[0]!;
    const header = String(delivery.headers['svc-signature']);
    expect(await verifyWebhook(hook.secret, header, delivery.body)).toBe(true);
    expect(await verifyWebhook(hook.secret, header, new TextEncoder().encode(delivery.body))).toBe(true);
    expect(await verifyWebhook(hook.secret, header, `${delivery.body} `)).toBe(false);
    expect(await verifyWebhook(`${hook.secret}x`, header, delivery.body)).toBe(false);
    expect(await verifyWebhook(hook.secret, header, delivery.body, { now: Date.now() + 600_000 })).toBe(false);
    expect((await svc.webhooks.deliveries(hook.id)).length).toBeGreaterThan(0);
  });

  it("runs the README's quick start as written, from the built package", async () => {
    const example = firstCodeBlock(await readFile(`${SDK_DIR}README.md`, 'utf8'), 'js');
    expect(example.trim().split('\n').length).toBeLessThanOrEqual(12);
    // Inside the package's folder, `@svc/client` resolves to the package itself (its `exports`).
    const file = `${SDK_DIR}readme-example-${randomBytes(4).toString('hex')}.mjs`;
    await writeFile(file, example);
    try {
      const { stdout } = await run(process.execPath, [file], { env: { ...process.env, SVC_URL: fleet.url, SVC_EMAIL: ada.email, SVC_PASSWORD: ada.password } });
      expect(stdout).toContain("{ text: 'hello' }");
      expect(stdout).toContain("{ echoed: { text: 'hi' } }");
    } finally {
      await rm(file, { force: true });
    }
  });
});
