import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destroyBrokerPrefix } from '@svc/bus';
import { deleteCachePrefix } from '@svc/cache';
import { createScratchDatabase } from '@svc/db';
import { freePort, makeDataDir, startOtlpReceiver, type ReceivedSpan, type TestOtlpReceiver } from '@svc/testing';
import { createPackWheel, parseManifest } from '@svc/pack-sdk';
import { adminToken, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack, pollTask } from './support/execution.js';
import { uploadPackage } from './support/packs.js';
import { ADMIN, MODES } from './support/fleet.js';
import { spawnFleet } from './support/process-fleet.js';
import { spawnReady } from './support/standalone.js';

/** OTLP span kinds. */
const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

/** What no span may carry: it is only ever in a run's input. */
const MARKER = `input-${randomBytes(6).toString('hex')}`;

/** A command that answers the trace it was handed (`ctx.traceparent`). */
const TRACE_COMMAND = 'export default async (_input, ctx) => ({ traceparent: ctx.traceparent ?? null });\n';
/** The same, after asking the platform for a storage entry (a hook, then an RPC to the storage service). */
const TRACE_AFTER_STORAGE = "export default async (_input, ctx) => { await ctx.storage.get('probe'); return { traceparent: ctx.traceparent ?? null }; };\n";

/** A Python pack whose command answers the trace it was handed, as a wheel. */
function pythonTracePack(namespace: string): Buffer {
  const manifest = `schema_version: 1
pack: { namespace: ${namespace}, name: tracing-py, version: 1.0.0, visibility: private }
runtime: python
python: ">=3.10"
commands:
  - { name: py-now, entry: "tracing_py.now:run", input_schema: { type: object } }
`;
  const files = { 'pack.yaml': manifest, 'tracing_py/__init__.py': '', 'tracing_py/now.py': 'def run(input, ctx):\n    return {"traceparent": ctx.traceparent}\n' };
  return createPackWheel(files, parseManifest(manifest)).wheel;
}

/** Exports often, so that a test waits for spans seconds rather than the SDK's 5 s default. */
const EXPORT_SOON = { OTEL_BSP_SCHEDULE_DELAY: '200' };

interface Platform {
  url: string;
  /** Which process exported the spans of each part of a run (`service.name`). */
  services: { gateway: string; execution: string; worker: string; storage: string };
  stop(): Promise<void>;
}

async function waitUntil(holds: () => boolean | Promise<boolean>, withinMs: number, failure: () => string): Promise<void> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (await holds()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(failure());
}

/** The platform in one process on embedded infrastructure: the gateway hands requests over, the bus is in-process. */
async function standalone(otlp: string): Promise<Platform> {
  const dataDir = makeDataDir('svc-traces-');
  const env = { PORT: '0', SVC_DATA_DIR: dataDir, SVC_ADMIN_EMAIL: ADMIN.email, SVC_ADMIN_PASSWORD: ADMIN.password, SVC_BCRYPT_ROUNDS: '4', SVC_DASHBOARD_ORIGIN_PORT: 'off', LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: otlp, ...EXPORT_SOON };
  const { child, line } = await spawnReady('deploy/standalone/dist/main.js', env, '"svc is up"', 90_000);
  return {
    url: JSON.parse(line).url,
    services: { gateway: 'standalone', execution: 'standalone', worker: 'standalone', storage: 'standalone' },
    async stop() {
      await stopChild(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every service and the worker as processes of their own (`npm run fleet`) on real Postgres, Redis and RabbitMQ. */
async function fleet(otlp: string): Promise<Platform> {
  const runId = randomBytes(4).toString('hex');
  const scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'traces');
  const dataDir = makeDataDir('svc-traces-fleet-');
  const names = ['identity', 'registry', 'execution', 'storage', 'admin', 'billing', 'dashboard', 'ssh', 'notify'] as const;
  const [gatewayPort, workerHealthPort, ...ports] = await Promise.all(Array.from({ length: names.length + 2 }, freePort));
  const serviceEnv = Object.fromEntries(names.flatMap((name, i) => [[`SVC_${name.toUpperCase()}_PORT`, String(ports[i])], [`SVC_${name.toUpperCase()}_URL`, `http://127.0.0.1:${ports[i]}`]]));
  const child = spawnFleet(scratch.url, `traces-${runId}`, {
    SVC_ADMIN_EMAIL: ADMIN.email,
    SVC_ADMIN_PASSWORD: ADMIN.password,
    SVC_DATA_DIR: dataDir,
    PORT: String(gatewayPort),
    SVC_DASHBOARD_ORIGIN_PORT: '0',
    SVC_HEALTH_PORT: String(workerHealthPort),
    ...serviceEnv,
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
    ...EXPORT_SOON,
  });
  const url = `http://127.0.0.1:${gatewayPort}`;
  const up = async () => (await fetch(`${url}/health`).catch(() => undefined))?.ok === true;
  await waitUntil(up, 60_000, () => `fleet at ${url} did not become healthy`);
  return {
    url,
    services: { gateway: 'gateway', execution: 'execution', worker: 'execution-worker', storage: 'storage' },
    async stop() {
      await stopChild(child);
      await scratch.drop();
      await rm(dataDir, { recursive: true, force: true });
      await deleteCachePrefix(process.env.REDIS_URL!, `traces-${runId}:`);
      await destroyBrokerPrefix(process.env.AMQP_URL!, `traces-${runId}.`);
    },
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

const PLATFORMS = [{ name: 'the standalone (embedded)', start: standalone }, ...(MODES.includes('real') ? [{ name: 'the fleet of processes (real infrastructure)', start: fleet }] : [])];

describe.each(PLATFORMS)('one trace per command run, across $name', ({ start }) => {
  let receiver: TestOtlpReceiver;
  let platform: Platform;
  let call: Call;
  let dev: TestUser;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    platform = await start(receiver.url);
    call = client(platform.url);
    dev = await signUp(call, await adminToken(call));
    await createOrganization(call, dev);
    await installPack(platform.url, call, dev, {
      namespace: dev.slug,
      name: 'tracing',
      commands: [{ name: 'now' }, { name: 'later', queue: 'medium' }],
      files: { 'commands/now.js': TRACE_AFTER_STORAGE, 'commands/later.js': TRACE_COMMAND },
    });
    const published = await uploadPackage(platform.url, dev.token, pythonTracePack(dev.slug));
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const installed = await call('/api/v1/packs/install', { token: dev.token, body: { name: `@${dev.slug}/tracing-py`, version: '1.0.0' } });
    expect(installed.status, JSON.stringify(installed.body)).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
  }, 60_000);

  /**
   * The spans of one trace, once its spans from `first` up to the root (the gateway's) have
   * arrived, and one of each name in `besides` (processes export on their own schedules).
   */
  async function traceUpFrom(traceId: string, first: string, besides: string[] = []): Promise<{ spans: ReceivedSpan[]; chain: ReceivedSpan[] }> {
    const spans = () => receiver.spans.filter((span) => span.traceId === traceId);
    const chain = () => {
      const byId = new Map(spans().map((span) => [span.spanId, span]));
      const found: ReceivedSpan[] = [];
      for (let span = byId.get(first); span; span = span.parentSpanId ? byId.get(span.parentSpanId) : undefined) found.push(span);
      return found;
    };
    const whole = () => chain().at(-1)?.parentSpanId === undefined && chain().length > 1 && besides.every((name) => spans().some((span) => span.name === name));
    await waitUntil(whole, 30_000, () => `trace ${traceId} not whole from ${first}: ${JSON.stringify(spans().map((s) => s.name))}`);
    return { spans: spans(), chain: chain() };
  }

  /** `00-<trace id>-<span id>-<flags>` into its parts. */
  function partsOf(traceparent: unknown): { traceId: string; spanId: string } {
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const [, traceId, spanId] = String(traceparent).split('-');
    return { traceId: traceId!, spanId: spanId! };
  }

  function expectRunTree(chain: ReceivedSpan[], queue: 'fast' | 'medium', status: number, command = queue === 'fast' ? 'now' : 'later'): void {
    const { services } = platform;
    expect(chain.map((span) => [span.service, span.kind === SERVER ? 'server' : span.name])).toEqual([
      [services.worker, 'runner.exec'],
      [services.worker, 'worker.job'],
      [services.worker, `bus.consume exec.${queue}`],
      [services.execution, `bus.publish exec.${queue}`],
      [services.execution, 'execution.run'],
      [services.execution, 'server'],
      [services.gateway, 'server'],
    ]);
    const [exec, job, consume, publish, run, service, gateway] = chain as [ReceivedSpan, ReceivedSpan, ReceivedSpan, ReceivedSpan, ReceivedSpan, ReceivedSpan, ReceivedSpan];
    expect(gateway).toMatchObject({ name: 'POST /api/v1/commands', parentSpanId: undefined, attributes: { 'http.route': '/api/v1/commands', 'http.response.status_code': status } });
    expect(service.attributes['http.route']).toBe('/api/v1/commands/:namespace/:name');
    expect(run.attributes).toMatchObject({ 'svc.command': `${dev.slug}/${command}`, 'svc.pack.version': '1.0.0', 'svc.queue': queue, 'svc.run.mode': queue === 'fast' ? 'sync' : 'task' });
    expect(run.attributes['svc.tenant.id']).toEqual(expect.any(String));
    expect([publish.kind, consume.kind]).toEqual([PRODUCER, CONSUMER]);
    expect(consume.attributes['messaging.destination.name']).toBe(`exec.${queue}`);
    expect(job.attributes).toMatchObject({ 'svc.queue': queue, 'svc.command': run.attributes['svc.command'], 'svc.tenant.id': run.attributes['svc.tenant.id'], 'svc.task.status': 'success' });
    expect(exec.attributes['svc.runner.start']).toMatch(/^(warm|spare|cold)$/);
  }

  it('follows a synchronous run from the gateway through execution and the worker into the runner, under a trace the client cannot choose', async () => {
    const clientTrace = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
    const reply = await call(`/api/v1/commands/${dev.slug}/now`, { token: dev.token, body: { text: MARKER }, headers: { traceparent: clientTrace } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const handed = partsOf(reply.body.data.result.traceparent);
    expect(handed.traceId, 'a trace of the gateway\'s own').not.toBe('ab'.repeat(16));

    const { spans, chain } = await traceUpFrom(handed.traceId, handed.spanId, ['runner.start', 'runner.hook storage.get', 'bus.request storage.get', 'bus.respond storage.get', 'bus.publish execution.replies']);
    expectRunTree(chain, 'fast', 200);
    // The runner's first call started it, or was given the spare started ahead: that start is a span under the call's.
    const start = spans.find((span) => span.name === 'runner.start');
    expect(start?.parentSpanId).toBe(chain[0]!.spanId);
    expect(chain[0]!.attributes['svc.runner.start']).toMatch(/^(spare|cold)$/);
    // The command's storage read: a hook under its call, a question to the storage service under that.
    const hook = spans.find((span) => span.name === 'runner.hook storage.get');
    expect(hook?.parentSpanId).toBe(chain[0]!.spanId);
    const ask = spans.find((span) => span.name === 'bus.request storage.get');
    expect(ask?.parentSpanId).toBe(hook?.spanId);
    const answer = spans.find((span) => span.name === 'bus.respond storage.get');
    expect(answer).toMatchObject({ service: platform.services.storage, parentSpanId: ask?.spanId });
    // The answer came back over the bus in the same trace.
    const replyPublish = spans.find((span) => span.name === 'bus.publish execution.replies');
    expect(replyPublish?.parentSpanId).toBe(chain[1]!.spanId);
    expect(JSON.stringify(spans), 'no span carries the input').not.toContain(MARKER);
  });

  it('follows an asynchronous task through the medium queue to its runner in one trace', async () => {
    const accepted = await call(`/api/v1/commands/${dev.slug}/later?async=true`, { token: dev.token, body: { text: MARKER } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    const done = await pollTask(call, dev.token, accepted.body.data.task_id);
    expect(done.body.data.status).toBe('success');
    const handed = partsOf(done.body.data.result.traceparent);

    const { spans, chain } = await traceUpFrom(handed.traceId, handed.spanId);
    expectRunTree(chain, 'medium', 202);
    expect(JSON.stringify(spans), 'no span carries the input').not.toContain(MARKER);
  });

  it('hands a Python command the run\'s trace as ctx.traceparent, under the runner\'s call', async () => {
    const reply = await call(`/api/v1/commands/${dev.slug}/py-now`, { token: dev.token, body: { text: MARKER } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const handed = partsOf(reply.body.data.result.traceparent);

    const { spans, chain } = await traceUpFrom(handed.traceId, handed.spanId);
    expectRunTree(chain, 'fast', 200, 'py-now');
    expect(JSON.stringify(spans), 'no span carries the input').not.toContain(MARKER);
  });
});
