import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalIdentity, signAccessToken, signPrincipalEntry } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, type Bus } from '@svc/bus';
import { createCache, deleteCachePrefix, type Cache } from '@svc/cache';
import { principalCacheKey } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { closeServer, listen } from '@svc/platform';
import { startTcpProxy, type TcpProxy } from '@svc/testing';
import { createGateway, type Gateway } from '../app.js';
import { testGatewaySettings } from '../testing/test-gateway.js';

const SECRET = 'own-changes-secret-0123456789abcdef0123';
const log = createLogger({ service: 'own-changes-test', level: 'error', silent: true });

/**
 * The gateway on real Redis, its reads of principals through a proxy that can hold back
 * Redis's notices, with identity and storage in miniature in its process: identity's one
 * route turns developer mode on (writing the principal as identity does), storage's says what
 * the gateway told it of the caller.
 */
describe.runIf(process.env.REDIS_URL)("a caller's own account change, seen by its next request", () => {
  const url = process.env.REDIS_URL!;
  const prefix = `test-${randomUUID().slice(0, 8)}:`;
  const sessionId = randomUUID();
  const caller = { ...personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'changer' }), sessionId };
  let direct: Cache;
  let proxied: Cache;
  let proxy: TcpProxy;
  let bus: Bus;
  let gateway: Gateway;
  let server: Server;
  let base: string;
  let token: string;

  /** The principal as identity writes it: signed for its key. */
  const signed = (identity: object) => signPrincipalEntry(SECRET, principalCacheKey(sessionId), JSON.stringify(identity));

  const whoami = async () => {
    const reply = await fetch(`${base}/api/v1/storage/whoami`, { headers: { authorization: `Bearer ${token}` } });
    return { status: reply.status, ...((await reply.json()) as { developerMode?: boolean }) };
  };

  beforeAll(async () => {
    direct = createCache({ url, prefix });
    const { hostname, port } = new URL(url);
    proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    proxied = createCache({ url: `redis://127.0.0.1:${proxy.port}`, prefix });
    bus = await createBus({ logger: log });
    const identity = express();
    identity.post('/api/v1/account/developer-mode', async (_req, res) => {
      await direct.set(principalCacheKey(sessionId), signed({ ...caller, developerMode: true }), 300);
      res.json({ success: true });
    });
    const storage = express();
    storage.use(internalIdentity(SECRET));
    storage.get('/api/v1/storage/whoami', (req, res) => {
      res.json({ developerMode: req.identity?.developerMode });
    });
    gateway = createGateway({ cache: proxied, bus, log, ...testGatewaySettings(SECRET), inProcess: { identity, storage } });
    server = await listen(gateway.app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    token = signAccessToken({ sub: caller.userId, sid: sessionId }, SECRET, 300).token;
    // The cache fails fast rather than queue: wait until it is connected.
    while (!(await direct.healthy())) await new Promise((r) => setTimeout(r, 20));
    await direct.set(principalCacheKey(sessionId), signed(caller), 300);
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    await gateway?.stop();
    await bus?.close();
    await proxied?.close();
    await proxy?.close();
    await direct?.close();
    await deleteCachePrefix(url, prefix);
  });

  it('even while Redis has not yet told the gateway of it', async () => {
    // The gateway's connection to Redis comes up on its own: read until the principal is held.
    const until = Date.now() + 5000;
    while ((await whoami()).status !== 200 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(await whoami()).toEqual({ status: 200, developerMode: false });

    proxy.hold();
    const changed = await fetch(`${base}/api/v1/account/developer-mode`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(changed.status).toBe(200);
    const next = whoami();
    setTimeout(() => proxy.release(), 50);
    expect(await next).toEqual({ status: 200, developerMode: true });
  });
});
