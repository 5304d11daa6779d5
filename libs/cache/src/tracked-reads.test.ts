import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from '@svc/testing';
import { createCache, deleteCachePrefix } from './cache.js';
import { trackedReads } from './tracked-reads.js';

const OPTIONS = { maxEntries: 100, ttlSeconds: 60 };

/** Reads until `expected` comes back: Redis's notice of a change travels on its own. */
async function readsSoon(read: () => Promise<string | null>, expected: string | null): Promise<void> {
  const until = Date.now() + 2000;
  let last = await read();
  while (last !== expected && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 5));
    last = await read();
  }
  expect(last).toBe(expected);
}

describe('tracked reads on the memory cache', () => {
  it('are the cache’s own reads', async () => {
    const cache = createCache();
    const reads = trackedReads(cache, { ...OPTIONS, name: 'unused' });
    await cache.set('k', 'v1');
    expect(await reads.get('k')).toBe('v1');
    await cache.del('k');
    expect(await reads.get('k')).toBeNull();
    reads.forget('k');
    await reads.close();
    await cache.close();
  });
});

describe.runIf(process.env.REDIS_URL)('tracked reads on Redis', () => {
  const url = process.env.REDIS_URL!;
  const prefix = `test-${randomUUID().slice(0, 8)}:`;
  const name = `tracked-${randomUUID().slice(0, 8)}`;
  const cache = createCache({ url, prefix });
  const reads = trackedReads(cache, { ...OPTIONS, name });
  const connection = async () => ((await cache.redis!.client('LIST')) as string).split('\n').find((line) => line.includes(` name=${name} `));

  beforeAll(async () => {
    // Both connections fail fast rather than queue: wait until they are up.
    while (!(await cache.healthy())) await new Promise((r) => setTimeout(r, 20));
    await readsSoon(() => reads.get('absent').catch(() => 'not connected yet'), null);
  });

  afterAll(async () => {
    await reads.close();
    await cache.close();
    await deleteCachePrefix(url, prefix);
  });

  it('read the cache’s keys, under its prefix, on a connection Redis tracks', async () => {
    await cache.set('k', 'v1');
    expect(await reads.get('k')).toBe('v1');
    // flags=t: Redis tells this connection of every change to the keys it read.
    expect(await connection()).toMatch(/ flags=\S*t\S* .* resp=3/);
  });

  it('see a change or a delete made by another client', async () => {
    await cache.set('changing', 'v1');
    expect(await reads.get('changing')).toBe('v1');
    await cache.set('changing', 'v2');
    await readsSoon(() => reads.get('changing'), 'v2');
    await cache.del('changing');
    await readsSoon(() => reads.get('changing'), null);
  });

  it('see an expiry', async () => {
    await cache.set('expiring', 'v1', 1);
    expect(await reads.get('expiring')).toBe('v1');
    await new Promise((r) => setTimeout(r, 1100));
    await readsSoon(() => reads.get('expiring'), null);
  });

  it('keep nothing from before a lost connection: a change made while it was down is seen', async () => {
    await cache.set('during-outage', 'v1');
    expect(await reads.get('during-outage')).toBe('v1');
    const id = /\bid=(\d+)/.exec((await connection())!)![1]!;
    await cache.redis!.client('KILL', 'ID', id);
    // No notice reaches a dropped connection: only forgetting everything keeps this honest.
    await cache.set('during-outage', 'v2');
    await readsSoon(() => reads.get('during-outage').catch(() => 'reconnecting'), 'v2');
  });

  it('answer a held key while Redis stalls, and fail a read that has to wait for it', async () => {
    const { hostname, port } = new URL(url);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    const stalling = trackedReads({ ...cache, url: `redis://127.0.0.1:${proxy.port}` }, { ...OPTIONS, name: `${name}-stalling`, commandTimeoutMs: 200 });
    try {
      await readsSoon(() => stalling.get('absent').catch(() => 'not connected yet'), null);
      await cache.set('held', 'v1');
      expect(await stalling.get('held')).toBe('v1');
      proxy.hold();
      expect(await stalling.get('held')).toBe('v1');
      await expect(stalling.get('never-read')).rejects.toThrow(/did not answer within 200 ms/);
      proxy.release();
      await readsSoon(() => stalling.get('never-read').catch(() => 'stalled'), null);
    } finally {
      await stalling.close();
      await proxy.close();
    }
  });

  it('ask Redis again for a key forgotten here, even before Redis tells of its change', async () => {
    const { hostname, port } = new URL(url);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    const delayed = trackedReads({ ...cache, url: `redis://127.0.0.1:${proxy.port}` }, { ...OPTIONS, name: `${name}-delayed` });
    try {
      await readsSoon(() => delayed.get('absent').catch(() => 'not connected yet'), null);
      await cache.set('mine', 'v1');
      expect(await delayed.get('mine')).toBe('v1');
      // Redis's notice of the change is held on the way: the copy here still answers v1.
      proxy.hold();
      await cache.set('mine', 'v2');
      expect(await delayed.get('mine')).toBe('v1');
      delayed.forget('mine');
      let answer: string | null | undefined;
      const read = delayed.get('mine').then((value) => (answer = value));
      await new Promise((r) => setTimeout(r, 50));
      expect(answer).toBeUndefined();
      proxy.release();
      await read;
      expect(answer).toBe('v2');
    } finally {
      await delayed.close();
      await proxy.close();
    }
  });

  it('fail at once while Redis is unreachable', async () => {
    const away = createCache({ url: 'redis://127.0.0.1:1', prefix });
    const unreachable = trackedReads(away, { ...OPTIONS, name: 'unreachable' });
    await expect(unreachable.get('k')).rejects.toThrow();
    await unreachable.close();
    await away.close();
  });
});
