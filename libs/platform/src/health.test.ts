import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus, typedBus, type Bus } from '@svc/bus';
import { createLogger } from '@svc/core';
import { createDatabase } from '@svc/db';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { infrastructureReadiness, listenForProbes } from './health.js';
import { closeServer, createServiceApp, listen } from './http.js';

const SECRET = 'platform-health-test-secret-0123456789abcdef';
const log = createLogger({ service: 'health-test', silent: true });

function baseOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function get(url: string, init?: RequestInit): Promise<{ status: number; body: any }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

describe.each(testDatabaseKinds())('the probes of a service app on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    db = await kind.open();
    bus = typedBus(createMemoryBus());
    const routes = Router().get('/things', (_req, res) => void res.json({ data: [] }));
    const app = createServiceApp({ service: 'test', routes: [routes], internalSecret: SECRET, log, readiness: infrastructureReadiness({ database: db.database, bus }) });
    server = await listen(app, 0, '127.0.0.1');
    base = baseOf(server);
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    await bus?.close();
    await db?.dispose();
  });

  it('answers liveness while the process serves', async () => {
    expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('answers ready when the database answers and the bus is healthy', async () => {
    expect(await get(`${base}/readyz`)).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'ok', bus: 'ok' } } });
  });

  it('answers the probes without the gateway identity, even with a forged one', async () => {
    const forged = { headers: { 'x-svc-identity': 'not-a-token' } };
    expect((await get(`${base}/healthz`, forged)).status).toBe(200);
    expect((await get(`${base}/readyz`, forged)).status).toBe(200);
  });

  it('keeps the probes outside /api/v1 and the API routes where they were', async () => {
    expect((await get(`${base}/api/v1/healthz`)).status).toBe(404);
    expect((await get(`${base}/api/v1/readyz`)).status).toBe(404);
    expect(await get(`${base}/api/v1/things`)).toEqual({ status: 200, body: { data: [] } });
  });

  it('treats only GET and HEAD as probes', async () => {
    expect((await fetch(`${base}/healthz`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${base}/readyz`, { method: 'POST' })).status).toBe(404);
  });

  // Last: it closes the bus.
  it('answers 503 naming the bus once it is closed, and stays live', async () => {
    await bus.close();
    expect(await get(`${base}/readyz`)).toEqual({ status: 503, body: { status: 'unavailable', checks: { database: 'ok', bus: 'failing' } } });
    expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
  });
});

describe('readiness checks', () => {
  let server: Server;

  afterAll(async () => {
    if (server) await closeServer(server);
  });

  it('answers 503 naming the database when it does not answer select 1', async () => {
    const unreachable = await createDatabase({ url: 'postgres://svc@127.0.0.1:1/nowhere' });
    const bus = typedBus(createMemoryBus());
    const app = await listen(createServiceApp({ service: 'test', routes: [], internalSecret: SECRET, log, readiness: infrastructureReadiness({ database: unreachable, bus }) }), 0, '127.0.0.1');
    try {
      expect(await get(`${baseOf(app)}/readyz`)).toEqual({ status: 503, body: { status: 'unavailable', checks: { database: 'failing', bus: 'ok' } } });
      expect(await get(`${baseOf(app)}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    } finally {
      await closeServer(app);
      await bus.close();
      await unreachable.close();
    }
  });

  it('counts a check that throws or never answers as failing, and answers within the bound', async () => {
    const app = createServiceApp({ service: 'test',
      routes: [],
      internalSecret: SECRET,
      log,
      readiness: { steady: async () => true, broken: () => Promise.reject(new Error('boom')), stuck: () => new Promise<boolean>(() => {}) },
    });
    server = await listen(app, 0, '127.0.0.1');
    const started = Date.now();
    const reply = await get(`${baseOf(server)}/readyz`);
    expect(reply).toEqual({ status: 503, body: { status: 'unavailable', checks: { steady: 'ok', broken: 'failing', stuck: 'failing' } } });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('is ready while serving when the app was given no checks', async () => {
    const bare = await listen(createServiceApp({ service: 'test', routes: [], internalSecret: SECRET, log }), 0, '127.0.0.1');
    try {
      expect(await get(`${baseOf(bare)}/readyz`)).toEqual({ status: 200, body: { status: 'ok', checks: {} } });
    } finally {
      await closeServer(bare);
    }
  });
});

describe('the probe listener of a process without HTTP', () => {
  let db: TestDatabase;
  let bus: Bus;
  let probes: Server | undefined;

  beforeAll(async () => {
    db = await testDatabaseKinds()[0]!.open();
    bus = typedBus(createMemoryBus());
    probes = await listenForProbes(0, infrastructureReadiness({ database: db.database, bus }), log, '127.0.0.1');
  });

  afterAll(async () => {
    if (probes) await closeServer(probes);
    await bus?.close();
    await db?.dispose();
  });

  it('serves /healthz and /readyz and nothing else', async () => {
    const base = baseOf(probes!);
    expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get(`${base}/readyz`)).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'ok', bus: 'ok' } } });
    expect((await get(`${base}/api/v1/commands`)).status).toBe(404);
  });

  it('lets the process run on without probes when the port is taken, and says so', async () => {
    const port = (probes!.address() as AddressInfo).port;
    const warnings: unknown[] = [];
    const spy = createLogger({ service: 'health-test', silent: true });
    spy.warn = ((message: unknown, meta: unknown) => {
      warnings.push({ message, meta });
      return spy;
    }) as typeof spy.warn;
    expect(await listenForProbes(port, {}, spy, '127.0.0.1')).toBeUndefined();
    expect(warnings).toEqual([{ message: expect.stringContaining('health probes not served'), meta: { port, error: 'EADDRINUSE' } }]);
  });
});
