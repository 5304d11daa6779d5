import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Identity, Tier } from '@svc/auth';
import { startTcpProxy } from '@svc/testing';
import { createCache, deleteCachePrefix, type Cache } from '@svc/cache';
import { createLogger, errorHandler } from '@svc/core';
import { findRoute } from '../routing/route-table.js';
import { DEFAULT_COMMAND_GROUP_LIMIT, type CommandGroupLimit } from './limits.js';
import { createRequestLimits, type RequestLimits } from './request-limits.js';

const log = createLogger({ service: 'test', silent: true });

interface Hit {
  method?: string;
  user?: string;
  tier?: Tier;
  ip?: string;
}

/**
 * The gateway's chain in miniature: the route table, the per-IP limit, a stand-in for
 * authentication (the caller named by test headers), the per-user limits, then "the service".
 */
async function serve(limits: RequestLimits) {
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use((req, res, next) => {
    res.locals.route = findRoute(req.method, req.path);
    const user = req.header('x-test-user');
    if (user) req.identity = { userId: user, tier: req.header('x-test-tier') as Tier } as Identity;
    next();
  });
  app.use(limits.perClientIp, limits.perUser, (_req, res) => {
    res.json({ data: 'served' });
  });
  app.use(errorHandler(log));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hit = async (path: string, options: Hit = {}) => {
    const headers: Record<string, string> = {};
    if (options.user) Object.assign(headers, { 'x-test-user': options.user, 'x-test-tier': options.tier ?? 'free' });
    if (options.ip) headers['x-forwarded-for'] = options.ip;
    const res = await fetch(`${base}${path}`, { method: options.method ?? 'GET', headers });
    const limit = (name: string) => (res.headers.has(name) ? Number(res.headers.get(name)) : undefined);
    return {
      status: res.status,
      body: (await res.json()) as any,
      limit: limit('x-ratelimit-limit'),
      remaining: limit('x-ratelimit-remaining'),
      reset: limit('x-ratelimit-reset'),
      retryAfter: limit('retry-after'),
    };
  };
  return { hit, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function hitTimes(hit: Awaited<ReturnType<typeof serve>>['hit'], times: number, path: string, options: Hit) {
  const replies = [];
  for (let i = 0; i < times; i += 1) replies.push(await hit(path, options));
  return replies;
}

const user = () => `user-${randomUUID()}`;

interface Kind {
  name: string;
  storage: 'redis' | 'memory';
  cache(prefix: string, url?: string): Cache;
}

const KINDS: Kind[] = [{ name: 'memory', storage: 'memory', cache: () => createCache() }];
if (process.env.REDIS_URL) KINDS.push({ name: 'redis', storage: 'redis', cache: (prefix, url = process.env.REDIS_URL) => createCache({ url, prefix }) });

describe.each(KINDS)('request limits on $name counters', (kind) => {
  const prefix = `test-rl-${randomUUID().slice(0, 8)}:`;
  const opened: { close(): Promise<void> }[] = [];

  async function start(options: { commandGroup?: CommandGroupLimit; enabled?: boolean; cache?: Cache } = {}) {
    const cache = options.cache ?? kind.cache(prefix);
    // Until its connection is ready a limiter counts in memory; these tests are about Redis.
    await waitFor(() => cache.healthy());
    const limits = createRequestLimits({ enabled: options.enabled ?? true, cache, storage: kind.storage, commandGroup: options.commandGroup ?? DEFAULT_COMMAND_GROUP_LIMIT });
    const app = await serve(limits);
    opened.push(app, cache);
    return { ...app, limits };
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((o) => o.close()));
  });
  afterAll(async () => {
    if (kind.storage === 'redis') await deleteCachePrefix(process.env.REDIS_URL!, prefix);
  });

  it('lets a free user make 10 requests a minute and refuses the 11th with 429, Retry-After and the RATE_LIMITED body', async () => {
    const { hit } = await start();
    const caller = { user: user(), tier: 'free' as const };
    const allowed = await hitTimes(hit, 10, '/api/v1/auth/me', caller);
    expect(allowed.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(allowed.map((r) => r.limit)).toEqual(Array(10).fill(10));
    expect(allowed.map((r) => r.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(allowed[0]!.retryAfter).toBeUndefined();

    const refused = await hit('/api/v1/auth/me', caller);
    expect(refused.status).toBe(429);
    expect(refused.limit).toBe(10);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    const nowSeconds = Date.now() / 1000;
    expect(refused.reset).toBeGreaterThan(nowSeconds);
    expect(refused.reset).toBeLessThanOrEqual(Math.ceil(nowSeconds) + 60);
    expect(refused.body).toMatchObject({ success: false, error: { type: 'RateLimitError', code: 'RATE_LIMITED', retry_after: refused.retryAfter } });
    expect(typeof refused.body.error.correlation_id).toBe('string');
  });

  it.each([
    ['developer_preview', 60],
    ['pro', 300],
    ['enterprise', 1000],
  ] as const)('gives the %s tier %i requests a minute on ordinary endpoints', async (tier, perMinute) => {
    const { hit } = await start();
    const reply = await hit('/api/v1/users/me', { user: user(), tier });
    expect(reply.status).toBe(200);
    expect(reply.limit).toBe(perMinute);
    expect(reply.remaining).toBe(perMinute - 1);
  });

  it('lets the stricter of the tier and the endpoint group govern', async () => {
    const { hit } = await start();
    expect((await hit('/api/v1/storage/k', { user: user(), tier: 'pro' })).limit).toBe(200);
    expect((await hit('/api/v1/storage/k', { user: user(), tier: 'free' })).limit).toBe(10);
    expect((await hit('/api/v1/commands', { user: user(), tier: 'enterprise' })).limit).toBe(100);
    expect((await hit('/api/v1/commands', { user: user(), tier: 'developer_preview' })).limit).toBe(60);
  });

  it("refuses a pro user's 201st storage request in a minute while other endpoints still answer", async () => {
    const { hit } = await start();
    const caller = { user: user(), tier: 'pro' as const };
    const replies = await hitTimes(hit, 200, '/api/v1/storage/k', caller);
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(replies.at(-1)!.remaining).toBe(0);
    const refused = await hit('/api/v1/storage', caller);
    expect(refused.status).toBe(429);
    expect(refused.limit).toBe(200);

    // The tier budget (300) has 99 left, now the most constrained limit on other endpoints.
    const elsewhere = await hit('/api/v1/auth/me', caller);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere).toMatchObject({ limit: 300, remaining: 98 });
  });

  it('counts command runs per hour for free users: 5, then 429 until the hour is over', async () => {
    const { hit } = await start();
    const caller = { user: user(), tier: 'free' as const };
    const runs = await hitTimes(hit, 5, '/api/v1/commands/acme/hello', { ...caller, method: 'POST' });
    expect(runs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(runs.map((r) => r.limit)).toEqual([5, 5, 5, 5, 5]);
    expect(runs.map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0]);

    const refused = await hit('/api/v1/commands/acme/hello', { ...caller, method: 'POST' });
    expect(refused.status).toBe(429);
    expect(refused.limit).toBe(5);
    expect(refused.retryAfter).toBeGreaterThan(3500);
    expect(refused.retryAfter).toBeLessThanOrEqual(3600);

    // Reading a command is not a run; the per-minute budget (10) still has 3 left.
    const detail = await hit('/api/v1/commands/acme/hello', caller);
    expect(detail).toMatchObject({ status: 200, limit: 10, remaining: 3 });
  });

  it('does not spend a command run on a request refused per minute', async () => {
    const { hit, limits } = await start();
    const caller = { user: user(), tier: 'free' as const };
    await hitTimes(hit, 10, '/api/v1/auth/me', caller);
    expect((await hit('/api/v1/commands/acme/hello', { ...caller, method: 'POST' })).status).toBe(429);
    const runs = limits.commandRuns.checkFor({ userId: caller.user, tier: 'free' })!;
    expect(await runs.limiter.get(runs.key)).toBeNull();
  });

  it('gives other tiers unlimited command runs, within the commands group', async () => {
    const { hit, limits } = await start();
    const reply = await hit('/api/v1/commands/acme/hello', { user: user(), tier: 'developer_preview', method: 'POST' });
    expect(reply).toMatchObject({ status: 200, limit: 60, remaining: 59 });
    expect(limits.commandRuns.checkFor({ userId: 'x', tier: 'pro' })).toBeUndefined();
    expect(await limits.commandRuns.take({ userId: 'x', tier: 'enterprise' })).toBeUndefined();
  });

  it('sizes the commands group by RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW', async () => {
    const { hit } = await start({ commandGroup: { points: 3, durationSeconds: 2 } });
    const caller = { user: user(), tier: 'enterprise' as const };
    const replies = await hitTimes(hit, 4, '/api/v1/commands', caller);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(replies[3]!.limit).toBe(3);
    expect(replies[3]!.retryAfter).toBeLessThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await hit('/api/v1/commands', caller)).status).toBe(200);
  });

  it('keeps the budgets of different users apart', async () => {
    const { hit } = await start();
    const first = { user: user(), tier: 'free' as const };
    await hitTimes(hit, 11, '/api/v1/auth/me', first);
    expect((await hit('/api/v1/auth/me', first)).status).toBe(429);
    expect((await hit('/api/v1/auth/me', { user: user(), tier: 'free' })).status).toBe(200);
  });

  it('limits public endpoints per client IP, each address with a budget of its own', async () => {
    const { hit } = await start();
    const register = (ip: string) => hit('/api/v1/auth/register', { method: 'POST', ip });
    const replies = [];
    for (let i = 0; i < 11; i += 1) replies.push(await register('203.0.113.7'));
    expect(replies.slice(0, 10).every((r) => r.status === 200 && r.limit === 10)).toBe(true);
    expect(replies[10]).toMatchObject({ status: 429, limit: 10, remaining: 0 });
    expect(replies[10]!.body.error.code).toBe('RATE_LIMITED');
    expect((await register('203.0.113.8')).status).toBe(200);

    // Sign-in has its own, larger budget on the same address.
    expect(await hit('/api/v1/auth/login', { method: 'POST', ip: '203.0.113.7' })).toMatchObject({ status: 200, limit: 30 });
    expect(await hit('/api/v1/telemetry', { method: 'POST', ip: '203.0.113.7' })).toMatchObject({ status: 200, limit: 60 });
  });

  it('lets everything through without headers when rate limits are off', async () => {
    const { hit, limits } = await start({ enabled: false });
    const replies = await hitTimes(hit, 12, '/api/v1/auth/me', { user: user(), tier: 'free' });
    expect(replies.every((r) => r.status === 200 && r.limit === undefined)).toBe(true);
    expect(await limits.commandRuns.take({ userId: 'x', tier: 'free' })).toBeUndefined();
  });

  // Sharing needs a shared store: these two only mean something on Redis.
  if (kind.storage !== 'redis') return;

  it('shares one budget between two gateways on the same Redis', async () => {
    const a = await start({ cache: kind.cache(prefix) });
    const b = await start({ cache: kind.cache(prefix) });
    const caller = { user: user(), tier: 'free' as const };
    const replies = [];
    for (let i = 0; i < 10; i += 1) replies.push(await (i % 2 === 0 ? a : b).hit('/api/v1/auth/me', caller));
    expect(replies.map((r) => r.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect((await a.hit('/api/v1/auth/me', caller)).status).toBe(429);
    expect((await b.hit('/api/v1/auth/me', caller)).status).toBe(429);
  });

  it('keeps limiting on its memory limiter while Redis is away, and shares again when it is back', async () => {
    const target = new URL(process.env.REDIS_URL!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    opened.push(proxy);
    const through = new URL(process.env.REDIS_URL!);
    through.host = `127.0.0.1:${proxy.port}`;
    const cache = kind.cache(prefix, through.toString());
    const { hit } = await start({ cache });
    const caller = { user: user(), tier: 'free' as const };
    expect(await hit('/api/v1/auth/me', caller)).toMatchObject({ status: 200, remaining: 9 });

    proxy.cut();
    await waitFor(async () => !(await cache.healthy()));
    const away = await hitTimes(hit, 11, '/api/v1/auth/me', caller);
    expect(away.slice(0, 10).every((r) => r.status === 200 && r.limit === 10)).toBe(true);
    expect(away[10]!.status).toBe(429);

    proxy.resume();
    await waitFor(() => cache.healthy());
    // Back on Redis, which counted only the first request.
    expect(await hit('/api/v1/auth/me', caller)).toMatchObject({ status: 200, remaining: 8 });
  });
});

async function waitFor(condition: () => Promise<boolean>, withinMs = 10_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
