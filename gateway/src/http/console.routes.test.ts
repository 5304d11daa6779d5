import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestGateway } from '../testing/test-gateway.js';

const SECRET = 'console-routes-secret-0123456789abcdef01';
const INDEX = '<!doctype html><title>console</title><script type="module" src="/assets/app-1a2b3c.js"></script>';

async function expectJson404(res: Response) {
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
}

describe('the web console on the API origin', () => {
  let dir: string;
  let gateway: Awaited<ReturnType<typeof serveTestGateway>>;
  const others: Array<Awaited<ReturnType<typeof serveTestGateway>>> = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-console-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), INDEX);
    await writeFile(join(dir, 'pages.json'), JSON.stringify(['/', '/login', '/commands']));
    await writeFile(join(dir, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
    await mkdir(join(dir, 'frame'));
    await writeFile(join(dir, 'frame', 'index.html'), '<!doctype html><script type="module" src="/frame/frame.js"></script>');
    await writeFile(join(dir, 'frame', 'frame.js'), 'parent.postMessage({}, "*");');
    gateway = await serveTestGateway('console-routes', SECRET, { consoleDir: dir, dashboardOrigin: 'http://dash.example.test:8180' });
  });
  afterAll(async () => {
    await Promise.all([gateway, ...others].map((g) => g.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  it('answers index.html for / and for deep links under its pages, revalidated each time, under a strict policy', async () => {
    for (const path of ['/', '/login', '/commands', '/commands/acme/echo?x=1']) {
      const res = await fetch(`${gateway.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
      const policy = res.headers.get('content-security-policy')!;
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("connect-src 'self'");
      expect(policy).toContain('frame-src http://dash.example.test:8180');
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('serves hashed files immutable for a year, and a missing one as the JSON 404', async () => {
    const res = await fetch(`${gateway.url}/assets/app-1a2b3c.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await expectJson404(await fetch(`${gateway.url}/assets/app-gone.js`));
    await expectJson404(await fetch(`${gateway.url}/assets/`));
  });

  it('never swallows the API, MCP, discovery documents or paths that are not its pages', async () => {
    for (const path of ['/api/v1/nothing-here', '/.well-known/nothing', '/commandsx', '/index.html', '/pages.json', '/favicon.ico']) {
      await expectJson404(await fetch(`${gateway.url}${path}`));
    }
    const command = await fetch(`${gateway.url}/api/v1/commands/acme/echo`);
    expect([command.status, command.headers.get('content-type')]).toEqual([401, expect.stringMatching(/^application\/json/)]);
    expect((await fetch(`${gateway.url}/health`)).headers.get('content-type')).toMatch(/^application\/json/);
    expect((await fetch(`${gateway.url}/openapi.json`)).headers.get('content-type')).toMatch(/^application\/json/);
    // A page's path with another method is the API's business: no page is ever answered to a POST.
    const post = await fetch(`${gateway.url}/commands`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(post.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('is not on the dashboard origin, which serves its frame page only, sandboxed and limited to that origin', async () => {
    await expectJson404(await fetch(`${gateway.dashboardUrl}/`));
    await expectJson404(await fetch(`${gateway.dashboardUrl}/assets/app-1a2b3c.js`));
    await expectJson404(await fetch(`${gateway.url}/frame`));
    const page = await fetch(`${gateway.dashboardUrl}/frame`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toMatch(/^sandbox allow-scripts /);
    expect(policy).not.toContain('allow-same-origin');
    expect(policy).toContain('script-src http://dash.example.test:8180;');
    expect(policy).toContain('connect-src http://dash.example.test:8180;');
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const script = await fetch(`${gateway.dashboardUrl}/frame/frame.js`);
    expect([script.status, script.headers.get('access-control-allow-origin'), script.headers.get('access-control-allow-credentials')]).toEqual([200, '*', null]);
  });

  it('frames nothing without a dashboard origin, and leaves / a JSON 404 when deployed without a console', async () => {
    const oneOrigin = await serveTestGateway('console-one-origin', SECRET, { consoleDir: dir });
    others.push(oneOrigin);
    expect((await fetch(`${oneOrigin.url}/`)).headers.get('content-security-policy')).toContain("frame-src 'none'");
    await expectJson404(await fetch(`${oneOrigin.dashboardUrl}/frame`));
    const without = await serveTestGateway('console-absent', SECRET, { consoleDir: join(dir, 'absent') });
    others.push(without);
    await expectJson404(await fetch(`${without.url}/`));
  });
});
