import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestGateway } from '../testing/test-gateway.js';

const SECRET = 'cli-login-secret-0123456789abcdef012345';
const STATE = 'a'.repeat(43);

describe('GET /cli/login', () => {
  let gateway: Awaited<ReturnType<typeof serveTestGateway>>;
  let url: string;

  beforeAll(async () => {
    gateway = await serveTestGateway('cli-login-test', SECRET);
    url = gateway.url;
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('serves the sign-in page that hands the tokens to the loopback port, under a policy allowing only that', async () => {
    const res = await fetch(`${url}/cli/login?port=43123&state=${STATE}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const policy = res.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)![1];
    expect(policy).toContain("form-action http://127.0.0.1:43123;");
    expect(policy).toContain("connect-src 'self'");
    const html = await res.text();
    expect(html).toContain('action="http://127.0.0.1:43123/callback"');
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).toContain(`const state = "${STATE}";`);
    expect(html).toContain("fetch('/api/v1/auth/login', { method: 'POST', credentials: 'omit'");
  });

  it.each([
    ['', 'port'],
    [`port=80&state=${STATE}`, 'port'],
    [`port=70000&state=${STATE}`, 'port'],
    [`port=4312a&state=${STATE}`, 'port'],
    ['port=43123', 'state'],
    ['port=43123&state=short', 'state'],
    [`port=43123&state=${'a'.repeat(40)}"</script>`, 'state'],
    [`port=43123&state=${STATE}&state=${STATE}`, 'state'],
  ])('refuses ?%s with VALIDATION_FAILED naming %s', async (query, field) => {
    const res = await fetch(`${url}/cli/login?${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
  });
});
