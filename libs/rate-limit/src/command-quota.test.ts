import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createCache, deleteCachePrefix, type Cache } from '@svc/cache';
import { CommandRunQuota } from './command-quota.js';
import { consumeAll, createLimiter, type LimitStorage } from './limiter.js';

async function ready(cache: Cache): Promise<Cache> {
  // Until its connection is ready a Redis limiter counts in memory; these tests are about Redis.
  for (let i = 0; i < 200 && !(await cache.healthy()); i += 1) await new Promise((r) => setTimeout(r, 25));
  return cache;
}

const KINDS: { name: string; storage: LimitStorage; url?: string }[] = [{ name: 'memory', storage: 'memory' }];
if (process.env.REDIS_URL) KINDS.push({ name: 'redis', storage: 'redis', url: process.env.REDIS_URL });

describe.each(KINDS)('command-run quota on $name counters', (kind) => {
  const prefix = `test-quota-${randomUUID().slice(0, 8)}:`;
  const caches: Cache[] = [];
  const open = async () => {
    const cache = await ready(createCache({ url: kind.url, prefix }));
    caches.push(cache);
    return cache;
  };

  afterAll(async () => {
    await Promise.all(caches.map((c) => c.close()));
    if (kind.url) await deleteCachePrefix(kind.url, prefix);
  });

  it('gives a free user 5 runs an hour and refuses the 6th until the hour is over', async () => {
    const quota = new CommandRunQuota(await open(), kind.storage);
    const caller = { userId: randomUUID(), tier: 'free' as const };
    const runs = [];
    for (let i = 0; i < 6; i += 1) runs.push(await quota.take(caller));
    expect(runs.map((r) => r!.rejected)).toEqual([false, false, false, false, false, true]);
    expect(runs.map((r) => r!.limit)).toEqual([5, 5, 5, 5, 5, 5]);
    expect(runs[4]!.state.remainingPoints).toBe(0);
    expect(runs[5]!.state.msBeforeNext).toBeGreaterThan(3_500_000);
    expect(await quota.take({ userId: randomUUID(), tier: 'free' })).toMatchObject({ rejected: false });
  });

  it('leaves the other tiers unlimited', async () => {
    const quota = new CommandRunQuota(await open(), kind.storage);
    for (const tier of ['developer_preview', 'pro', 'enterprise'] as const) {
      expect(quota.checkFor({ userId: 'u', tier })).toBeUndefined();
      expect(await quota.take({ userId: 'u', tier })).toBeUndefined();
    }
  });

  it('lets everything through when rate limits are off', async () => {
    const quota = new CommandRunQuota(await open(), kind.storage, false);
    expect(await quota.take({ userId: 'u', tier: 'free' })).toBeUndefined();
  });

  it('shares one budget between the gateway and the MCP endpoint', async () => {
    // Same cache object (one process, as in the standalone fleet), and for Redis also a second connection.
    const cache = await open();
    const gateway = new CommandRunQuota(cache, kind.storage);
    const mcp = new CommandRunQuota(kind.url ? await open() : cache, kind.storage);
    const caller = { userId: randomUUID(), tier: 'free' as const };
    for (let i = 0; i < 5; i += 1) expect((await (i % 2 ? gateway : mcp).take(caller))!.rejected).toBe(false);
    expect((await gateway.take(caller))!.rejected).toBe(true);
    expect((await mcp.take(caller))!.rejected).toBe(true);
  });
});

describe('createLimiter', () => {
  it('keeps limiters of different sizes apart even under one name', async () => {
    const cache = createCache();
    const small = createLimiter({ name: 'x', points: 1, durationSeconds: 60 }, cache, 'memory');
    const large = createLimiter({ name: 'x', points: 3, durationSeconds: 60 }, cache, 'memory');
    expect((await consumeAll([{ limiter: small, key: 'k' }, { limiter: large, key: 'k' }])).map((r) => r.rejected)).toEqual([false, false]);
    expect((await consumeAll([{ limiter: small, key: 'k' }, { limiter: large, key: 'k' }])).map((r) => r.rejected)).toEqual([true, false]);
    await cache.close();
  });

  it('keeps processes of separate caches apart without Redis', async () => {
    const [a, b] = [createCache(), createCache()];
    const spec = { name: 'y', points: 1, durationSeconds: 60 };
    expect((await consumeAll([{ limiter: createLimiter(spec, a, 'memory'), key: 'k' }]))[0]!.rejected).toBe(false);
    expect((await consumeAll([{ limiter: createLimiter(spec, b, 'memory'), key: 'k' }]))[0]!.rejected).toBe(false);
    expect((await consumeAll([{ limiter: createLimiter(spec, a, 'memory'), key: 'k' }]))[0]!.rejected).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });
});
