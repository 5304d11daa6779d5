import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSameOrigin } from './same-origin.js';

describe('requests the refresh cookie is honoured for', () => {
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  let base: string;
  let host: string;
  beforeAll(async () => {
    const app = express();
    app.post('/refresh', (req, res) => {
      try {
        requireSameOrigin(req);
        res.status(200).end();
      } catch (err) {
        res.status((err as { status: number }).status).json((err as { details: unknown }).details);
      }
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    base = `http://${host}`;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  const status = async (headers: Record<string, string>) => (await fetch(`${base}/refresh`, { method: 'POST', headers })).status;

  it('lets a page of the same origin, and clients that are no browser, through', async () => {
    expect(await status({ 'sec-fetch-site': 'same-origin', origin: base })).toBe(200);
    expect(await status({ 'sec-fetch-site': 'none' })).toBe(200);
    expect(await status({ origin: base })).toBe(200);
    expect(await status({})).toBe(200);
  });

  it('refuses a page of the same site on another port, another site, an opaque origin, whatever Origin says', async () => {
    const sameSite = `http://127.0.0.1:${Number(host.split(':')[1]) + 100}`;
    expect(await status({ 'sec-fetch-site': 'same-site', origin: sameSite })).toBe(403);
    expect(await status({ 'sec-fetch-site': 'same-site', origin: base })).toBe(403);
    expect(await status({ 'sec-fetch-site': 'cross-site', origin: 'null' })).toBe(403);
    // Browsers without Sec-Fetch-Site: Origin decides.
    expect(await status({ origin: sameSite })).toBe(403);
    expect(await status({ origin: 'null' })).toBe(403);
    expect(await status({ origin: 'not a url' })).toBe(403);
    const reply = await fetch(`${base}/refresh`, { method: 'POST', headers: { origin: sameSite } });
    expect(await reply.json()).toEqual({ reason: 'cross_origin', from: `origin: ${sameSite}` });
  });
});
