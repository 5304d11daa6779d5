import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_IDENTITY_HEADER, internalIdentity, signInternalIdentity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { handTo } from './hand-over.js';

const SECRET = 'hand-over-test-secret-of-enough-length';
const caller = personalIdentity({ userId: '00000000-0000-4000-8000-000000000001', tenantId: '00000000-0000-4000-8000-000000000002', slug: 'caller' });

/** A gateway in miniature (a test header names the authenticated caller) in front of a service app in the same process. */
function gatewayWithService(): express.Express {
  const service = express();
  service.use(internalIdentity(SECRET));
  service.get('/whoami', (req, res) => {
    res.json({ userId: req.identity?.userId ?? null, header: req.headers[INTERNAL_IDENTITY_HEADER] ?? null });
  });
  const gateway = express();
  gateway.use((req, _res, next) => {
    if (req.header('x-test-signed-in')) req.identity = caller;
    next();
  });
  gateway.use(handTo(service, (identity) => signInternalIdentity(identity, SECRET)));
  return gateway;
}

describe('handing a request to a service in this process', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const listening = gatewayWithService().listen(0, '127.0.0.1', () => resolve(listening));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("replaces a client's internal header with the gateway's signed identity", async () => {
    const reply = await fetch(`${url}/whoami`, { headers: { 'x-test-signed-in': '1', [INTERNAL_IDENTITY_HEADER]: 'forged' } });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { userId: string | null; header: string | null };
    expect(body.userId).toBe(caller.userId);
    expect(body.header).not.toBe('forged');
  });

  it('removes the internal header when nobody signed in', async () => {
    const forged = signInternalIdentity(caller, 'some-other-secret-of-enough-length');
    const reply = await fetch(`${url}/whoami`, { headers: { [INTERNAL_IDENTITY_HEADER]: forged } });
    expect(await reply.json()).toEqual({ userId: null, header: null });
  });
});
