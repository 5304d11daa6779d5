import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, ephemeralQueueName, type Bus } from '@svc/bus';
import type { EventPayload } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { createStorageService, type StorageServiceHandle } from '../app.js';

const log = createLogger({ service: 'test', silent: true });
const tenant = () => randomUUID();
const bytes = (key: string, data: unknown) => Buffer.byteLength(key) + Buffer.byteLength(JSON.stringify(data));

describe.each(testDatabaseKinds())('storage service on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let service: StorageServiceHandle;
  let offsetMs = 0;
  const events: EventPayload<'storage.changed'>[] = [];

  const storage = () => service.storage;
  const later = (seconds: number) => {
    offsetMs += seconds * 1000;
  };
  /** Events are published after the commit, asynchronously: wait for those of `tenantId` to settle. */
  async function usageEvents(tenantId: string, count: number) {
    const until = Date.now() + 5000;
    for (;;) {
      const mine = events.filter((e) => e.tenant_id === tenantId);
      if (mine.length >= count || Date.now() > until) return mine;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  beforeAll(async () => {
    db = await kind.open();
    bus = await createBus({ logger: log });
    await bus.subscribe(ephemeralQueueName('test.storage-usage'), ['storage.changed'], async (message) => {
      events.push(message.payload);
    }, { ephemeral: true });
    service = createStorageService({ database: db.database, bus, log, config: { sweepIntervalSeconds: 3600, secretsKey: 'storage-test-secrets-key-0123456789abcdef' }, clock: () => new Date(Date.now() + offsetMs) });
    await service.start();
  });

  afterAll(async () => {
    await service?.stop();
    await bus?.close();
    await db?.dispose();
  });

  it('creates an entry, reads it back and replaces it, keeping created_at', async () => {
    const t = tenant();
    const first = await storage().put(t, 'settings:theme', { color: 'dark' });
    expect(first).toEqual({ key: 'settings:theme', created: true, expires_at: null });
    const read = await storage().get(t, 'settings:theme');
    expect(read).toMatchObject({ key: 'settings:theme', value: { color: 'dark' }, expires_at: null });
    expect(Date.parse(read!.created_at)).toBeGreaterThan(Date.now() - 60_000);

    later(5);
    const second = await storage().put(t, 'settings:theme', { color: 'light', size: 2 });
    expect(second.created).toBe(false);
    const replaced = await storage().get(t, 'settings:theme');
    expect(replaced).toEqual({ key: 'settings:theme', value: { color: 'light', size: 2 }, created_at: read!.created_at, expires_at: null });
  });

  it('gives back a value exactly as written, keys in their order', async () => {
    const t = tenant();
    const value = { zeta: 1, alpha: { b: [1, 'two', null, true], a: 'x' }, 'ünï': 'cödé 🚀' };
    await storage().put(t, 'ordered', value);
    expect(JSON.stringify((await storage().get(t, 'ordered'))!.value)).toBe(JSON.stringify(value));
  });

  it('expires an entry after its ttl: gone from reads and lists, and a new write creates it again', async () => {
    const t = tenant();
    const written = await storage().put(t, 'session', { n: 1 }, 86_400);
    const expected = Date.now() + offsetMs + 86_400_000;
    expect(Math.abs(Date.parse(written.expires_at!) - expected)).toBeLessThan(5000);
    await storage().put(t, 'kept', { n: 2 });

    later(86_399);
    expect(await storage().get(t, 'session')).not.toBeNull();
    later(2);
    expect(await storage().get(t, 'session')).toBeNull();
    expect(await storage().list(t, { prefix: '', limit: 100 })).toEqual({ keys: ['kept'], total: 1 });
    expect(await storage().delete(t, 'session')).toBe(false);

    const again = await storage().put(t, 'kept', { n: 3 }, 60);
    expect(again.created).toBe(false);
    const recreated = await storage().put(t, 'session', { n: 4 });
    expect(recreated).toEqual({ key: 'session', created: true, expires_at: null });
  });

  it('deletes an entry once', async () => {
    const t = tenant();
    await storage().put(t, 'k', { a: 1 });
    expect(await storage().delete(t, 'k')).toBe(true);
    expect(await storage().get(t, 'k')).toBeNull();
    expect(await storage().delete(t, 'k')).toBe(false);
  });

  it('lists keys by prefix in byte order, with a limit, paging after a key, and the total', async () => {
    const t = tenant();
    for (const key of ['b:2', 'a:1', 'a:3', 'a:2', 'B:1', 'a:10', 'c']) await storage().put(t, key, {});
    expect(await storage().list(t, { prefix: '', limit: 100 })).toEqual({ keys: ['B:1', 'a:1', 'a:10', 'a:2', 'a:3', 'b:2', 'c'], total: 7 });
    expect(await storage().list(t, { prefix: 'a:', limit: 2 })).toEqual({ keys: ['a:1', 'a:10'], total: 4 });
    expect(await storage().list(t, { prefix: 'a:', limit: 2, after: 'a:10' })).toEqual({ keys: ['a:2', 'a:3'], total: 4 });
    expect(await storage().list(t, { prefix: 'a:', limit: 2, after: 'a:3' })).toEqual({ keys: [], total: 4 });
    expect(await storage().list(t, { prefix: 'zzz', limit: 100 })).toEqual({ keys: [], total: 0 });
  });

  it('treats "_" and "%" in a prefix as themselves', async () => {
    const t = tenant();
    await storage().put(t, 'a_b', {});
    await storage().put(t, 'axb', {});
    expect((await storage().list(t, { prefix: 'a_', limit: 10 })).keys).toEqual(['a_b']);
  });

  it('keeps tenants apart', async () => {
    const [one, two] = [tenant(), tenant()];
    await storage().put(one, 'shared-name', { owner: 'one' });
    await storage().put(two, 'shared-name', { owner: 'two' });
    expect((await storage().get(one, 'shared-name'))!.value).toEqual({ owner: 'one' });
    expect(await storage().delete(two, 'shared-name')).toBe(true);
    expect((await storage().get(one, 'shared-name'))!.value).toEqual({ owner: 'one' });
    expect(await storage().list(two, { prefix: '', limit: 10 })).toEqual({ keys: [], total: 0 });
  });

  it('answers reads made at once, which share one statement, each with the entry of its own tenant', async () => {
    const [one, two, none, expiring] = [tenant(), tenant(), tenant(), tenant()];
    await storage().put(one, 'same name', { owner: 'one' });
    await storage().put(two, 'same name', { owner: 'two' });
    await storage().put(one, `odd ,"{}\\' NULL key`, { odd: true });
    await storage().put(expiring, 'same name', { owner: 'expiring' }, 60);
    later(61);
    const reads = await Promise.all([
      storage().get(one, 'same name'),
      storage().get(two, 'same name'),
      storage().get(none, 'same name'),
      storage().get(expiring, 'same name'),
      storage().get(one, `odd ,"{}\\' NULL key`),
      storage().get(two, 'same name'),
      storage().get(one, 'Same name'),
      // A UUID is the same UUID in either case, as Postgres compares it.
      storage().get(one.toUpperCase(), 'same name'),
    ]);
    expect(reads.map((entry) => entry?.value ?? null)).toEqual([{ owner: 'one' }, { owner: 'two' }, null, null, { odd: true }, { owner: 'two' }, null, { owner: 'one' }]);
    expect(reads[0]).toMatchObject({ key: 'same name', expires_at: null });
  });

  it('publishes the tenant usage after every change, with a growing version', async () => {
    const t = tenant();
    await storage().put(t, 'one', { a: 'x' });
    await storage().put(t, 'two', { b: 'yy' });
    await storage().put(t, 'one', { a: 'longer value' });
    await storage().delete(t, 'two');
    expect(await storage().delete(t, 'two')).toBe(false);

    const seen = await usageEvents(t, 4);
    expect(seen.map((e) => e.version)).toEqual([1, 2, 3, 4]);
    expect(seen.map((e) => e.storage_keys)).toEqual([1, 2, 2, 1]);
    expect(seen.at(-1)).toEqual({ tenant_id: t, storage_bytes: bytes('one', { a: 'longer value' }), storage_keys: 1, version: 4 });
  });

  it('sweeps expired entries and publishes the usage that is left', async () => {
    const [t, other] = [tenant(), tenant()];
    await storage().put(t, 'short', { v: 'a' }, 10);
    await storage().put(t, 'long', { v: 'b' }, 1000);
    await storage().put(other, 'forever', { v: 'c' });
    later(11);
    expect(await storage().sweepExpired()).toBeGreaterThanOrEqual(1);
    expect(await storage().sweepExpired()).toBe(0);
    const seen = await usageEvents(t, 3);
    expect(seen.at(-1)).toMatchObject({ storage_keys: 1, storage_bytes: bytes('long', { v: 'b' }), version: 3 });
    expect((await storage().get(t, 'long'))!.value).toEqual({ v: 'b' });
    expect(await storage().get(other, 'forever')).not.toBeNull();
  });

  it('counts usage exactly under concurrent writes of one tenant', async () => {
    const t = tenant();
    await Promise.all(Array.from({ length: 12 }, (_, i) => storage().put(t, 'same', { i: i % 10 })));
    await Promise.all(Array.from({ length: 12 }, (_, i) => storage().put(t, `key-${i}`, { i })));
    await Promise.all(Array.from({ length: 6 }, (_, i) => storage().delete(t, `key-${i}`)));
    const seen = await usageEvents(t, 30);
    const last = seen.reduce((a, b) => (b.version > a.version ? b : a));
    expect(last.version).toBe(30);
    expect(last.storage_keys).toBe(7);
    const expectedBytes = bytes('same', { i: 0 }) + [6, 7, 8, 9, 10, 11].reduce((sum, i) => sum + bytes(`key-${i}`, { i }), 0);
    expect(last.storage_bytes).toBe(expectedBytes);
  });
});
