import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signUp, type TestUser } from './support/accounts.js';
import { signInThroughPage } from './support/console-browser.js';
import { consoleSuite } from './support/console-suite.js';
import { bundleOf, createDashboard, uploadBundle } from './support/dashboards.js';
import { installPack } from './support/execution.js';
import { oneMode } from './support/fleet.js';

const STEPS_MS = 90_000;
const SECRET = `viewer-diary-${randomBytes(6).toString('hex')}`;

/** A well-behaved dashboard: it greets through its pack's command, and says when it is unmounted. */
function sampleMain(ns: string): string {
  return `export function mount(element, context) {
  element.innerHTML = '<h2>Sample for ' + context.dashboard.name + '</h2><button type="button">Greet</button><output></output>';
  element.querySelector('button').addEventListener('click', async () => {
    try {
      const result = await context.api.run('${ns}/greet', { name: 'Ada' });
      element.querySelector('output').textContent = result.greeting;
    } catch (error) {
      element.querySelector('output').textContent = 'refused: ' + error.code + ' ' + error.message;
    }
  });
}
export function unmount(element) {
  fetch(new URL('./unmounted.txt', import.meta.url));
  element.replaceChildren();
}
`;
}

/**
 * A hostile dashboard: from its frame it tries the console's window, storage and cookies, the
 * API with the viewer's cookie, a command of a pack it does not depend on, and the API through
 * the console's bridge; it writes what each attempt got into its own page.
 */
function hostileMain(ns: string, apiOrigin: string): string {
  return `export async function mount(element, context) {
  const report = {};
  const attempt = async (name, run) => { try { report[name] = 'got ' + JSON.stringify(await run()).slice(0, 300); } catch (e) { report[name] = 'refused ' + (e && (typeof e.code === 'string' ? e.code : e.name)); } };
  await attempt('parent document', () => parent.document.cookie);
  await attempt('parent script', () => parent.location.href);
  await attempt('storage', () => localStorage.getItem('svc'));
  await attempt('cookie', () => document.cookie);
  await attempt('refresh cookie', async () => (await fetch('${apiOrigin}/api/v1/auth/refresh-cookie', { method: 'POST', credentials: 'include' })).status);
  await attempt('viewer storage', async () => (await fetch('${apiOrigin}/api/v1/storage/diary', { credentials: 'include' })).status);
  await attempt('other pack', () => context.api.run('${ns}/secret', {}));
  await attempt('api key', () => context.api.request('/api/v1/account/api-keys', { method: 'POST', body: JSON.stringify({ name: 'pwned', scopes: ['commands:execute'] }) }));
  await attempt('own pack', () => context.api.run('${ns}/greet', { name: 'Mallory' }));
  const pre = document.createElement('pre');
  pre.id = 'report';
  pre.textContent = JSON.stringify(report);
  element.append(pre);
}
export function unmount() {}
`;
}

describe.each(oneMode('embedded'))('the console: dashboards mounted in an isolated frame (%s infrastructure)', (mode) => {
  const suite = consoleSuite(mode, 'dashboards', { fleet: () => ({ dashboardOrigin: true }) });
  let dev: TestUser;
  let viewer: TestUser;
  let ns: string;
  let sample: { slug: string; id: string };
  let hostile: { slug: string };

  beforeAll(async () => {
    [dev, viewer] = [await signUp(suite.call, suite.admin), await signUp(suite.call, suite.admin)];
    const org = await createOrganization(suite.call, dev);
    ns = dev.slug;
    await installPack(suite.fleet.url, suite.call, dev, { namespace: ns, name: 'tools', commands: [{ name: 'greet', input_schema: { type: 'object', properties: { name: { type: 'string' } } } }] as never, files: { 'commands/greet.js': 'export default async (input) => ({ greeting: `hello ${input.name}` });\n' } });
    await installPack(suite.fleet.url, suite.call, dev, { namespace: ns, name: 'vault', commands: [{ name: 'secret' }] as never, files: { 'commands/secret.js': 'export default async () => ({ secret: "vault contents" });\n' } });
    for (const pack of ['tools', 'vault']) expect((await suite.call('/api/v1/packs/install', { token: viewer.token, body: { name: `@${ns}/${pack}`, version: 'latest' } })).status).toBe(200);
    expect((await suite.call('/api/v1/storage/diary', { method: 'PUT', token: viewer.token, body: { data: { secret: SECRET }, ttl: 3600 } })).status).toBe(201);

    const deps = JSON.stringify([{ scope: ns, name: 'tools', version: '^1.0.0' }]);
    const board = await createDashboard(suite.call, dev.token, org.scope, `sample-${randomBytes(3).toString('hex')}`, 'public');
    const files = [
      { name: 'main.js', content: sampleMain(ns) },
      { name: 'unmounted.txt', content: 'bye\n' },
    ];
    expect((await uploadBundle(suite.fleet.url, dev.token, board.id, await bundleOf(files), { version: '1.0.0', pack_dependencies: deps })).status).toBe(201);
    sample = board;
    const evil = await createDashboard(suite.call, dev.token, org.scope, `evil-${randomBytes(3).toString('hex')}`, 'public');
    expect((await uploadBundle(suite.fleet.url, dev.token, evil.id, await bundleOf([{ name: 'main.js', content: hostileMain(ns, suite.browser.origin) }]), { version: '1.0.0', pack_dependencies: deps })).status).toBe(201);
    hostile = evil;
  });

  it('lists dashboards, mounts one by slug on the dashboard origin, runs its pack’s command through the console, and unmounts it on leave', async () => {
    const { page, shot } = await suite.browser.open('/dashboards');
    await signInThroughPage(page, viewer);
    await page.getByRole('link', { name: sample.slug }).click();
    await page.getByText('Dashboard loaded.').waitFor();
    const frame = page.frameLocator('iframe');
    await frame.getByRole('heading', { name: `Sample for ${sample.slug}` }).waitFor();
    expect(new URL((await page.locator('iframe').getAttribute('src'))!).origin).toBe(suite.fleet.dashboard!.origin);
    expect(await page.locator('iframe').getAttribute('sandbox')).not.toContain('allow-same-origin');
    await frame.getByRole('button', { name: 'Greet' }).click();
    // The first run of a pack starts its runner: seconds on shared cores.
    await expect.poll(() => frame.locator('output').textContent(), { timeout: 30_000 }).toBe('hello Ada');
    await shot('dashboard-mounted');

    const unmounted = page.waitForRequest((request) => request.url().endsWith('/unmounted.txt'));
    await page.getByRole('link', { name: 'Commands' }).click();
    await unmounted;
    await page.getByRole('heading', { name: 'Commands' }).waitFor();
  }, STEPS_MS);

  it('keeps a hostile dashboard from the console’s token, the viewer’s cookie and anything beyond its packs', async () => {
    const tab = await suite.browser.open(`/dashboards/${hostile.slug}`);
    const frame = tab.page.frameLocator('iframe');
    const report = JSON.parse((await frame.locator('#report').textContent({ timeout: 30_000 }))!) as Record<string, string>;
    await tab.shot('hostile-dashboard');
    expect(report).toEqual({
      'parent document': 'refused SecurityError',
      'parent script': 'refused SecurityError',
      storage: 'refused SecurityError',
      cookie: 'refused SecurityError',
      'refresh cookie': 'refused TypeError',
      'viewer storage': 'refused TypeError',
      'other pack': 'refused PERMISSION_DENIED',
      'api key': 'refused PERMISSION_DENIED',
      'own pack': `got ${JSON.stringify({ greeting: 'hello Mallory' })}`,
    });
    // The two requests to the API were stopped by the frame page's policy, which says so in the console.
    const refused = tab.problems.splice(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const line of refused) expect(line).toMatch(/Refused to connect|Failed to fetch|violates the following Content Security Policy/);
    expect((await suite.call('/api/v1/account/api-keys', { token: viewer.token })).body.data).toEqual([]);
  }, STEPS_MS);

  it('lets its owner make a share link that opens signed out: the dashboard shows, its commands need an account', async () => {
    const { page } = await suite.browser.open(`/dashboards/${sample.slug}`);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await signInThroughPage(page, dev);
    await page.getByRole('button', { name: 'Create a share link' }).click();
    const link = (await page.getByRole('link', { name: /\/shared\/dsh_/ }).getAttribute('href'))!;
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await suite.browser.browser.context.clearCookies();

    const shared = await suite.browser.open(new URL(link).pathname);
    const frame = shared.page.frameLocator('iframe');
    await frame.getByRole('heading', { name: `Sample for ${sample.slug}` }).waitFor();
    expect(await shared.page.getByRole('button', { name: 'Sign out', exact: true }).count()).toBe(0);
    await frame.getByRole('button', { name: 'Greet' }).click();
    await expect.poll(() => frame.locator('output').textContent(), { timeout: 30_000 }).toMatch(/^refused: AUTHENTICATION_REQUIRED/);
    await shared.shot('shared-signed-out');
  }, STEPS_MS);
});
