import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLEET_PING_RPC } from '@svc/contracts';
import { client, type Call } from './support/client.js';
import { MODES, oneMode, startFleetThroughProxy, startTestFleet, type TestFleet } from './support/fleet.js';
import type { TcpProxy } from '@svc/testing';

async function pollHealth(call: Call, wanted: string, withinMs: number): Promise<{ elapsedMs: number; status: number; body: any }> {
  const started = Date.now();
  for (;;) {
    const reply = await call('/health');
    const elapsedMs = Date.now() - started;
    if (reply.body?.status === wanted || elapsedMs > withinMs) return { elapsedMs, status: reply.status, body: reply.body };
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.runIf(MODES.includes('real'))('health when Postgres goes away (real infrastructure)', () => {
  let fleet: TestFleet;
  let call: Call;
  let proxy: TcpProxy;

  beforeAll(async () => {
    ({ fleet, proxy } = await startFleetThroughProxy('database'));
    call = client(fleet.url);
  });

  afterAll(async () => {
    proxy.resume();
    await fleet?.stop();
    await proxy.close();
  });

  it('turns unhealthy with 503 within 5 s and healthy again when it returns, without a restart', async () => {
    expect((await call('/health')).body.status).toBe('healthy');

    proxy.cut();
    const down = await pollHealth(call, 'unhealthy', 5000);
    expect(down.body.status).toBe('unhealthy');
    expect(down.status).toBe(503);
    expect(down.body.services.database).toBe('unhealthy');
    expect(down.elapsedMs).toBeLessThanOrEqual(5000);

    proxy.resume();
    const up = await pollHealth(call, 'healthy', 10_000);
    expect(up.body.status).toBe('healthy');
    expect(up.status).toBe(200);
  });
});

describe.each(oneMode('real'))('health reports its parts (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  beforeAll(async () => {
    fleet = await startTestFleet(mode);
  });
  afterAll(() => fleet?.stop());

  it('answers the spec object with every component and a timestamp, and the Python the worker runs packs on', async () => {
    const reply = await client(fleet.url)('/health');
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['details', 'services', 'status', 'timestamp', 'version']);
    expect(Object.keys(reply.body.services).sort()).toEqual(['cache', 'database', 'worker']);
    expect(reply.body.details).toEqual({ worker: { python: { interpreter: expect.stringMatching(/python3/), version: expect.stringMatching(/^3\.\d+\.\d+$/) } } });
  });

  it('says the worker is unhealthy when no execution worker answers, though every service still does', async () => {
    expect((await client(fleet.url)('/health')).body.services.worker).toBe('healthy');
    await fleet.stopWorkers();
    // The services still answer the fleet-wide ping; only a worker's answer counts.
    await expect(fleet.infra.bus.request(FLEET_PING_RPC, {}, { timeoutMs: 2000 })).resolves.toMatchObject({ service: expect.any(String) });
    const reply = await client(fleet.url)('/health');
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({ status: 'unhealthy', services: { database: 'healthy', worker: 'unhealthy' } });
  });
});
