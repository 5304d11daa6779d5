import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@svc/core';
import { createGateway, fleetHealthChecks, type Gateway } from '@svc/gateway';
import { closeServer, listen, openInfrastructure, type Infrastructure } from '@svc/platform';
import { adminToken, clientAddress, createApiKey, signUp } from './support/accounts.js';
import { client, type Call, type Reply } from './support/client.js';
import { MODES, oneMode, startFleetThroughProxy, startTestFleet, type TestFleet } from './support/fleet.js';
import type { TcpProxy } from '@svc/testing';

const header = (reply: Reply, name: string) => (reply.headers.has(name) ? Number(reply.headers.get(name)) : undefined);

function expectRefused(reply: Reply, limit: number) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(429);
  expect(header(reply, 'x-ratelimit-limit')).toBe(limit);
  expect(header(reply, 'x-ratelimit-remaining')).toBe(0);
  const retryAfter = header(reply, 'retry-after')!;
  expect(retryAfter).toBeGreaterThan(0);
  expect(header(reply, 'x-ratelimit-reset')).toBeGreaterThan(Date.now() / 1000);
  expect(reply.body).toMatchObject({ success: false, error: { type: 'RateLimitError', code: 'RATE_LIMITED', retry_after: retryAfter } });
  expect(reply.body.error.correlation_id).toBe(reply.headers.get('x-request-id'));
  return retryAfter;
}

describe.each(oneMode('real'))('rate limits through the gateway (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let admin: string;

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    admin = await adminToken(call);
  });
  afterAll(() => fleet?.stop());

  it("refuses a free user's 11th request in a minute with 429, Retry-After and the limit headers", async () => {
    // signUp's own GET /auth/me is the first request of the minute.
    const { token } = await signUp(call, admin, { tier: 'free' });
    const paths = ['/api/v1/auth/me', '/api/v1/storage', '/api/v1/storage/k'];
    for (let i = 1; i < 10; i += 1) {
      const reply = await call(paths[i % paths.length]!, { token });
      expect([200, 404]).toContain(reply.status);
      expect(header(reply, 'x-ratelimit-limit')).toBe(10);
      expect(header(reply, 'x-ratelimit-remaining')).toBe(9 - i);
      expect(header(reply, 'x-ratelimit-reset')).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
      expect(reply.headers.has('retry-after')).toBe(false);
    }
    const retryAfter = expectRefused(await call('/api/v1/auth/me', { token }), 10);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectRefused(await call('/api/v1/storage/k', { method: 'PUT', token, body: { data: {} } }), 10);
  });

  it('reports the most constrained limit: the tier, or the endpoint group when it is stricter', async () => {
    const { token } = await signUp(call, admin, { tier: 'pro' });
    const me = await call('/api/v1/auth/me', { token });
    expect(header(me, 'x-ratelimit-limit')).toBe(300);
    const storage = await call('/api/v1/storage', { token });
    expect(storage.status).toBe(200);
    expect(header(storage, 'x-ratelimit-limit')).toBe(200);
    expect(header(await call('/api/v1/auth/me', { token: admin }), 'x-ratelimit-limit')).toBe(1000);
  });

  it('limits public endpoints per client address: registration 10 a minute', async () => {
    const address = clientAddress();
    for (let i = 0; i < 10; i += 1) {
      const reply = await call('/api/v1/auth/register', { body: {}, headers: address });
      expect(reply.status).toBe(400);
      expect(header(reply, 'x-ratelimit-limit')).toBe(10);
    }
    expectRefused(await call('/api/v1/auth/register', { body: {}, headers: address }), 10);
    expect((await call('/api/v1/auth/register', { body: {}, headers: clientAddress() })).status).toBe(400);
    const login = await call('/api/v1/auth/login', { body: { email: 'x@example.test', password: 'whatever-1' }, headers: address });
    expect(login.status).toBe(401);
    expect(header(login, 'x-ratelimit-limit')).toBe(30);
  });

  it("gives answers made before the caller is known the headers of the client address's budget, and refuses it when spent", async () => {
    const address = clientAddress();
    const user = await signUp(call, admin);
    const key = await createApiKey(call, user, 'revoked');
    expect((await call(`/api/v1/account/api-keys/${key.id}`, { method: 'DELETE', token: user.token })).status).toBe(200);
    const early: Array<[string, Promise<Reply>, number]> = [
      ['no token', call('/api/v1/auth/me', { headers: address }), 401],
      ['a bad token', call('/api/v1/auth/me', { token: 'not-a-token', headers: address }), 401],
      ['a revoked key', call('/api/v1/tasks/00000000-0000-4000-8000-000000000000', { token: key.key, headers: address }), 401],
      ['an unknown route', call('/api/v1/nowhere', { token: user.token, headers: address }), 404],
      ['a body declared too large', call('/api/v1/storage/k', { method: 'PUT', token: user.token, raw: 'x'.repeat(1024 * 1024 + 1), headers: { ...address, 'content-type': 'application/json' } }), 413],
      ['OPTIONS', call('/api/v1/storage/k', { method: 'OPTIONS', headers: address }), 405],
    ];
    let remaining = 1000;
    for (const [label, answer, status] of early) {
      const reply = await answer;
      expect(reply.status, label).toBe(status);
      expect(reply.body.success, label).toBe(false);
      expect(header(reply, 'x-ratelimit-limit'), label).toBe(1000);
      remaining = Math.min(remaining, header(reply, 'x-ratelimit-remaining')!);
      expect(header(reply, 'x-ratelimit-reset'), label).toBeGreaterThan(Date.now() / 1000);
    }
    expect(remaining).toBe(1000 - early.length);
    const options = await call('/api/v1/storage/k', { method: 'OPTIONS', headers: address });
    expect(options.headers.get('allow')).toBe('DELETE, GET, PUT');
    expect(options.body.error.code).toBe('METHOD_NOT_ALLOWED');

    for (let i = early.length + 1; i < 1000; i += 1) await call('/api/v1/nowhere', { headers: address });
    expectRefused(await call('/api/v1/auth/me', { headers: address }), 1000);
    // Another address, and a known caller from the same one, are not held up.
    expect((await call('/api/v1/auth/me', { headers: clientAddress() })).status).toBe(401);
    expect((await call('/api/v1/auth/me', { token: user.token, headers: address })).status).toBe(200);
  });

  it('tells an unknown or revoked API key that it is invalid or revoked', async () => {
    const user = await signUp(call, admin);
    const key = await createApiKey(call, user, 'soon-revoked');
    expect((await call(`/api/v1/account/api-keys/${key.id}`, { method: 'DELETE', token: user.token })).status).toBe(200);
    for (const token of [key.key, `sk-svc-${'0'.repeat(64)}`]) {
      const reply = await call('/api/v1/commands', { token });
      expect(reply.status).toBe(401);
      expect(reply.body.error).toMatchObject({ code: 'AUTHENTICATION_FAILED', message: 'The API key is invalid or has been revoked' });
    }
    const missing = await call('/api/v1/commands');
    expect(missing.body.error.message).toBe('Authorization header with a Bearer token is required');
  });
});

describe.runIf(MODES.includes('real'))('gateway replicas on one Redis (real infrastructure)', () => {
  let fleet: TestFleet;
  let replicaInfra: Infrastructure;
  let replica: Server;
  let replicaGateway: Gateway;
  let first: Call;
  let second: Call;
  let admin: string;

  beforeAll(async () => {
    fleet = await startTestFleet('real');
    // A second gateway process in all but name: its own Redis, bus and database connections.
    const log = createLogger({ service: 'gateway-replica', level: 'error', silent: !process.env.E2E_LOGS });
    replicaInfra = await openInfrastructure(fleet.infraEnv, log, { inMemory: true });
    replicaGateway = createGateway({ ...replicaInfra, log, health: fleetHealthChecks(replicaInfra), config: fleet.gatewayConfig });
    replica = await listen(replicaGateway.app, 0, '127.0.0.1');
    first = client(fleet.url);
    second = client(`http://127.0.0.1:${(replica.address() as AddressInfo).port}`);
    admin = await adminToken(first);
  });

  afterAll(async () => {
    if (replica) await closeServer(replica);
    await replicaGateway?.stop();
    await replicaInfra?.close();
    await fleet?.stop();
  });

  it('shares one budget between two gateways on the same Redis', async () => {
    // signUp's own GET /auth/me, through the first gateway, is the first request of the minute.
    const { token } = await signUp(first, admin, { tier: 'free' });
    const remaining: (number | undefined)[] = [];
    for (let i = 1; i < 10; i += 1) {
      const reply = await (i % 2 === 0 ? first : second)('/api/v1/auth/me', { token });
      expect(reply.status).toBe(200);
      remaining.push(header(reply, 'x-ratelimit-remaining'));
    }
    expect(remaining).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expectRefused(await second('/api/v1/auth/me', { token }), 10);
    expectRefused(await first('/api/v1/auth/me', { token }), 10);
  });

  it('stops a revoked API key at once on every replica', async () => {
    const user = await signUp(first, admin);
    const key = await createApiKey(first, user, 'ci');
    // Both replicas know the key (the catalog accepts API keys).
    expect((await first('/api/v1/commands', { token: key.key })).status).toBe(200);
    expect((await second('/api/v1/commands', { token: key.key })).status).toBe(200);
    expect((await first(`/api/v1/account/api-keys/${key.id}`, { method: 'DELETE', token: user.token })).status).toBe(200);
    expect((await second('/api/v1/commands', { token: key.key })).status).toBe(401);
    expect((await first('/api/v1/commands', { token: key.key })).status).toBe(401);
  });

  it('shares per-address budgets between the gateways too', async () => {
    const address = clientAddress();
    for (let i = 0; i < 10; i += 1) expect((await (i < 5 ? first : second)('/api/v1/auth/register', { body: {}, headers: address })).status).toBe(400);
    expectRefused(await first('/api/v1/auth/register', { body: {}, headers: address }), 10);
  });
});

describe.runIf(MODES.includes('real'))('rate limits while Redis is away (real infrastructure)', () => {
  let fleet: TestFleet;
  let proxy: TcpProxy;
  let call: Call;

  beforeAll(async () => {
    ({ fleet, proxy } = await startFleetThroughProxy('cache'));
    call = client(fleet.url);
  });

  afterAll(async () => {
    await fleet?.stop();
    await proxy?.close();
  });

  it('keeps serving and limiting on the memory limiter, and /health says the cache is degraded', async () => {
    const admin = await adminToken(call);
    const { token } = await signUp(call, admin, { tier: 'free' });

    proxy.cut();
    const health = await call('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'degraded', services: { cache: 'degraded', database: 'healthy', worker: 'healthy' } });

    // The memory limiter starts its own count; the user is still limited to 10 a minute.
    for (let i = 0; i < 10; i += 1) {
      const reply = await call('/api/v1/auth/me', { token });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(header(reply, 'x-ratelimit-limit')).toBe(10);
    }
    expectRefused(await call('/api/v1/auth/me', { token }), 10);

    proxy.resume();
  });
});
