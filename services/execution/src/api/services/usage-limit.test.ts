import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@svc/bus/testing';
import { createCache, deleteCachePrefix, type Cache } from '@svc/cache';
import { usageLimitKey } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { UsageLimitGate } from './usage-limit.js';

const log = createLogger({ service: 'test', silent: true });
const REFUSED = { status: 429, code: 'USAGE_LIMIT_EXCEEDED', details: { metric: 'commands_per_month', reason: 'usage-limit-exceeded' } };

/** Waits until the gate lets `tenant` run, or refuses it (`expected` false), for up to 2 s: Redis's notice of a change travels on its own. */
const admitsSoon = (gate: UsageLimitGate, tenant: string, expected: boolean) =>
  waitFor(async () => (await gate.assertWithin(tenant).then(() => true, () => false)) === expected, `${tenant} ${expected ? 'admitted' : 'refused'}`, 2000);

describe('the usage limit gate', () => {
  it('refuses a flagged tenant with USAGE_LIMIT_EXCEEDED (429) and lets the others run', async () => {
    const cache = createCache({});
    await cache.set(usageLimitKey('held'), 'commands_per_month', 60);
    const gate = new UsageLimitGate(cache, log);
    await expect(gate.assertWithin('held')).rejects.toMatchObject(REFUSED);
    await expect(gate.assertWithin('free-to-run')).resolves.toBeUndefined();
    await gate.close();
  });

  it('lets runs through when the cache cannot answer', async () => {
    const broken = { get: () => Promise.reject(new Error('connection refused')) } as unknown as Cache;
    await expect(new UsageLimitGate(broken, log).assertWithin('any')).resolves.toBeUndefined();
  });
});

describe.runIf(process.env.REDIS_URL)('the usage limit gate on Redis', () => {
  const url = process.env.REDIS_URL!;
  const prefix = `test-${randomUUID().slice(0, 8)}:`;
  const cache = createCache({ url, prefix });
  const gate = new UsageLimitGate(cache, log);

  beforeAll(async () => {
    while (!(await cache.healthy())) await new Promise((r) => setTimeout(r, 20));
  });

  afterAll(async () => {
    await gate.close();
    await cache.close();
    await deleteCachePrefix(url, prefix);
  });

  it('sees a flag set and cleared after the tenant ran, though it keeps a copy of the answer', async () => {
    await admitsSoon(gate, 'tenant-a', true);
    await cache.set(usageLimitKey('tenant-a'), 'commands_per_month', 60);
    await admitsSoon(gate, 'tenant-a', false);
    await expect(gate.assertWithin('tenant-a')).rejects.toMatchObject(REFUSED);
    await cache.del(usageLimitKey('tenant-a'));
    await admitsSoon(gate, 'tenant-a', true);
    await expect(gate.assertWithin('tenant-b')).resolves.toBeUndefined();
  });

  it('asks the cache itself while its own copy cannot be read', async () => {
    // The tracked reads connect to a port nothing listens on; the cache's own reads work.
    const gateWithoutCopy = new UsageLimitGate({ ...cache, url: 'redis://127.0.0.1:9' }, log);
    await cache.set(usageLimitKey('tenant-c'), 'commands_per_month', 60);
    await expect(gateWithoutCopy.assertWithin('tenant-c')).rejects.toMatchObject(REFUSED);
    await expect(gateWithoutCopy.assertWithin('tenant-d')).resolves.toBeUndefined();
    await gateWithoutCopy.close();
  });
});
