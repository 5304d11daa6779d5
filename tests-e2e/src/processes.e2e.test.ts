import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destroyBrokerPrefix } from '@svc/bus';
import { deleteCachePrefix } from '@svc/cache';
import { createScratchDatabase } from '@svc/db';
import { freePort, makeDataDir } from '@svc/testing';
import { createOrganization, signUp } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack } from './support/execution.js';
import { MODES } from './support/fleet.js';
import { spawnFleet } from './support/fleet-processes.js';
import { processesRunning } from './support/processes.js';

/** Polls `holds` every 250 ms until it is true; fails with `failure` after `withinMs`. */
async function waitUntil(holds: () => Promise<boolean>, withinMs: number, failure: string): Promise<void> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (await holds()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(failure);
}

async function isHealthy(url: string): Promise<boolean> {
  const reply = await fetch(`${url}/health`).catch(() => undefined);
  return reply?.ok === true;
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A new developer publishes and installs an echo pack and runs it through every process. */
async function expectEchoRun(url: string, call: Call, adminToken: string, text: string): Promise<void> {
  const dev = await signUp(call, adminToken);
  await createOrganization(call, dev);
  await installPack(url, call, dev, { namespace: dev.slug, name: 'tools', commands: [{ name: 'echo' }] });
  const reply = await call(`/api/v1/commands/${dev.slug}/echo`, { token: dev.token, body: { text } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.data.result).toEqual({ echoed: { text } });
}

describe.runIf(MODES.includes('real'))('fleet as separate processes (real infrastructure)', () => {
  const runId = randomBytes(4).toString('hex');
  const busPrefix = `proc-${runId}.`;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let fleet: ChildProcess;
  let url: string;
  let dataDir: string;
  /** Where each process answers its probes: the services on their ports, the worker on SVC_HEALTH_PORT. */
  let probes: Record<string, number>;

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'proc');
    const [gatewayPort, identityPort, registryPort, executionPort, storagePort, adminPort, workerHealthPort, billingPort, dashboardPort, sshPort, notifyPort] = await Promise.all(Array.from({ length: 11 }, freePort));
    probes = { identity: identityPort!, registry: registryPort!, execution: executionPort!, storage: storagePort!, admin: adminPort!, 'execution-worker': workerHealthPort!, billing: billingPort!, dashboard: dashboardPort!, ssh: sshPort!, notify: notifyPort! };
    dataDir = makeDataDir('svc-proc-');
    url = `http://127.0.0.1:${gatewayPort}`;
    fleet = spawnFleet(scratch.url, `proc-${runId}`, {
      SVC_ADMIN_EMAIL: 'proc-ops@example.test',
      SVC_ADMIN_PASSWORD: 'processes-admin-1',
      PORT: String(gatewayPort),
      // The gateway's dashboard-origin listener on a free port (8180 by default).
      SVC_DASHBOARD_ORIGIN_PORT: '0',
      SVC_IDENTITY_PORT: String(identityPort),
      SVC_IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
      SVC_REGISTRY_PORT: String(registryPort),
      SVC_REGISTRY_URL: `http://127.0.0.1:${registryPort}`,
      SVC_EXECUTION_PORT: String(executionPort),
      SVC_EXECUTION_URL: `http://127.0.0.1:${executionPort}`,
      SVC_DATA_DIR: dataDir,
      SVC_STORAGE_PORT: String(storagePort),
      SVC_ADMIN_PORT: String(adminPort),
      SVC_SSH_PORT: String(sshPort),
      SVC_HEALTH_PORT: String(workerHealthPort),
      SVC_BILLING_PORT: String(billingPort),
      SVC_DASHBOARD_PORT: String(dashboardPort),
      SVC_NOTIFY_PORT: String(notifyPort),
    });
    await waitUntil(() => isHealthy(url), 30_000, `fleet at ${url} did not become healthy`);
    // A healthy gateway says nothing of when each process opens its own port: they start at their own pace.
    await Promise.all(Object.entries(probes).map(([name, port]) => waitUntil(() => isListening(port), 30_000, `${name} is not listening on port ${port}`)));
  }, 90_000);

  afterAll(async () => {
    if (fleet && fleet.exitCode === null) {
      fleet.kill('SIGTERM');
      await new Promise((r) => fleet.once('exit', r));
    }
    await scratch?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await deleteCachePrefix(process.env.REDIS_URL!, `proc-${runId}:`);
    // The fleet's queues were declared by its processes, not this one: they are found on the broker.
    const deleted = await destroyBrokerPrefix(process.env.AMQP_URL!, busPrefix);
    if (!deleted) console.warn(`RabbitMQ queues under ${busPrefix} may be left on the broker: rabbitmqctl could not list them`);
  });

  it('answers liveness and readiness probes on every process, the worker on SVC_HEALTH_PORT, and not through the gateway', async () => {
    for (const [name, port] of Object.entries(probes)) {
      const live = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect([name, live.status, await live.json()]).toEqual([name, 200, { status: 'ok' }]);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect([name, ready.status, await ready.json()]).toEqual([name, 200, { status: 'ok', checks: { database: 'ok', bus: 'ok' } }]);
    }
    expect((await fetch(`${url}/healthz`)).status).toBe(404);
    expect((await fetch(`${url}/readyz`)).status).toBe(404);
  });

  it('serves sign-in through the gateway process and the identity process', async () => {
    const call = client(url);
    const admin = await call('/api/v1/auth/login', { body: { email: 'proc-ops@example.test', password: 'processes-admin-1' } });
    expect(admin.status).toBe(200);
    const me = await call('/api/v1/auth/me', { token: admin.body.data.tokens.accessToken });
    expect(me.body.data).toMatchObject({ role: 'owner', subscriptionTier: 'enterprise', tenantSlug: 'operator' });
  });

  it('serves the command catalog through the gateway process and the registry process', async () => {
    const call = client(url);
    const admin = await call('/api/v1/auth/login', { body: { email: 'proc-ops@example.test', password: 'processes-admin-1' } });
    const catalog = await call('/api/v1/commands', { token: admin.body.data.tokens.accessToken });
    expect(catalog.status, JSON.stringify(catalog.body)).toBe(200);
    expect(catalog.body.data).toEqual({ commands: [], total: 0, page: 1, pages: 0 });
  });

  it('runs a command through the gateway, execution and worker processes', async () => {
    const call = client(url);
    const admin = await call('/api/v1/auth/login', { body: { email: 'proc-ops@example.test', password: 'processes-admin-1' } });
    await expectEchoRun(url, call, admin.body.data.tokens.accessToken, 'across processes');
  });

  it('starts a killed worker again while every other process keeps serving', async () => {
    const call = client(url);
    const ours = () => processesRunning('dist/').filter((p) => p.ppid === fleet.pid);
    const before = ours();
    const worker = before.find((p) => p.cmdline.includes('services/execution/dist/worker.js'))!;
    expect(before).toHaveLength(11);
    process.kill(worker.pid, 'SIGKILL');
    await waitUntil(async () => !processesRunning('services/execution/dist/worker.js').some((p) => p.pid === worker.pid), 5000, 'the worker did not die');

    // Without a worker the rest serve on: sign-in, the catalog, health (which says the worker is missing).
    const admin = await call('/api/v1/auth/login', { body: { email: 'proc-ops@example.test', password: 'processes-admin-1' } });
    expect(admin.status).toBe(200);
    expect((await call('/api/v1/commands', { token: admin.body.data.tokens.accessToken })).status).toBe(200);

    await waitUntil(async () => ours().some((p) => p.cmdline.includes('services/execution/dist/worker.js') && p.pid !== worker.pid), 15_000, 'the worker was not started again');
    await waitUntil(() => isHealthy(url), 30_000, 'the fleet did not become healthy again');
    // The ten others are the same processes as before.
    const after = ours().map((p) => p.pid);
    expect(after).toHaveLength(11);
    expect(after).toEqual(expect.arrayContaining(before.filter((p) => p !== worker).map((p) => p.pid)));
    await expectEchoRun(url, call, admin.body.data.tokens.accessToken, 'restarted');
  }, 90_000);

  it('serves storage, telemetry and SSH targets through their own processes', async () => {
    const call = client(url);
    const admin = await call('/api/v1/auth/login', { body: { email: 'proc-ops@example.test', password: 'processes-admin-1' } });
    const token = admin.body.data.tokens.accessToken;
    expect((await call('/api/v1/storage/proc', { method: 'PUT', token, body: { data: { ok: true } } })).status).toBe(201);
    expect((await call('/api/v1/storage/proc', { token })).body.data.value).toEqual({ ok: true });
    const telemetry = await call('/api/v1/telemetry', { body: { command: 'run', duration_ms: 1, success: true, os: 'linux', cli_version: '0.1.0' } });
    expect(telemetry.body).toEqual({ data: { received: true } });
    const target = await call('/api/v1/ssh/targets', { token, body: { name: 'proc-box', host: 'proc.example.test', username: 'deploy', auth_method: 'password', password: 'proc-password' } });
    expect(target.status, JSON.stringify(target.body)).toBe(201);
    expect((await call('/api/v1/ssh/targets', { token })).body).toEqual([target.body]);
  });
});
