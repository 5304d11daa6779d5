import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createCache, deleteCachePrefix, type Cache } from './cache.js';

function cacheContract(name: string, make: () => Cache) {
  describe(name, () => {
    const cache = make();
    afterAll(() => cache.close());

    it('round-trips values and deletes them', async () => {
      await cache.set('a', '1');
      await cache.set('b', '2');
      expect(await cache.mget(['a', 'b', 'missing'])).toEqual(['1', '2', null]);
      await cache.del('a', 'b');
      expect(await cache.get('a')).toBeNull();
    });

    it('expires values after their ttl', async () => {
      await cache.set('short', 'x', 1);
      expect(await cache.get('short')).toBe('x');
      await new Promise((r) => setTimeout(r, 1100));
      expect(await cache.get('short')).toBeNull();
    });

    it('reports healthy', async () => {
      expect(await cache.healthy()).toBe(true);
    });
  });
}

cacheContract('memory cache', () => createCache());

describe.runIf(process.env.REDIS_URL)('redis', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}:`;
  afterAll(async () => {
    await deleteCachePrefix(process.env.REDIS_URL!, prefix);
  });
  cacheContract('redis cache', () => createCache({ url: process.env.REDIS_URL!, prefix }));

  it('fails fast and reports unhealthy when Redis is unreachable', async () => {
    const cache = createCache({ url: 'redis://127.0.0.1:1', prefix });
    await expect(cache.get('x')).rejects.toThrow();
    expect(await cache.healthy()).toBe(false);
    await cache.close();
  });
});
