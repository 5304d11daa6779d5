import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import Stripe from 'stripe';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@svc/testing';
import { adminToken, createApiKey, expectError, signUp, type TestUser } from './support/accounts.js';
import { client, type Call, type Reply } from './support/client.js';
import { oneMode, startTestFleet, TEST_SECRETS, type TestFleet } from './support/fleet.js';

const WEBHOOK_SECRET = 'whsec_e2e_hostile_billing';
const REGISTRATION_SECRET = 'whsec_e2e_hostile_registration';

/** Hosts inside the platform's network, or anybody's: loopback, private, shared, metadata, IPv6 loopback and ULA, a name for loopback. */
const INSIDE = ['127.0.0.1', '10.0.0.5', '172.20.0.3', '192.168.1.10', '100.64.0.1', '169.254.169.254', '::1', 'fd00:ec2::254', 'localhost'];

/** An error answer without what differs between any two (its correlation id and time). */
const sameness = (reply: Reply) => ({ status: reply.status, type: reply.body.error.type, code: reply.body.error.code, message: reply.body.error.message, details: reply.body.error.details });

/**
 * One request per finding of the security review, as an attacker would send it, each refused:
 * SSH targets aimed at the platform's own network (create, update, verify), a pack secret or an
 * SSH credential echoed back in an error, a payment webhook signed ahead of time, an access
 * token without expiry, two bearer tokens in one header, an API key driving the sandbox.
 */
describe.each(oneMode('real'))('hostile requests, each refused (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let ada: TestUser;
  let apiKey: string;
  let gatewayPort: number;

  const createTarget = (host: string, extra: Record<string, unknown> = {}) =>
    call('/api/v1/ssh/targets', { token: ada.token, body: { name: `box-${randomBytes(4).toString('hex')}`, host, username: 'deploy', auth_method: 'password', password: 'a-password-1', ...extra } });

  beforeAll(async () => {
    fleet = await startTestFleet(mode, { billing: { webhookSecret: WEBHOOK_SECRET, registrationWebhookSecret: REGISTRATION_SECRET } });
    call = client(fleet.url);
    const admin = await adminToken(call);
    ada = await signUp(call, admin);
    apiKey = (await createApiKey(call, ada, 'hostile')).key;
    gatewayPort = Number(new URL(fleet.url).port);
  });

  afterAll(async () => {
    await fleet?.stop();
  });

  describe('SSH targets aimed inside', () => {
    it('refuses to register one on loopback (Postgres, RabbitMQ, Redis, the gateway), private, shared or metadata addresses, or a name for loopback', async () => {
      for (const port of [5432, 5672, 6379, gatewayPort]) expectError(await createTarget('127.0.0.1', { port }), 400, 'SSH_HOST_REFUSED');
      for (const host of INSIDE) {
        const reply = await createTarget(host);
        expectError(reply, 400, 'SSH_HOST_REFUSED');
        expect(reply.body.error.details, host).toMatchObject({ field: 'host', reason: 'address_refused' });
      }
      expect((await call('/api/v1/ssh/targets', { token: ada.token })).body).toEqual([]);
    });

    it('refuses to move a registered target there, and leaves it where it was', async () => {
      const target = await createTarget('93.184.215.14');
      expect(target.status, JSON.stringify(target.body)).toBe(201);
      for (const host of INSIDE) expectError(await call(`/api/v1/ssh/targets/${target.body.id}`, { method: 'PUT', token: ada.token, body: { host, port: 5432 } }), 400, 'SSH_HOST_REFUSED');
      expect((await call(`/api/v1/ssh/targets/${target.body.id}`, { token: ada.token })).body).toMatchObject({ host: '93.184.215.14', port: 22 });
      await call(`/api/v1/ssh/targets/${target.body.id}`, { method: 'DELETE', token: ada.token });
    });

    it('verifies a target that points inside (registered before the rule, or under an allow-list since narrowed) without connecting, with one answer whatever listens on the port', async () => {
      const inside: Array<[string, number]> = [
        ['127.0.0.1', 5432],
        ['127.0.0.1', 5672],
        ['127.0.0.1', 6379],
        ['127.0.0.1', gatewayPort],
        ['127.0.0.1', await freePort()],
        ['169.254.169.254', 80],
        ['10.0.0.1', 22],
        ['::1', 22],
        ['localhost', 5432],
      ];
      const ids: string[] = [];
      for (const [host, port] of inside) {
        const target = await createTarget('93.184.215.14');
        expect(target.status, JSON.stringify(target.body)).toBe(201);
        // What a target registered before the rule looks like: written where no request may write it.
        await fleet.infra.database.db.execute(sql`update ssh.targets set host = ${host}, port = ${port}, updated_at = now() where id = ${target.body.id}`);
        ids.push(target.body.id);
      }
      const started = Date.now();
      const answers = await Promise.all(ids.map((id) => call(`/api/v1/ssh/targets/${id}/verify`, { method: 'POST', token: ada.token })));
      // 10.0.0.1 would have taken the 10 s connection timeout had anything been tried.
      expect(Date.now() - started).toBeLessThan(8000);
      expectError(answers[0]!, 502, 'SSH_CONNECTION_FAILED');
      expect(answers[0]!.body.error).toMatchObject({ message: 'connection failed', details: { reason: 'address_refused' } });
      expect(answers.map(sameness)).toEqual(answers.map(() => sameness(answers[0]!)));
    });
  });

  describe('secrets in error answers', () => {
    it('never sends back a refused pack secret or SSH credential, however it was refused', async () => {
      const secret = `hunter2-${randomBytes(8).toString('hex')}`;
      const secrets = `/api/v1/secrets/${ada.slug}/tools/API_TOKEN`;
      const target = await createTarget('93.184.215.14');
      const refusals = [
        await call(secrets, { method: 'PUT', token: ada.token, body: { value: `${secret}\u0000` } }),
        await call(secrets, { method: 'PUT', token: ada.token, body: { value: secret, note: 1 } }),
        await call(secrets, { method: 'PUT', token: ada.token, body: secret }),
        await call(secrets, { method: 'PUT', token: ada.token, raw: `{"value": ${secret}}`, headers: { 'content-type': 'application/json' } }),
        await createTarget('93.184.215.14', { password: `${secret}\u0000` }),
        await createTarget('93.184.215.14', { auth_method: 'key', password: undefined, private_key: `-----BEGIN OPENSSH PRIVATE KEY-----\n${secret}\n-----END OPENSSH PRIVATE KEY-----\n` }),
        await call('/api/v1/ssh/targets', { token: ada.token, raw: `{"name":"leak","host":"93.184.215.14","username":"u","auth_method":"password","password":${secret}}`, headers: { 'content-type': 'application/json' } }),
        await call(`/api/v1/ssh/targets/${target.body.id}`, { method: 'PUT', token: ada.token, body: { password: `${secret}\u0000` } }),
      ];
      for (const reply of refusals) {
        expect(reply.status, JSON.stringify(reply.body)).toBe(400);
        expect(JSON.stringify(reply.body)).not.toContain(secret);
        expect(JSON.stringify(reply.body)).not.toContain('hunter2');
      }
    });
  });

  describe('payment webhooks signed ahead of time', () => {
    /** A processor event of a type the endpoint acknowledges without acting, signed `ageSeconds` ago. */
    const deliver = (endpoint: 'billing' | 'registration', ageSeconds: number) => {
      const payload = JSON.stringify({ id: `evt_${randomBytes(12).toString('hex')}`, object: 'event', type: 'customer.created', created: Math.floor(Date.now() / 1000), data: { object: { id: 'cus_hostile', object: 'customer' } }, livemode: false });
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: endpoint === 'billing' ? WEBHOOK_SECRET : REGISTRATION_SECRET, timestamp: Math.floor(Date.now() / 1000) - ageSeconds });
      return call(`/api/v1/${endpoint}/webhook`, { method: 'POST', raw: payload, headers: { 'content-type': 'application/json', 'payment-signature': signature } });
    };

    it.each(['billing', 'registration'] as const)('refuses a %s webhook signed 400 s in the future, as one 400 s old, and takes one signed now', async (endpoint) => {
      expect((await deliver(endpoint, 0)).status).toBe(200);
      for (const ageSeconds of [-400, 400]) expectError(await deliver(endpoint, ageSeconds), 401, 'AUTHENTICATION_FAILED');
    });
  });

  describe('access tokens', () => {
    it('refuses an access token without exp, signed with the platform key for a live session', async () => {
      const { sub, sid } = jwt.decode(ada.token) as { sub: string; sid: string };
      const sign = (options: jwt.SignOptions) => jwt.sign({ sid }, TEST_SECRETS.jwtSecret, { algorithm: 'HS256', subject: sub, issuer: 'svc', audience: 'svc-api', ...options });
      expect((await call('/api/v1/auth/me', { token: sign({ expiresIn: 60 }) })).status).toBe(200);
      const forever = sign({});
      expect(jwt.decode(forever)).not.toHaveProperty('exp');
      expectError(await call('/api/v1/auth/me', { token: forever }), 401, 'AUTHENTICATION_FAILED');
    });

    it('refuses two bearer tokens in one Authorization header', async () => {
      expectError(await call('/api/v1/auth/me', { headers: { authorization: `Bearer ${ada.token} ${ada.token}` } }), 401, 'AUTHENTICATION_FAILED');
      expectError(await call('/api/v1/auth/me', { headers: { authorization: `Bearer ${ada.token} garbage` } }), 401, 'AUTHENTICATION_FAILED');
      expectError(await call('/api/v1/commands', { headers: { authorization: `Bearer ${apiKey} ${apiKey}` } }), 401, 'AUTHENTICATION_FAILED');
      expect((await call('/api/v1/commands', { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);
    });
  });

  describe('the development sandbox', () => {
    it('refuses an API key on every sandbox route (403 PERMISSION_DENIED), and serves the access token', async () => {
      const asKey = { token: apiKey };
      for (const [method, path] of [
        ['GET', '/api/v1/sandbox'],
        ['POST', '/api/v1/sandbox'],
        ['DELETE', '/api/v1/sandbox'],
        ['PUT', '/api/v1/sandbox/packs'],
        ['POST', `/api/v1/sandbox/commands/${ada.slug}/echo`],
      ] as const) {
        const reply = await call(path, { ...asKey, method, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
        expectError(reply, 403, 'PERMISSION_DENIED');
        expect(reply.body.error.message, `${method} ${path}`).toMatch(/API keys cannot use the development sandbox/);
      }
      expect((await call('/api/v1/sandbox', { token: ada.token })).status).toBe(200);
    });
  });
});
