import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestGateway } from '../testing/test-gateway.js';
import { DOCS_POLICY } from '../openapi/docs.routes.js';

const SECRET = 'security-headers-secret-0123456789abcdef';

/** What every answer carries, on both listeners, whatever answered it. */
function expectBaseline(res: Response, what: string): void {
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('content-security-policy'), what).toMatch(/default-src 'none'|sandbox/);
  expect(res.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(res.headers.get('strict-transport-security'), `${what}: HSTS over http`).toBeNull();
  expect(res.headers.get('x-powered-by'), what).toBeNull();
}

describe('security headers on every answer', () => {
  let gateway: Awaited<ReturnType<typeof serveTestGateway>>;
  let behindTls: Awaited<ReturnType<typeof serveTestGateway>>;

  beforeAll(async () => {
    gateway = await serveTestGateway('security-headers-test', SECRET);
    // A TLS proxy on loopback that the gateway trusts to say the request came over https.
    behindTls = await serveTestGateway('security-headers-tls-test', SECRET, { trustProxy: ['loopback'] });
  });
  afterAll(async () => {
    await gateway?.stop();
    await behindTls?.stop();
  });

  it('gives JSON answers of the API origin nosniff, no framing and a policy that allows nothing', async () => {
    for (const [path, init] of [
      ['/health', {}],
      ['/openapi.json', {}],
      ['/api/v1/nowhere', {}],
      ['/api/v1/auth/me', {}],
      ['/api/v1/auth/login', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }],
      ['/api/v1/auth/me', { method: 'OPTIONS' }],
    ] as const) {
      const res = await fetch(`${gateway.url}${path}`, init);
      await res.arrayBuffer();
      expectBaseline(res, path);
      expect(res.headers.get('content-security-policy'), path).toBe("default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
    }
  });

  it('lets /docs load Swagger UI from this origin only, and frames nothing', async () => {
    const res = await fetch(`${gateway.url}/docs`);
    await res.text();
    expectBaseline(res, '/docs');
    expect(res.headers.get('content-security-policy')).toBe(DOCS_POLICY);
    expect(DOCS_POLICY).toContain("script-src 'self'");
    expect(DOCS_POLICY).not.toContain('unsafe-eval');
    expect(DOCS_POLICY).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('sends HSTS only for requests that came over https', async () => {
    const plain = await fetch(`${behindTls.url}/health`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const overTls = await fetch(`${behindTls.url}/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(overTls.headers.get('strict-transport-security')).toBe('max-age=31536000');
    // Without a trusted proxy a client cannot claim https for itself.
    const claimed = await fetch(`${gateway.url}/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers.get('strict-transport-security')).toBeNull();
    await Promise.all([plain.arrayBuffer(), overTls.arrayBuffer(), claimed.arrayBuffer()]);
  });

  it('never grants another origin a cross-origin read, least of all with credentials', async () => {
    for (const [path, init] of [
      ['/api/v1/auth/refresh-cookie', { method: 'POST' }],
      ['/api/v1/auth/refresh-cookie', { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST' } }],
      ['/api/v1/dashboards', {}],
      ['/health', {}],
    ] as const) {
      const res = await fetch(`${gateway.url}${path}`, { ...init, headers: { ...('headers' in init ? init.headers : {}), origin: 'http://localhost:8180' } });
      await res.arrayBuffer();
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull();
    }
  });

  it('gives the 431 of an oversized header, written before express, nosniff and a policy too', async () => {
    const { hostname, port } = new URL(gateway.url);
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request({ hostname, port, path: '/health', headers: { 'x-filler': 'x'.repeat(17 * 1024) } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode, ...res.headers });
      });
      req.on('error', reject);
      req.end();
    });
    expect(headers).toMatchObject({ status: 431, 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'" });
  });

  it('gives answers of the dashboard origin nosniff and a policy, but lets the console frame it', async () => {
    const res = await fetch(`${gateway.dashboardUrl}/api/v1/auth/me`);
    await res.arrayBuffer();
    expectBaseline(res, 'dashboard origin');
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('content-security-policy')).not.toContain('frame-ancestors');
  });
});
