import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destroyBrokerPrefix } from '@svc/bus';
import { deleteCachePrefix } from '@svc/cache';
import { createScratchDatabase } from '@svc/db';
import { freePort, makeDataDir } from '@svc/testing';
import { adminToken, createOrganization, signUp } from './support/accounts.js';
import { client } from './support/client.js';
import { installPack, pollTask } from './support/execution.js';
import { ADMIN, type Mode, oneMode } from './support/fleet.js';
import { spawnReady } from './support/standalone.js';

/** One sample of a scrape: `name{labels} value`, labels as written. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples of `name` whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
}

describe.each(oneMode('real'))('Prometheus metrics of a running platform (%s infrastructure)', (mode: Mode) => {
  const runId = randomBytes(4).toString('hex');
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let child: ChildProcess;
  let url: string;
  let metricsUrl: string;
  const dataDir = makeDataDir('svc-metrics-');

  beforeAll(async () => {
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    let infra: Record<string, string> = {};
    if (mode === 'real') {
      scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'metrics');
      infra = { DATABASE_URL: scratch.url, REDIS_URL: process.env.REDIS_URL!, AMQP_URL: process.env.AMQP_URL!, SVC_BUS_PREFIX: `metrics-${runId}.`, SVC_CACHE_PREFIX: `metrics-${runId}:` };
    }
    const started = await spawnReady(
      'deploy/standalone/dist/main.js',
      {
        ...infra,
        PORT: '0',
        SVC_METRICS_PORT: String(port),
        SVC_DATA_DIR: dataDir,
        SVC_ADMIN_EMAIL: ADMIN.email,
        SVC_ADMIN_PASSWORD: ADMIN.password,
        SVC_BCRYPT_ROUNDS: '4',
        SVC_DASHBOARD_ORIGIN_PORT: 'off',
        // A small command limit, so that the test sees a refusal counted.
        RATE_LIMIT_REQUESTS: '8',
        LOG_LEVEL: 'info',
      },
      '"svc is up"',
      90_000,
    );
    child = started.child;
    url = JSON.parse(started.line).url;
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await rm(dataDir, { recursive: true, force: true });
    if (mode === 'real') {
      await scratch?.drop();
      await deleteCachePrefix(process.env.REDIS_URL!, `metrics-${runId}:`);
      await destroyBrokerPrefix(process.env.AMQP_URL!, `metrics-${runId}.`);
    }
  }, 60_000);

  const scrape = async () => {
    const reply = await fetch(metricsUrl);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(await reply.text());
  };

  it('serves every family on its own port, and they move with the work the platform does', async () => {
    const before = await scrape();
    const names = new Set(before.map((s) => s.name));
    for (const family of ['svc_process_cpu_seconds_total', 'svc_process_resident_memory_bytes', 'svc_runner_pool', 'svc_exec_queue_depth']) {
      expect(names, family).toContain(family);
    }
    expect((await fetch(`${url}/metrics`)).status, 'not through the gateway').toBe(404);

    const call = client(url);
    const dev = await signUp(call, await adminToken(call));
    await createOrganization(call, dev);
    await installPack(url, call, dev, { namespace: dev.slug, name: 'tools', commands: [{ name: 'echo' }] });
    for (let run = 0; run < 3; run++) expect((await call(`/api/v1/commands/${dev.slug}/echo`, { token: dev.token, body: { run } })).status).toBe(200);
    const queued = await call(`/api/v1/commands/${dev.slug}/echo?async=true`, { token: dev.token, body: { later: true } });
    expect((await pollTask(call, dev.token, queued.body.data.task_id)).body.data.status).toBe('success');
    let refused = 0;
    for (let run = 0; run < 10 && refused === 0; run++) {
      if ((await call(`/api/v1/commands/${dev.slug}/echo`, { token: dev.token, body: { run } })).status === 429) refused += 1;
    }
    expect(refused).toBe(1);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => total(after, name, labels) - total(before, name, labels);
    // Requests by route pattern, at the gateway and at the service behind it.
    expect(moved('svc_http_requests_total', { service: 'gateway', route: '/api/v1/commands', status: '200' })).toBeGreaterThanOrEqual(3);
    expect(moved('svc_http_requests_total', { service: 'execution', status: '200' })).toBeGreaterThanOrEqual(3);
    expect(after.some((s) => s.name === 'svc_http_requests_total' && s.labels.route?.includes(dev.slug))).toBe(false);
    expect(moved('svc_http_request_duration_seconds_count', { service: 'gateway' })).toBeGreaterThan(0);
    expect(moved('svc_bus_published_total', { kind: 'work', name: 'exec.fast', outcome: 'ok' })).toBeGreaterThanOrEqual(4);
    expect(moved('svc_bus_consumed_total', { kind: 'work', queue: 'exec.fast', outcome: 'ok' })).toBeGreaterThanOrEqual(4);
    expect(moved('svc_bus_published_total', { kind: 'event', outcome: 'ok' })).toBeGreaterThan(0);
    expect(moved('svc_bus_rpc_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(moved('svc_tasks_finished_total', { mode: 'sync', status: 'success' })).toBeGreaterThanOrEqual(3);
    expect(moved('svc_tasks_finished_total', { mode: 'task', status: 'success' })).toBe(1);
    // The first run found no runner of its own: one was started for it, or the spare given to it.
    expect(moved('svc_runner_starts_total', { start: 'cold' }) + moved('svc_runner_starts_total', { start: 'spare' })).toBe(1);
    expect(moved('svc_runner_starts_total', { start: 'warm' })).toBeGreaterThanOrEqual(3);
    expect(total(after, 'svc_runner_pool', { what: 'runners' })).toBeGreaterThanOrEqual(1);
    expect(moved('svc_rate_limit_refusals_total')).toBe(1);
    expect(after.filter((s) => s.name === 'svc_exec_queue_depth').map((s) => s.labels.queue).sort()).toEqual(['exec.fast', 'exec.long', 'exec.medium']);
    if (mode === 'real') expect(total(after, 'svc_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
  });
});
