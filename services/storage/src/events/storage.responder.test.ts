import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bus } from '@svc/bus';
import { testBusKinds, type TestBus } from '@svc/bus/testing';
import { STORAGE_DELETE_RPC, STORAGE_GET_RPC, STORAGE_LIST_RPC, STORAGE_PUT_RPC, STORAGE_VALUE_MAX_BYTES } from '@svc/contracts';
import { AppError, createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { createStorageService, type StorageServiceHandle } from '../app.js';

type StorageRpc = typeof STORAGE_GET_RPC | typeof STORAGE_PUT_RPC | typeof STORAGE_DELETE_RPC | typeof STORAGE_LIST_RPC;

const log = createLogger({ service: 'test', silent: true });

// The real bus with the real database, the in-process bus with the embedded one.
const [pglite, postgres] = testDatabaseKinds();
const [inProcess, rabbit] = testBusKinds();
const PAIRS = [{ bus: inProcess!, database: pglite! }, ...(rabbit ? [{ bus: rabbit, database: postgres ?? pglite! }] : [])];

describe.each(PAIRS)('storage RPCs over the $bus.name bus', ({ bus: busKind, database }) => {
  let db: TestDatabase;
  let opened: TestBus;
  let bus: Bus;
  let service: StorageServiceHandle;
  // Bad requests on purpose, too: the payload is not held to the contract's type here.
  const ask = (rpc: StorageRpc, payload: object): Promise<any> => bus.request(rpc, payload as never, { timeoutMs: 5000 });

  beforeAll(async () => {
    db = await database.open();
    opened = await busKind.open();
    bus = opened.bus;
    service = createStorageService({ database: db.database, bus, log, config: { sweepIntervalSeconds: 3600, secretsKey: 'storage-test-secrets-key-0123456789abcdef' } });
    await service.start();
  });

  afterAll(async () => {
    await service?.stop();
    await opened?.dispose();
    await db?.dispose();
  });

  it('puts, gets, lists and deletes for a tenant', async () => {
    const tenantId = randomUUID();
    expect(await ask(STORAGE_PUT_RPC, { tenantId, key: 'runs:last', data: { at: 1 }, ttl: 3600 })).toMatchObject({ key: 'runs:last', created: true });
    expect(await ask(STORAGE_PUT_RPC, { tenantId, key: 'runs:last', data: { at: 2 } })).toEqual({ key: 'runs:last', created: false, expires_at: null });
    const { entry } = await ask(STORAGE_GET_RPC, { tenantId, key: 'runs:last' });
    expect(entry).toMatchObject({ key: 'runs:last', value: { at: 2 }, expires_at: null });
    expect(typeof entry.created_at).toBe('string');
    expect(await ask(STORAGE_LIST_RPC, { tenantId, prefix: 'runs:' })).toEqual({ keys: ['runs:last'], total: 1 });
    expect(await ask(STORAGE_DELETE_RPC, { tenantId, key: 'runs:last' })).toEqual({ deleted: true });
  });

  it('answers a missing key with a value, not an error', async () => {
    const tenantId = randomUUID();
    expect(await ask(STORAGE_GET_RPC, { tenantId, key: 'nothing' })).toEqual({ entry: null });
    expect(await ask(STORAGE_DELETE_RPC, { tenantId, key: 'nothing' })).toEqual({ deleted: false });
    expect(await ask(STORAGE_LIST_RPC, { tenantId })).toEqual({ keys: [], total: 0 });
  });

  it("never shows one tenant another's entries", async () => {
    const [one, two] = [randomUUID(), randomUUID()];
    await ask(STORAGE_PUT_RPC, { tenantId: one, key: 'secret', data: { v: 1 } });
    expect(await ask(STORAGE_GET_RPC, { tenantId: two, key: 'secret' })).toEqual({ entry: null });
    expect(await ask(STORAGE_LIST_RPC, { tenantId: two })).toEqual({ keys: [], total: 0 });
    expect(await ask(STORAGE_DELETE_RPC, { tenantId: two, key: 'secret' })).toEqual({ deleted: false });
    expect((await ask(STORAGE_GET_RPC, { tenantId: one, key: 'secret' })).entry.value).toEqual({ v: 1 });
  });

  it.each([
    ['a tenant id that is not a uuid', STORAGE_GET_RPC, { tenantId: 'acme', key: 'k' }, 'tenantId'],
    ['a missing tenant id', STORAGE_LIST_RPC, {}, 'tenantId'],
    ['a key with a slash', STORAGE_GET_RPC, { tenantId: randomUUID(), key: 'a/b' }, 'key'],
    ['the key ".." (which URL clients rewrite, so HTTP could never read it)', STORAGE_PUT_RPC, { tenantId: randomUUID(), key: '..', data: {} }, 'key'],
    ['a key of 257 characters', STORAGE_PUT_RPC, { tenantId: randomUUID(), key: 'k'.repeat(257), data: {} }, 'key'],
    ['data that is an array', STORAGE_PUT_RPC, { tenantId: randomUUID(), key: 'k', data: [1] }, 'data'],
    ['data over the size limit', STORAGE_PUT_RPC, { tenantId: randomUUID(), key: 'k', data: { v: 'x'.repeat(STORAGE_VALUE_MAX_BYTES) } }, 'data'],
    ['a ttl of zero', STORAGE_PUT_RPC, { tenantId: randomUUID(), key: 'k', data: {}, ttl: 0 }, 'ttl'],
    ['an unknown field', STORAGE_DELETE_RPC, { tenantId: randomUUID(), key: 'k', force: true }, 'storage.delete'],
    ['a list limit over 1000', STORAGE_LIST_RPC, { tenantId: randomUUID(), limit: 1001 }, 'limit'],
  ] as const)('refuses %s with VALIDATION_FAILED', async (_label, queue, payload, field) => {
    const failure = await ask(queue, payload).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect((failure as AppError).details.field).toBe(field);
  });
});
