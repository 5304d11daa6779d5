import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, listen } from './http.js';

/** A keep-alive GET on `agent`: the answer's `Connection` header, once its body has been read; rejects when the connection is cut. */
function get(port: number, agent: http.Agent, path: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get({ port, host: '127.0.0.1', path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers.connection));
      })
      .on('error', reject);
  });
}

describe('closeServer', () => {
  const agents: http.Agent[] = [];
  afterEach(() => {
    for (const agent of agents.splice(0)) agent.destroy();
  });

  async function serve() {
    const app = express();
    app.get('/slow', (_req, res) => void setTimeout(() => res.json({ ok: true }), 300));
    app.get('/stuck', () => undefined);
    const server = await listen(app, 0, '127.0.0.1');
    const agent = new http.Agent({ keepAlive: true });
    agents.push(agent);
    return { server, agent, port: (server.address() as AddressInfo).port };
  }

  it('answers a request in flight, then closes its keep-alive connection instead of waiting for the keep-alive timeout', async () => {
    const { server, agent, port } = await serve();
    const answered = get(port, agent, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await closeServer(server, 10_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    // Answered in full (a cut connection would reject), and closed once idle rather than kept 65 s.
    await expect(answered).resolves.toBeDefined();
  });

  it('cuts a connection whose request outlasts the grace', async () => {
    const { server, agent, port } = await serve();
    const cut = get(port, agent, '/stuck').catch((err: NodeJS.ErrnoException) => err.code);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await closeServer(server, 300);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await cut).toBe('ECONNRESET');
  });
});
