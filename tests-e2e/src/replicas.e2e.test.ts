import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destroyBrokerPrefix } from '@svc/bus';
import { deleteCachePrefix } from '@svc/cache';
import { createScratchDatabase } from '@svc/db';
import { makeDataDir, startS3Server, type S3TestServer } from '@svc/testing';
import { adminToken, createOrganization, signUp } from './support/accounts.js';
import { client } from './support/client.js';
import { bundleOf, createDashboard, getFile, MAIN_JS, uploadBundle } from './support/dashboards.js';
import { installPack, pollTask } from './support/execution.js';
import { ADMIN, MODES } from './support/fleet.js';
import { spawnReady } from './support/standalone.js';

/** A load balancer as operators put in front of replicas: each request to the next one in turn. */
async function roundRobin(targets: string[]): Promise<{ url: string; server: Server }> {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const target = new URL(targets[next++ % targets.length]!);
    // A connection of its own per request: a kept-alive one the instance closes just as the proxy
    // reuses it is reset, which a real balancer retries and this one would pass on as a failure.
    const upstream = request({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers, agent: false }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

type Backend = 's3' | 'shared folder';

/**
 * Two instances of the whole platform on one Postgres, RabbitMQ and Redis, behind a round-robin
 * proxy, as an operator scales out: what one instance stores (a package, a bundle) must be there
 * for the other, whichever instance a request or a job lands on.
 */
describe.runIf(MODES.includes('real')).each<Backend>(['s3', 'shared folder'])('two platform instances on shared infrastructure (blobs: %s)', (backend) => {
  const runId = randomBytes(4).toString('hex');
  const busPrefix = `replicas-${runId}.`;
  const cachePrefix = `replicas-${runId}:`;
  const secrets = {
    SVC_JWT_SECRET: randomBytes(32).toString('hex'),
    SVC_INTERNAL_SECRET: randomBytes(32).toString('hex'),
    SVC_SSH_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let s3: S3TestServer | undefined;
  let sharedDir: string | undefined;
  const dataDirs: string[] = [];
  const instances: ChildProcess[] = [];
  let balancer: { url: string; server: Server };

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'replicas');
    let blobs: Record<string, string>;
    if (backend === 's3') {
      s3 = await startS3Server();
      blobs = s3.envFor(`replicas-${runId}`);
    } else {
      sharedDir = await mkdtemp(join(tmpdir(), 'svc-replicas-blobs-'));
      blobs = { BLOB_STORE_URL: `file://${sharedDir}` };
    }
    const start = () => {
      const dataDir = makeDataDir('svc-replica-');
      dataDirs.push(dataDir);
      return spawnReady(
        'deploy/standalone/dist/main.js',
        {
          ...secrets,
          ...blobs,
          DATABASE_URL: scratch.url,
          REDIS_URL: process.env.REDIS_URL!,
          AMQP_URL: process.env.AMQP_URL!,
          SVC_BUS_PREFIX: busPrefix,
          SVC_CACHE_PREFIX: cachePrefix,
          SVC_DATA_DIR: dataDir,
          SVC_ADMIN_EMAIL: ADMIN.email,
          SVC_ADMIN_PASSWORD: ADMIN.password,
          SVC_BCRYPT_ROUNDS: '4',
          SVC_DASHBOARD_ORIGIN_PORT: 'off',
          PORT: '0',
          LOG_LEVEL: 'info',
        },
        '"svc is up"',
        90_000,
      );
    };
    // One after the other, as a rolling deployment brings them up: the first migrates the database.
    const first = await start();
    const second = await start();
    instances.push(first.child, second.child);
    balancer = await roundRobin([JSON.parse(first.line).url, JSON.parse(second.line).url]);
  }, 200_000);

  afterAll(async () => {
    balancer?.server.close();
    await Promise.all(
      instances.map(async (child) => {
        if (child.exitCode !== null) return;
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }),
    );
    await scratch?.drop();
    await s3?.close();
    for (const dir of [...dataDirs, ...(sharedDir ? [sharedDir] : [])]) await rm(dir, { recursive: true, force: true });
    await deleteCachePrefix(process.env.REDIS_URL!, cachePrefix);
    await destroyBrokerPrefix(process.env.AMQP_URL!, busPrefix);
  }, 60_000);

  it('publishes, installs and runs a pack, and uploads and serves a dashboard, through both instances', async () => {
    const call = client(balancer.url);
    const admin = await adminToken(call);
    const dev = await signUp(call, admin);
    await createOrganization(call, dev);
    // Published through one instance and installed through the other (the proxy alternates).
    await installPack(balancer.url, call, dev, { namespace: dev.slug, name: 'tools', commands: [{ name: 'echo' }] });

    // Each run lands on either gateway, and its job on either worker, which fetches the package
    // from either registry: every combination must find the same file.
    for (let run = 0; run < 6; run++) {
      const reply = await call(`/api/v1/commands/${dev.slug}/echo`, { token: dev.token, body: { text: `run ${run}` } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body.data.result).toEqual({ echoed: { text: `run ${run}` } });
    }
    for (let run = 0; run < 2; run++) {
      const queued = await call(`/api/v1/commands/${dev.slug}/echo?async=true`, { token: dev.token, body: { text: 'later' } });
      expect(queued.status, JSON.stringify(queued.body)).toBe(202);
      const done = await pollTask(call, dev.token, queued.body.data.task_id);
      expect(done.body.data.status, JSON.stringify(done.body)).toBe('success');
    }

    const board = await createDashboard(call, dev.token, `@${dev.slug}`, 'replica-board');
    const uploaded = await uploadBundle(balancer.url, dev.token, board.id, await bundleOf([{ name: './main.js', content: MAIN_JS }]), { version: '1.0.0' });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    for (let read = 0; read < 4; read++) {
      const file = await getFile(balancer.url, `/api/v1/dashboards/${board.slug}/bundle/1.0.0/main.js`, { authorization: `Bearer ${dev.token}` });
      expect(file.status).toBe(200);
      expect(file.bytes.toString()).toBe(MAIN_JS);
    }
  });
});
