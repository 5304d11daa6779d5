import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@svc/core';

// Whether this file's process has loaded undici: a gateway that forwards nothing over HTTP (the standalone's) must not have.
const loaded = vi.hoisted(() => ({ undici: false }));
vi.mock('undici', async (original) => {
  loaded.undici = true;
  return original();
});

const log = createLogger({ service: 'undici-loading-test', silent: true });
const listening = (server: Server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A service that answers with the method and body it was sent. */
const service = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => res.end(`${req.method} ${Buffer.concat(chunks).toString()}`));
});
let serviceUrl: string;
beforeAll(async () => {
  serviceUrl = await listening(service);
});
afterAll(() => closed(service));

describe('undici', () => {
  it('is not loaded by the gateway until a forwarder is made', async () => {
    await import('../app.js');
    expect(loaded.undici).toBe(false);
  });

  it('is loaded by the first forwarder made, which then forwards a request whole', async () => {
    const { forwardTo } = await import('./proxy.js');
    const forwarder = forwardTo('echo', serviceUrl, () => 'signed', log);
    const gateway = express().use(forwarder.handle);
    const server = createServer(gateway);
    const url = await listening(server);
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const req = request(`${url}/anything`, { method: 'POST' }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(Buffer.concat(chunks).toString()));
        });
        req.on('error', reject);
        req.end('the body');
      });
      expect(answer).toBe('POST the body');
      expect(loaded.undici).toBe(true);
    } finally {
      await forwarder.close();
      await closed(server);
    }
  });
});
