import { sql } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddress } from './support/accounts.js';
import { client, refreshCookie, type Call, type Reply } from './support/client.js';
import { ADMIN, oneMode, startTestFleet, TEST_SECRETS, type TestFleet } from './support/fleet.js';

function expectError(reply: Reply, status: number, code: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.success).toBe(false);
  expect(reply.body.error.code).toBe(code);
  expect(typeof reply.body.error.message).toBe('string');
  expect(typeof reply.body.error.type).toBe('string');
  expect(reply.body.error.correlation_id).toBe(reply.headers.get('x-request-id'));
  expect(Number.isNaN(Date.parse(reply.body.error.timestamp))).toBe(false);
}

describe.each(oneMode('real'))('sign-in slice (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let adminToken: string;
  let slugCounter = 0;

  const nextSlug = () => `user-${mode}-${++slugCounter}`;

  async function mintCode(body: Record<string, unknown> = {}): Promise<string> {
    const reply = await call('/api/v1/access-codes', { token: adminToken, body: { tier: 'free', cohort: 'e2e', ...body } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.data.codes[0];
  }

  /** Each registration comes from an address of its own, as real ones do (10 per minute per address). */
  async function register(overrides: Record<string, unknown> = {}) {
    const slug = nextSlug();
    const body = { email: `${slug}@example.test`, password: 'correct-horse-1', slug, access_code: await mintCode(), ...overrides };
    return { body, reply: await call('/api/v1/auth/register', { body, headers: clientAddress() }) };
  }

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    const login = await call('/api/v1/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
    expect(login.status).toBe(200);
    adminToken = login.body.data.tokens.accessToken;
  });

  afterAll(async () => {
    await fleet?.stop();
  });

  it('reports a healthy fleet on /health as a bare object', async () => {
    const reply = await call('/health');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'healthy', services: { database: 'healthy', cache: 'healthy', worker: 'healthy' } });
    expect(typeof reply.body.version).toBe('string');
  });

  it('runs the whole journey: code, register, login, me, refresh by body and cookie, change password, logout', async () => {
    const code = await mintCode({ tier: 'pro', cohort: 'partner' });
    expect(code).toMatch(/^SVC-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    const validated = await call('/api/v1/access-codes/validate', { body: { code } });
    expect(validated.body).toEqual({ data: { valid: true, tier: 'pro' } });

    const slug = nextSlug();
    const email = `${slug}@example.test`;
    const registered = await call('/api/v1/auth/register', { body: { email, password: 'first-password', slug, access_code: code } });
    expect(registered.status).toBe(201);
    expect(registered.body.data.user).toMatchObject({ email, developerMode: false, subscriptionTier: 'pro', role: 'member' });
    expect(registered.body.data.tokens.expiresAt).toBeGreaterThan(Date.now());

    const login = await call('/api/v1/auth/login', { body: { email: email.toUpperCase(), password: 'first-password' } });
    expect(login.status).toBe(200);
    const cookieHeader = login.headers.getSetCookie().find((c) => c.startsWith('svc_refresh='))!;
    expect(cookieHeader).toMatch(/HttpOnly/);
    expect(cookieHeader).toMatch(/Path=\/api\/v1\/auth/);
    expect(cookieHeader).toMatch(/SameSite=Strict/);
    expect(cookieHeader).toMatch(/Secure/);
    const { accessToken, refreshToken } = login.body.data.tokens;

    const me = await call('/api/v1/auth/me', { token: accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email, tenantSlug: slug, subscriptionTier: 'pro' });
    expect(typeof me.body.data.tenantId).toBe('string');

    const byBody = await call('/api/v1/auth/refresh', { body: { refreshToken } });
    expect(byBody.status).toBe(200);
    expect(Object.keys(byBody.body.data).sort()).toEqual(['accessToken', 'expiresAt', 'refreshExpiresAt', 'refreshToken']);
    expect(byBody.body.data.refreshToken).not.toBe(refreshToken);

    const byCookie = await call('/api/v1/auth/refresh-cookie', { method: 'POST', headers: { cookie: `svc_refresh=${refreshCookie(registered)}` } });
    expect(byCookie.status).toBe(200);
    expect(Object.keys(byCookie.body.data).sort()).toEqual(['accessToken', 'expiresAt']);
    const rotatedCookie = refreshCookie(byCookie);
    expect(rotatedCookie).toBeTruthy();
    expect(rotatedCookie).not.toBe(refreshCookie(registered));

    const renamed = await call('/api/v1/users/me', { method: 'PATCH', token: accessToken, body: { name: 'Ada' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Ada');
    for (const name of ['Ada\u0000', 'Ada\nLovelace', '\u007f']) {
      const refused = await call('/api/v1/users/me', { method: 'PATCH', token: accessToken, body: { name } });
      expectError(refused, 400, 'VALIDATION_FAILED');
      expect(refused.body.error.details).toMatchObject({ field: 'name', issue: 'must not contain control characters' });
    }

    const changed = await call('/api/v1/auth/change-password', { token: byCookie.body.data.accessToken, body: { current_password: 'first-password', new_password: 'second-password' } });
    expect(changed.status).toBe(200);
    // Identity asks notify for the notice through its outbox, in the transaction of the change.
    const queued = await fleet.infra.database.db.execute(sql`select payload->>'kind' as kind from identity.outbox where name = 'email.requested' and payload->>'to' = ${email}`);
    expect((queued as unknown as { rows: { kind: string }[] }).rows).toEqual([{ kind: 'password-changed' }]);
    expectError(await call('/api/v1/auth/refresh', { body: { refreshToken: byBody.body.data.refreshToken } }), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/api/v1/auth/refresh-cookie', { method: 'POST', headers: { cookie: `svc_refresh=${rotatedCookie}` } }), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/api/v1/auth/me', { token: accessToken }), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/api/v1/auth/login', { body: { email, password: 'first-password' } }), 401, 'AUTHENTICATION_FAILED');

    const again = await call('/api/v1/auth/login', { body: { email, password: 'second-password' } });
    expect(again.status).toBe(200);
    const logout = await call('/api/v1/auth/logout', { method: 'POST', token: again.body.data.tokens.accessToken });
    expect(logout.status).toBe(200);
    expect(typeof logout.body.data.message).toBe('string');
    expectError(await call('/api/v1/auth/me', { token: again.body.data.tokens.accessToken }), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/api/v1/auth/refresh', { body: { refreshToken: again.body.data.tokens.refreshToken } }), 401, 'AUTHENTICATION_FAILED');
  });

  it('changes the password from the login screen with valid current credentials only', async () => {
    const { body } = await register();
    expectError(
      await call('/api/v1/auth/change-password/login', { body: { email: body.email, current_password: 'wrong-password', new_password: 'another-password' } }),
      401,
      'AUTHENTICATION_FAILED',
    );
    const changed = await call('/api/v1/auth/change-password/login', { body: { email: body.email, current_password: body.password, new_password: 'another-password' } });
    expect(changed.status).toBe(200);
    expect((await call('/api/v1/auth/login', { body: { email: body.email, password: 'another-password' } })).status).toBe(200);
  });

  it('revokes the whole family when a used refresh token comes back', async () => {
    const { reply } = await register();
    const first = reply.body.data.tokens.refreshToken;
    const second = await call('/api/v1/auth/refresh', { body: { refreshToken: first } });
    expect(second.status).toBe(200);
    expectError(await call('/api/v1/auth/refresh', { body: { refreshToken: first } }), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/api/v1/auth/refresh', { body: { refreshToken: second.body.data.refreshToken } }), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/api/v1/auth/me', { token: second.body.data.accessToken }), 401, 'AUTHENTICATION_FAILED');
  });

  describe('registration errors', () => {
    it.each([
      ['missing fields', {}, 'VALIDATION_FAILED'],
      ['a short password', { password: 'short' }, 'VALIDATION_FAILED'],
      ['a malformed e-mail', { email: 'not-an-email' }, 'VALIDATION_FAILED'],
      ['a malformed access code', { access_code: 'SVC-123' }, 'VALIDATION_FAILED'],
      ['a one-character slug', { slug: 'a' }, 'SLUG_INVALID'],
      ['a 40-character slug', { slug: 'a'.repeat(40) }, 'SLUG_INVALID'],
      ['a slug with a leading hyphen', { slug: '-abc' }, 'SLUG_INVALID'],
      ['a slug with a trailing hyphen', { slug: 'abc-' }, 'SLUG_INVALID'],
      ['an uppercase slug', { slug: 'Acme' }, 'SLUG_INVALID'],
      ['a slug with an underscore', { slug: 'ac_me' }, 'SLUG_INVALID'],
      ['the reserved slug admin', { slug: 'admin' }, 'SLUG_RESERVED'],
      ['the reserved slug system', { slug: 'system' }, 'SLUG_RESERVED'],
      ['the platform name', { slug: 'svc' }, 'SLUG_RESERVED'],
      ['an unknown access code', { access_code: 'SVC-ZZZZ-ZZZZ' }, 'ACCESS_CODE_INVALID'],
    ])('rejects %s', async (_label, overrides, code) => {
      const body = overrides && Object.keys(overrides).length === 0 ? {} : undefined;
      const reply = body ? await call('/api/v1/auth/register', { body }) : (await register(overrides)).reply;
      expectError(reply, 400, code);
    });

    it('accepts slugs of exactly 2 and 39 characters', async () => {
      expect((await register({ slug: 'ab', email: 'two@example.test' })).reply.status).toBe(201);
      expect((await register({ slug: 'b'.repeat(39), email: 'thirtynine@example.test' })).reply.status).toBe(201);
    });

    it('names the bad field and never echoes a password', async () => {
      const { reply } = await register({ password: 'short' });
      expect(reply.body.error.details.field).toBe('password');
      expect(JSON.stringify(reply.body)).not.toContain('short"');
    });

    it('rejects a taken e-mail and a taken slug', async () => {
      const { body } = await register();
      expectError((await register({ email: body.email })).reply, 409, 'EMAIL_TAKEN');
      expectError((await register({ slug: body.slug })).reply, 400, 'SLUG_TAKEN');
    });

    it('answers registrations racing for one slug, e-mail or single-use code as if they came one after another', async () => {
      const racing = (bodyOf: (i: number) => { slug: string; email: string; access_code: string }) =>
        Promise.all(Array.from({ length: 8 }, (_, i) => call('/api/v1/auth/register', { body: { password: 'correct-horse-1', ...bodyOf(i) }, headers: clientAddress() })));
      const outcome = (replies: Reply[], status: number, code: string) => {
        expect(replies.filter((reply) => reply.status === 201)).toHaveLength(1);
        for (const reply of replies.filter((r) => r.status !== 201)) expectError(reply, status, code);
      };
      const many = await mintCode({ max_uses: 20 });
      const slug = nextSlug();
      outcome(await racing((i) => ({ slug, email: `${slug}-${i}@example.test`, access_code: many })), 400, 'SLUG_TAKEN');
      outcome(await racing((i) => ({ slug: `${slug}-${i}`, email: `${slug}@example.test`, access_code: many })), 409, 'EMAIL_TAKEN');
      const once = await mintCode({ max_uses: 1 });
      outcome(await racing((i) => ({ slug: `${slug}-once-${i}`, email: `${slug}-once-${i}@example.test`, access_code: once })), 400, 'ACCESS_CODE_INVALID');
    });

    it('rejects a used-up code and a deactivated code', async () => {
      const code = await mintCode({ max_uses: 1 });
      expect((await register({ access_code: code })).reply.status).toBe(201);
      expectError((await register({ access_code: code })).reply, 400, 'ACCESS_CODE_INVALID');

      const inactive = await mintCode();
      const list = await call('/api/v1/access-codes', { token: adminToken });
      const row = list.body.data.find((c: { code: string }) => c.code === inactive);
      const deleted = await call(`/api/v1/access-codes/${row.id}`, { method: 'DELETE', token: adminToken });
      expect(deleted.body.data).toEqual({ id: row.id, is_active: false });
      expectError((await register({ access_code: inactive })).reply, 400, 'ACCESS_CODE_INVALID');
      // The spec's reduced form for an invalid access code: a message and nothing else.
      for (const code of [inactive, 'SVC-AAAA-AAAA', 'not-a-code']) {
        const invalid = await call('/api/v1/access-codes/validate', { body: { code }, headers: clientAddress() });
        expect(invalid.status).toBe(400);
        expect(invalid.body).toEqual({ success: false, error: { message: 'Access code is invalid, inactive or used up' } });
      }
      // A malformed request keeps the full error body.
      expectError(await call('/api/v1/access-codes/validate', { body: { kode: inactive }, headers: clientAddress() }), 400, 'VALIDATION_FAILED');
    });

    it('creates the account without developer mode and with the tier of the code', async () => {
      const { reply } = await register({ access_code: await mintCode({ tier: 'developer_preview' }) });
      expect(reply.body.data.user).toMatchObject({ developerMode: false, subscriptionTier: 'developer_preview' });
    });
  });

  describe('credential errors', () => {
    it('says the same thing for an unknown e-mail and a wrong password', async () => {
      const { body } = await register();
      const unknown = await call('/api/v1/auth/login', { body: { email: 'nobody@example.test', password: 'whatever-1' } });
      const wrong = await call('/api/v1/auth/login', { body: { email: body.email, password: 'wrong-password' } });
      expectError(unknown, 401, 'AUTHENTICATION_FAILED');
      expectError(wrong, 401, 'AUTHENTICATION_FAILED');
      expect(unknown.body.error.message).toBe(wrong.body.error.message);
    });

    it('rejects a missing, expired, forged or API-key bearer token', async () => {
      const { reply } = await register();
      const sub = reply.body.data.user.id;
      const expired = jwt.sign({ sid: 'x' }, TEST_SECRETS.jwtSecret, { subject: sub, issuer: 'svc', audience: 'svc-api', expiresIn: -10 });
      const forged = jwt.sign({ sid: 'x' }, 'not-the-secret-not-the-secret-not-the', { subject: sub, issuer: 'svc', audience: 'svc-api', expiresIn: 60 });
      expectError(await call('/api/v1/auth/me'), 401, 'AUTHENTICATION_FAILED');
      expectError(await call('/api/v1/auth/me', { token: expired }), 401, 'AUTHENTICATION_FAILED');
      expectError(await call('/api/v1/auth/me', { token: forged }), 401, 'AUTHENTICATION_FAILED');
      expectError(await call('/api/v1/auth/me', { token: `sk-svc-${'a'.repeat(64)}` }), 401, 'AUTHENTICATION_FAILED');
      expectError(await call('/api/v1/auth/refresh', { body: { refreshToken: 'forged' } }), 401, 'AUTHENTICATION_FAILED');
      expectError(await call('/api/v1/auth/refresh-cookie', { method: 'POST' }), 401, 'AUTHENTICATION_FAILED');
    });

    it('never lets a client forge the internal identity header', async () => {
      const reply = await call('/api/v1/auth/me', { headers: { 'x-svc-identity': 'forged' } });
      expectError(reply, 401, 'AUTHENTICATION_FAILED');
    });
  });

  describe('malformed requests', () => {
    it('rejects a body that is not JSON with 415', async () => {
      expectError(await call('/api/v1/auth/login', { raw: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('rejects malformed JSON with 400', async () => {
      expectError(await call('/api/v1/auth/login', { raw: '{"email":', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION_FAILED');
    });

    it('rejects a body over 1 MiB with 413', async () => {
      const raw = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(1024 * 1024) });
      expectError(await call('/api/v1/auth/login', { raw, headers: { 'content-type': 'application/json' } }), 413, 'PAYLOAD_TOO_LARGE');
    });

    it('rejects a JSON array or string where an object is expected', async () => {
      expectError(await call('/api/v1/auth/login', { body: ['a'] }), 400, 'VALIDATION_FAILED');
      expectError(await call('/api/v1/auth/login', { body: 'text' }), 400, 'VALIDATION_FAILED');
    });

    it('answers unknown paths with a JSON 404', async () => {
      expectError(await call('/api/v1/nothing-here'), 404, 'NOT_FOUND');
      expectError(await call('/nope'), 404, 'NOT_FOUND');
    });

    it('echoes a client X-Request-Id and puts it in the error body', async () => {
      const reply = await call('/api/v1/auth/me', { headers: { 'x-request-id': 'trace-abc-123' } });
      expect(reply.headers.get('x-request-id')).toBe('trace-abc-123');
      expect(reply.body.error.correlation_id).toBe('trace-abc-123');
    });
  });

  describe('access codes', () => {
    it('lets only admins mint, list and deactivate codes', async () => {
      const { reply } = await register();
      const token = reply.body.data.tokens.accessToken;
      expectError(await call('/api/v1/access-codes', { token, body: { tier: 'free', cohort: 'x' } }), 403, 'PERMISSION_DENIED');
      expectError(await call('/api/v1/access-codes', { token }), 403, 'PERMISSION_DENIED');
      expectError(await call('/api/v1/access-codes/00000000-0000-4000-8000-000000000000', { method: 'DELETE', token }), 403, 'PERMISSION_DENIED');
      expectError(await call('/api/v1/access-codes', { body: { tier: 'free', cohort: 'x' } }), 401, 'AUTHENTICATION_FAILED');
    });

    it('mints several codes with a prefix and lists them with their fields', async () => {
      const reply = await call('/api/v1/access-codes', { token: adminToken, body: { count: 3, tier: 'pro', cohort: 'comp', prefix: 'ab', max_uses: 5 } });
      expect(reply.status).toBe(201);
      expect(reply.body.data).toMatchObject({ count: 3, tier: 'pro', cohort: 'comp' });
      for (const code of reply.body.data.codes) expect(code).toMatch(/^SVC-AB[A-Z0-9]{2}-[A-Z0-9]{4}$/);
      const list = await call('/api/v1/access-codes', { token: adminToken });
      const row = list.body.data.find((c: { code: string }) => c.code === reply.body.data.codes[0]);
      expect(row).toMatchObject({ tier: 'pro', cohort: 'comp', max_uses: 5, use_count: 0, is_active: true, redeemed_by: null });
    });

    it('validates its input', async () => {
      expectError(await call('/api/v1/access-codes', { token: adminToken, body: { tier: 'gold', cohort: 'x' } }), 400, 'VALIDATION_FAILED');
      expectError(await call('/api/v1/access-codes', { token: adminToken, body: { tier: 'free' } }), 400, 'VALIDATION_FAILED');
      expectError(await call('/api/v1/access-codes', { token: adminToken, body: { tier: 'free', cohort: 'x', count: 0 } }), 400, 'VALIDATION_FAILED');
      expectError(await call('/api/v1/access-codes/not-a-uuid', { method: 'DELETE', token: adminToken }), 400, 'VALIDATION_FAILED');
      expectError(await call('/api/v1/access-codes/00000000-0000-4000-8000-000000000000', { method: 'DELETE', token: adminToken }), 404, 'NOT_FOUND');
    });

    it('limits public validation per client IP', async () => {
      // Earlier tests in this run used a few of the 10 per minute; the rest go here.
      let reply = await call('/api/v1/access-codes/validate', { body: { code: 'SVC-AAAA-AAAA' } });
      for (let i = 0; i < 10 && reply.status !== 429; i += 1) {
        expect(reply.headers.get('x-ratelimit-limit')).toBe('10');
        reply = await call('/api/v1/access-codes/validate', { body: { code: 'SVC-AAAA-AAAA' } });
      }
      expect(reply.status).toBe(429);
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(reply.body.error).toMatchObject({ type: 'RateLimitError', code: 'RATE_LIMITED' });
      expect(reply.body.error.retry_after).toBeGreaterThan(0);
    });
  });
});
