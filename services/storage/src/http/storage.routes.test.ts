import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type Identity } from '@svc/auth';
import { createBus, type Bus } from '@svc/bus';
import { SECRET_VALUE_MAX_BYTES, SECRETS_PER_PACK_MAX, SECRETS_RESOLVE_RPC, STORAGE_KEY_MAX, STORAGE_LIST_LIMIT_MAX, STORAGE_TTL_MAX_SECONDS, STORAGE_VALUE_MAX_BYTES } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { personalIdentity } from '@svc/auth/testing';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { closeServer, createServiceApp, listen } from '@svc/platform';
import { createStorageService, type StorageServiceHandle } from '../app.js';
import { secrets } from '../db/schema.js';

const log = createLogger({ service: 'test', silent: true });
const SECRET = 'storage-routes-test-secret-0123456789abcdef';

function caller(tenantId = randomUUID()): Identity {
  return personalIdentity({ userId: randomUUID(), tenantId, slug: 'someone' });
}

describe('storage routes', () => {
  let db: TestDatabase;
  let bus: Bus;
  let service: StorageServiceHandle;
  let server: Server;
  let base: string;

  async function call(path: string, options: { method?: string; as?: Identity; body?: unknown; raw?: string; contentType?: string } = {}) {
    const headers: Record<string, string> = {};
    if (options.as) headers[INTERNAL_IDENTITY_HEADER] = signInternalIdentity(options.as, SECRET);
    let body = options.raw;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const res = await fetch(`${base}${path}`, { method: options.method ?? 'GET', headers, body });
    return { status: res.status, body: (await res.json()) as any };
  }

  const expectError = (reply: { status: number; body: any }, status: number, code: string, field?: string) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(status);
    expect(reply.body).toMatchObject({ success: false, error: { code } });
    if (field) expect(reply.body.error.details.field).toBe(field);
  };

  beforeAll(async () => {
    db = await testDatabaseKinds()[0]!.open();
    bus = await createBus({ logger: log });
    service = createStorageService({ database: db.database, bus, log, config: { sweepIntervalSeconds: 3600, secretsKey: 'storage-test-secrets-key-0123456789abcdef' } });
    await service.start();
    server = await listen(createServiceApp({ service: 'test', routes: service.routes, internalSecret: SECRET, log }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    await service?.stop();
    await bus?.close();
    await db?.dispose();
  });

  it('answers 201 for a new key and 200 when it replaces one, then reads, lists and deletes', async () => {
    const me = caller();
    const created = await call('/storage/prefs:ui', { method: 'PUT', as: me, body: { data: { theme: 'dark' }, ttl: 86_400 } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ key: 'prefs:ui', created: true });
    const dayLater = Date.parse(created.body.data.expires_at) - Date.now();
    expect(dayLater).toBeGreaterThan(86_390_000);
    expect(dayLater).toBeLessThanOrEqual(86_400_000);

    const replaced = await call('/storage/prefs:ui', { method: 'PUT', as: me, body: { data: { theme: 'light' } } });
    expect(replaced).toMatchObject({ status: 200, body: { data: { key: 'prefs:ui', created: false, expires_at: null } } });

    const read = await call('/storage/prefs:ui', { as: me });
    expect(read.status).toBe(200);
    expect(Object.keys(read.body.data).sort()).toEqual(['created_at', 'expires_at', 'key', 'value']);
    expect(read.body.data).toMatchObject({ key: 'prefs:ui', value: { theme: 'light' }, expires_at: null });

    expect((await call('/storage?prefix=prefs:&limit=10', { as: me })).body).toEqual({ data: { keys: ['prefs:ui'], total: 1 } });
    expect((await call('/storage', { as: me })).body).toEqual({ data: { keys: ['prefs:ui'], total: 1 } });
    expect(await call('/storage/prefs:ui', { method: 'DELETE', as: me })).toEqual({ status: 200, body: { data: { deleted: true } } });
    expectError(await call('/storage/prefs:ui', { as: me }), 404, 'NOT_FOUND');
    expectError(await call('/storage/prefs:ui', { method: 'DELETE', as: me }), 404, 'NOT_FOUND');
  });

  it('works on the personal tenant of the caller only', async () => {
    const [me, you] = [caller(), caller()];
    await call('/storage/mine', { method: 'PUT', as: me, body: { data: { v: 1 } } });
    expectError(await call('/storage/mine', { as: you }), 404, 'NOT_FOUND');
    expect((await call('/storage', { as: you })).body.data).toEqual({ keys: [], total: 0 });
    expectError(await call('/storage/mine', { method: 'DELETE', as: you }), 404, 'NOT_FOUND');
    expect((await call('/storage/mine', { as: me })).status).toBe(200);
  });

  it('requires the identity the gateway signs', async () => {
    expectError(await call('/storage'), 401, 'AUTHENTICATION_FAILED');
    expectError(await call('/storage/k', { method: 'PUT', body: { data: {} } }), 401, 'AUTHENTICATION_FAILED');
  });

  it('accepts keys of 1 and 256 characters and values right at the size limit', async () => {
    const me = caller();
    expect((await call('/storage/k', { method: 'PUT', as: me, body: { data: {} } })).status).toBe(201);
    expect((await call(`/storage/${'k'.repeat(STORAGE_KEY_MAX)}`, { method: 'PUT', as: me, body: { data: {} } })).status).toBe(201);
    const atLimit = { v: 'x'.repeat(STORAGE_VALUE_MAX_BYTES - '{"v":""}'.length) };
    expect((await call('/storage/big', { method: 'PUT', as: me, body: { data: atLimit, ttl: STORAGE_TTL_MAX_SECONDS } })).status).toBe(201);
    expect((await call('/storage/big', { as: me })).body.data.value.v.length).toBe(atLimit.v.length);
  });

  it.each([
    ['a key of 257 characters', `/storage/${'k'.repeat(STORAGE_KEY_MAX + 1)}`, 'key'],
    ['a key with a space', '/storage/a%20b', 'key'],
    ['a key with an encoded slash', '/storage/a%2Fb', 'key'],
    ['malformed percent-encoding', '/storage/%E0%A4%A', undefined],
  ])('refuses %s with 400', async (_label, path, field) => {
    expectError(await call(path, { method: 'PUT', as: caller(), body: { data: {} } }), 400, 'VALIDATION_FAILED', field);
    expectError(await call(path, { as: caller() }), 400, 'VALIDATION_FAILED', field);
  });

  it.each([
    ['no data', {}, 'data'],
    ['data that is an array', { data: [1, 2] }, 'data'],
    ['data that is a string', { data: 'text' }, 'data'],
    ['data that is null', { data: null }, 'data'],
    ['a value one byte over the limit', { data: { v: 'x'.repeat(STORAGE_VALUE_MAX_BYTES - '{"v":""}'.length + 1) } }, 'data'],
    ['a ttl of 0', { data: {}, ttl: 0 }, 'ttl'],
    ['a negative ttl', { data: {}, ttl: -5 }, 'ttl'],
    ['a fractional ttl', { data: {}, ttl: 1.5 }, 'ttl'],
    ['a ttl as a string', { data: {}, ttl: '60' }, 'ttl'],
    ['a ttl over one year', { data: {}, ttl: STORAGE_TTL_MAX_SECONDS + 1 }, 'ttl'],
    ['an unknown field', { data: {}, expires: 5 }, 'body'],
  ])('refuses a PUT body with %s', async (_label, body, field) => {
    expectError(await call('/storage/k', { method: 'PUT', as: caller(), body }), 400, 'VALIDATION_FAILED', field);
  });

  it('refuses a body that is not JSON', async () => {
    expectError(await call('/storage/k', { method: 'PUT', as: caller(), raw: 'data=1', contentType: 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await call('/storage/k', { method: 'PUT', as: caller(), raw: '{"data":' }), 400, 'VALIDATION_FAILED');
  });

  it.each([
    ['a limit of 0', 'limit=0', 'limit'],
    [`a limit over ${STORAGE_LIST_LIMIT_MAX}`, `limit=${STORAGE_LIST_LIMIT_MAX + 1}`, 'limit'],
    ['a limit that is not a number', 'limit=ten', 'limit'],
    ['a repeated limit', 'limit=1&limit=2', 'limit'],
    ['a prefix with a slash', 'prefix=a/b', 'prefix'],
    ['an unknown parameter', 'page=2', 'query'],
  ])('refuses a list query with %s', async (_label, query, field) => {
    expectError(await call(`/storage?${query}`, { as: caller() }), 400, 'VALIDATION_FAILED', field);
  });

  it('pages through keys with after', async () => {
    const me = caller();
    for (const key of ['a', 'b', 'c']) await call(`/storage/${key}`, { method: 'PUT', as: me, body: { data: {} } });
    expect((await call('/storage?limit=2', { as: me })).body.data).toEqual({ keys: ['a', 'b'], total: 3 });
    expect((await call('/storage?limit=2&after=b', { as: me })).body.data).toEqual({ keys: ['c'], total: 3 });
  });

  describe('pack secrets', () => {
    const value = 'sk-live-0123456789-very-secret';

    it('sets, replaces, lists (never the value) and removes a secret of a pack for the caller\'s tenant', async () => {
      const me = caller();
      const created = await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, body: { value } });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ pack: '@acme/tools', name: 'API_TOKEN', created: true });
      const replaced = await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, body: { value: `${value}-2` } });
      expect([replaced.status, replaced.body.data.created, replaced.body.data.created_at]).toEqual([200, false, created.body.data.created_at]);
      const listed = await call('/secrets/acme/tools', { as: me });
      expect(listed.body.data).toEqual({ pack: '@acme/tools', secrets: [{ name: 'API_TOKEN', created_at: created.body.data.created_at, updated_at: replaced.body.data.updated_at }] });
      expect(JSON.stringify([created.body, replaced.body, listed.body])).not.toContain('very-secret');
      expect(await call('/secrets/acme/tools/API_TOKEN', { method: 'DELETE', as: me })).toMatchObject({ status: 200, body: { data: { deleted: true } } });
      expectError(await call('/secrets/acme/tools/API_TOKEN', { method: 'DELETE', as: me }), 404, 'NOT_FOUND');
    });

    it('keeps each tenant\'s secrets apart, sealed at rest, and opens them only for the worker\'s request', async () => {
      const ada = caller();
      const bob = caller();
      await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: ada, body: { value } });
      expect((await call('/secrets/acme/tools', { as: bob })).body.data.secrets).toEqual([]);
      expectError(await call('/secrets/acme/tools/API_TOKEN', { method: 'DELETE', as: bob }), 404, 'NOT_FOUND');
      const rows = await db.database.db.select().from(secrets);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.sealed.includes(Buffer.from('very-secret'))).toBe(false);
      const answer = await bus.request(SECRETS_RESOLVE_RPC, { tenantId: ada.tenantId, namespace: 'acme', pack: 'tools' });
      expect(answer.secrets).toEqual({ API_TOKEN: value });
      expect((await bus.request(SECRETS_RESOLVE_RPC, { tenantId: bob.tenantId, namespace: 'acme', pack: 'tools' })).secrets).toEqual({});
      // A sealed value copied into another tenant's row does not open there.
      const adaRow = rows.find((row) => row.tenantId === ada.tenantId)!;
      await db.database.db.insert(secrets).values({ ...adaRow, tenantId: bob.tenantId });
      expect((await service.secrets.resolve({ tenantId: bob.tenantId, namespace: 'acme', pack: 'tools' }))).toEqual({});
    });

    it('refuses malformed names, packs and values, and more than the limit per pack', async () => {
      const me = caller();
      expectError(await call('/secrets/acme/tools/api_token', { method: 'PUT', as: me, body: { value } }), 400, 'VALIDATION_FAILED', 'name');
      expectError(await call('/secrets/@acme/tools/API_TOKEN', { method: 'PUT', as: me, body: { value } }), 400, 'VALIDATION_FAILED', 'namespace');
      expectError(await call('/secrets/acme/Tools', { as: me }), 400, 'VALIDATION_FAILED', 'pack');
      expectError(await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, body: { value: '' } }), 400, 'VALIDATION_FAILED', 'value');
      expectError(await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, body: { value: 'x'.repeat(SECRET_VALUE_MAX_BYTES + 1) } }), 400, 'VALIDATION_FAILED', 'value');
      expect((await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, body: { value: 'x'.repeat(SECRET_VALUE_MAX_BYTES) } })).status).toBe(201);
      for (let i = 1; i < SECRETS_PER_PACK_MAX; i += 1) expect((await call(`/secrets/acme/tools/S${i}`, { method: 'PUT', as: me, body: { value } })).status).toBe(201);
      const over = await call('/secrets/acme/tools/ONE_TOO_MANY', { method: 'PUT', as: me, body: { value } });
      expectError(over, 400, 'VALIDATION_FAILED');
      expect(over.body.error.details.reason).toBe('secrets_limit');
      expect((await call('/secrets/acme/tools/S1', { method: 'PUT', as: me, body: { value: 'replacing is fine' } })).status).toBe(200);
    });

    it('never sends a refused value back: no error body of a refused write carries any of it', async () => {
      const me = caller();
      const secret = `hunter2-${randomUUID()}`;
      const refusals = [
        await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, body: { value: `${secret}\u0000` } }),
        await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, body: { value: secret, note: 'extra' } }),
        await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, body: { value: [secret] } }),
        await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, body: secret }),
        await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, raw: `{"value": ${secret}}` }),
        await call('/secrets/acme/tools/API_TOKEN', { method: 'PUT', as: me, raw: `{"value": "${secret}" "again"}` }),
        await call('/secrets/acme/tools/not-a-name', { method: 'PUT', as: me, body: { value: secret } }),
      ];
      for (const reply of refusals) {
        expect(reply.status, JSON.stringify(reply.body)).toBe(400);
        expect(JSON.stringify(reply.body)).not.toContain('hunter2');
      }
      expect((await call('/secrets/acme/tools', { as: me })).body.data.secrets).toEqual([]);
    });
  });
});
