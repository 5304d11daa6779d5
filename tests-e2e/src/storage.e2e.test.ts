import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ephemeralQueueName, type BusMessage, type Subscription } from '@svc/bus';
import { StorageChanged, type EventPayload } from '@svc/contracts';
import { adminToken, signUp, type TestUser } from './support/accounts.js';
import { client, type Call, type Reply } from './support/client.js';
import { MODES, startTestFleet, type TestFleet } from './support/fleet.js';

function expectError(reply: Reply, status: number, code: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body).toMatchObject({ success: false, error: { code } });
  expect(reply.body.error.correlation_id).toBe(reply.headers.get('x-request-id'));
}

describe.each(MODES)('storage and telemetry through the gateway (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let ada: TestUser;
  let bob: TestUser;
  let usage: Subscription;
  const usageEvents: EventPayload<'storage.changed'>[] = [];

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    const admin = await adminToken(call);
    // Pro accounts: 300 requests a minute, storage 200, enough for the flows below.
    ada = await signUp(call, admin, { tier: 'pro' });
    bob = await signUp(call, admin, { tier: 'pro' });
    usage = await fleet.infra.bus.subscribe(ephemeralQueueName('e2e.storage-usage'), ['storage.changed'], async (m: BusMessage) => {
      usageEvents.push(StorageChanged.parse(m.payload));
    }, { ephemeral: true });
  });

  afterAll(async () => {
    await usage?.cancel();
    await fleet?.stop();
  });

  it('writes, reads, lists and deletes entries of the caller', async () => {
    const put = await call('/api/v1/storage/notes:first', { method: 'PUT', token: ada.token, body: { data: { text: 'hello' }, ttl: 86_400 } });
    expect(put.status).toBe(201);
    expect(put.body.data).toMatchObject({ key: 'notes:first', created: true });
    expect(Date.parse(put.body.data.expires_at)).toBeGreaterThan(Date.now() + 86_000_000);

    const again = await call('/api/v1/storage/notes:first', { method: 'PUT', token: ada.token, body: { data: { text: 'hello again' } } });
    expect(again).toMatchObject({ status: 200, body: { data: { created: false, expires_at: null } } });
    await call('/api/v1/storage/notes:second', { method: 'PUT', token: ada.token, body: { data: { n: 2 } } });
    await call('/api/v1/storage/other', { method: 'PUT', token: ada.token, body: { data: {} } });

    const read = await call('/api/v1/storage/notes:first', { token: ada.token });
    expect(read.body.data).toMatchObject({ key: 'notes:first', value: { text: 'hello again' }, expires_at: null });
    expect((await call('/api/v1/storage?prefix=notes:', { token: ada.token })).body).toEqual({ data: { keys: ['notes:first', 'notes:second'], total: 2 } });
    expect((await call('/api/v1/storage?limit=1', { token: ada.token })).body).toEqual({ data: { keys: ['notes:first'], total: 3 } });

    expect((await call('/api/v1/storage/notes:second', { method: 'DELETE', token: ada.token })).body).toEqual({ data: { deleted: true } });
    expectError(await call('/api/v1/storage/notes:second', { token: ada.token }), 404, 'NOT_FOUND');
  });

  it("keeps one user's entries from another", async () => {
    await call('/api/v1/storage/private', { method: 'PUT', token: ada.token, body: { data: { owner: 'ada' } } });
    expectError(await call('/api/v1/storage/private', { token: bob.token }), 404, 'NOT_FOUND');
    expectError(await call('/api/v1/storage/private', { method: 'DELETE', token: bob.token }), 404, 'NOT_FOUND');
    expect((await call('/api/v1/storage', { token: bob.token })).body.data).toEqual({ keys: [], total: 0 });
    expect((await call('/api/v1/storage/private', { method: 'PUT', token: bob.token, body: { data: { owner: 'bob' } } })).status).toBe(201);
    expect((await call('/api/v1/storage/private', { token: ada.token })).body.data.value).toEqual({ owner: 'ada' });
  });

  it('publishes the tenant storage usage on the bus', async () => {
    const key = `usage-${randomBytes(3).toString('hex')}`;
    await call(`/api/v1/storage/${key}`, { method: 'PUT', token: bob.token, body: { data: { v: 1 } } });
    const tenantId = bob.tenantId;
    const until = Date.now() + 5000;
    while (!usageEvents.some((e) => e.tenant_id === tenantId && e.storage_keys === 2) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const latest = usageEvents.filter((e) => e.tenant_id === tenantId).reduce((a, b) => (b.version > a.version ? b : a));
    expect(latest).toMatchObject({ storage_keys: 2 });
    expect(latest.storage_bytes).toBeGreaterThan(0);
  });

  it('answers bad input with the error body, never a 500', async () => {
    expectError(await call('/api/v1/storage/bad%20key', { method: 'PUT', token: ada.token, body: { data: {} } }), 400, 'VALIDATION_FAILED');
    expectError(await call('/api/v1/storage/k', { method: 'PUT', token: ada.token, body: { data: 'text' } }), 400, 'VALIDATION_FAILED');
    expectError(await call('/api/v1/storage/k', { method: 'PUT', token: ada.token, body: { data: {}, ttl: -1 } }), 400, 'VALIDATION_FAILED');
    expectError(await call('/api/v1/storage?limit=5000', { token: ada.token }), 400, 'VALIDATION_FAILED');
    expectError(await call('/api/v1/storage/%E0%A4%A', { token: ada.token }), 400, 'VALIDATION_FAILED');
    expectError(await call('/api/v1/storage/a%00b', { token: ada.token }), 400, 'VALIDATION_FAILED');
    expectError(await call('/api/v1/storage?prefix=%00', { token: ada.token }), 400, 'VALIDATION_FAILED');
    expectError(await call('/api/v1/storage/k', { method: 'PUT', token: ada.token, raw: 'x', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('requires an access token: none, a forged one and an API key are refused', async () => {
    expectError(await call('/api/v1/storage'), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/api/v1/storage/k', { token: 'not-a-jwt' }), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/api/v1/storage/k', { token: `sk-svc-${'a'.repeat(64)}` }), 401, 'AUTHENTICATION_FAILED');
  });

  it('takes anonymous telemetry without credentials and refuses unknown fields', async () => {
    const record = { command: 'run', duration_ms: 420, success: true, os: 'linux', cli_version: '0.1.0' };
    const reply = await call('/api/v1/telemetry', { body: record });
    expect(reply).toMatchObject({ status: 200, body: { data: { received: true } } });
    expect(reply.headers.get('x-ratelimit-limit')).toBe('60');
    expect((await call('/api/v1/telemetry', { body: record, token: ada.token })).status).toBe(200);
    expectError(await call('/api/v1/telemetry', { body: { ...record, email: 'ada@example.test' } }), 400, 'VALIDATION_FAILED');
    expectError(await call('/api/v1/telemetry', { method: 'GET' }), 404, 'NOT_FOUND');
  });
});
