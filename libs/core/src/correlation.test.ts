import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correlationMiddleware, currentCorrelationId } from './correlation.js';

/** An outer app handing every request to an inner one in the same process, as the standalone's gateway does. */
function nestedApps(): express.Express {
  const inner = express();
  inner.use(correlationMiddleware());
  inner.get('/id', async (req, res) => {
    // A wait, so that concurrent requests interleave.
    await new Promise((resolve) => setTimeout(resolve, Number(req.query.wait ?? 0)));
    res.json({ context: currentCorrelationId() ?? null, header: req.headers['x-request-id'] ?? null });
  });
  const outer = express();
  outer.use(correlationMiddleware());
  outer.use((req, res, next) => inner(req, res, next));
  return outer;
}

describe('the correlation id', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const listening = nestedApps().listen(0, '127.0.0.1', () => resolve(listening));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ask = async (headers: Record<string, string> = {}, wait = 0) => {
    const reply = await fetch(`${url}/id?wait=${wait}`, { headers });
    return { echoed: reply.headers.get('x-request-id'), ...((await reply.json()) as { context: string | null; header: string | null }) };
  };

  it("keeps a client's sane id through both apps and echoes it once", async () => {
    const seen = await ask({ 'x-request-id': 'client-42.a:b' });
    expect(seen).toEqual({ echoed: 'client-42.a:b', context: 'client-42.a:b', header: 'client-42.a:b' });
  });

  it('gives a request without one, or with one that is not a sane token, a fresh UUID', async () => {
    const given: Record<string, string>[] = [{}, { 'x-request-id': 'spaces are not allowed' }, { 'x-request-id': 'x'.repeat(129) }];
    for (const headers of given) {
      const seen = await ask(headers);
      expect(seen.echoed).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen.context).toBe(seen.echoed);
      expect(seen.header).toBe(seen.echoed);
    }
  });

  it('keeps concurrent requests apart', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `request-${i}`);
    const seen = await Promise.all(ids.map((id, i) => ask({ 'x-request-id': id }, (i * 7) % 15)));
    expect(seen.map((s) => s.context)).toEqual(ids);
    expect(seen.map((s) => s.echoed)).toEqual(ids);
  });
});
