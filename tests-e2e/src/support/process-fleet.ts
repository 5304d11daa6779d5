import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { destroyBrokerPrefix } from '@svc/bus';
import { deleteCachePrefix } from '@svc/cache';
import { createScratchDatabase } from '@svc/db';
import { freePort, makeDataDir, startTcpProxy, type TcpProxy } from '@svc/testing';
import { ADMIN } from './fleet.js';
import { processesRunning, type ProcessInfo } from './processes.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * `npm run fleet` (`scripts/fleet.mjs`, built bundles) as a child on the test's real Postgres
 * (`databaseUrl`, a scratch database), Redis and RabbitMQ, its names under `<prefix>.` (bus) and
 * `<prefix>:` (cache), with fresh secrets and `env` (ports, service URLs, …; it overrides the rest); its output shown with E2E_LOGS.
 */
export function spawnFleet(databaseUrl: string, prefix: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['scripts/fleet.mjs'], {
    cwd: root,
    stdio: process.env.E2E_LOGS ? 'inherit' : 'ignore',
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL,
      AMQP_URL: process.env.AMQP_URL,
      SVC_BUS_PREFIX: `${prefix}.`,
      SVC_CACHE_PREFIX: `${prefix}:`,
      SVC_JWT_SECRET: randomBytes(32).toString('hex'),
      SVC_INTERNAL_SECRET: randomBytes(32).toString('hex'),
      SVC_SSH_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SVC_BCRYPT_ROUNDS: '4',
      ...env,
    },
  });
}

/** The processes of `npm run fleet`, by the entry point each runs. */
export const FLEET_PROCESSES = {
  gateway: 'gateway/dist/main.js',
  execution: 'services/execution/dist/main.js',
  worker: 'services/execution/dist/worker.js',
} as const;

/** Where a process-fleet's connections to one kind of server go: a proxy the test cuts and resumes. */
export type Proxied = 'database' | 'bus' | 'cache';

export interface ProcessFleet {
  url: string;
  /** The fleet's own database, reached directly (not through the proxy), to read what it holds. */
  databaseUrl: string;
  proxies: Record<Proxied, TcpProxy>;
  /** The fleet's processes now running (children of `scripts/fleet.mjs`). */
  processes(): ProcessInfo[];
  stop(): Promise<void>;
}

function proxyTo(url: string, port: number): Promise<TcpProxy> {
  const target = new URL(url);
  return startTcpProxy({ host: target.hostname, port: Number(target.port || port) });
}

function through(url: string, proxy: TcpProxy): string {
  const via = new URL(url);
  via.host = `127.0.0.1:${proxy.port}`;
  return via.toString();
}

/**
 * `npm run fleet` (built bundles; each process restarted when it dies, as an orchestrator would)
 * on a scratch database, queue and key prefix of real Postgres, RabbitMQ and Redis, every
 * process reaching each of them through a TCP proxy of the test's: a fault is a proxy cut, not a
 * shared server stopped. `env` adds to or overrides the fleet's variables.
 */
export async function startProcessFleet(env: Record<string, string> = {}): Promise<ProcessFleet> {
  const runId = randomBytes(4).toString('hex');
  const [busPrefix, cachePrefix] = [`flt-${runId}.`, `flt-${runId}:`];
  const scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'flt');
  const proxies = { database: await proxyTo(scratch.url, 5432), bus: await proxyTo(process.env.AMQP_URL!, 5672), cache: await proxyTo(process.env.REDIS_URL!, 6379) };
  const names = ['gateway', 'identity', 'registry', 'execution', 'storage', 'admin', 'health', 'billing', 'dashboard', 'ssh', 'notify'] as const;
  const ports = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await freePort()] as const))) as Record<(typeof names)[number], number>;
  const dataDir = makeDataDir('svc-faults-');
  const services = ['identity', 'registry', 'execution', 'storage', 'admin', 'billing', 'dashboard', 'ssh', 'notify'] as const;
  const fleet = spawnFleet(through(scratch.url, proxies.database), `flt-${runId}`, {
    REDIS_URL: through(process.env.REDIS_URL!, proxies.cache),
    AMQP_URL: through(process.env.AMQP_URL!, proxies.bus),
    SVC_ADMIN_EMAIL: ADMIN.email,
    SVC_ADMIN_PASSWORD: ADMIN.password,
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: String(ports.gateway),
    SVC_DASHBOARD_ORIGIN_PORT: '0',
    SVC_HEALTH_PORT: String(ports.health),
    // Simulated people come from addresses of their own, through this process on loopback.
    SVC_TRUST_PROXY: 'loopback',
    ...Object.fromEntries(services.flatMap((name) => [[`SVC_${name.toUpperCase()}_PORT`, String(ports[name])], [`SVC_${name.toUpperCase()}_URL`, `http://127.0.0.1:${ports[name]}`]])),
    ...env,
  });
  const url = `http://127.0.0.1:${ports.gateway}`;
  return {
    url,
    databaseUrl: scratch.url,
    proxies,
    processes: () => processesRunning('dist/').filter((p) => p.ppid === fleet.pid),
    async stop() {
      if (fleet.exitCode === null) {
        fleet.kill('SIGTERM');
        await new Promise((resolve) => fleet.once('exit', resolve));
      }
      for (const proxy of Object.values(proxies)) proxy.resume();
      await Promise.all(Object.values(proxies).map((proxy) => proxy.close()));
      await scratch.drop();
      await rm(dataDir, { recursive: true, force: true });
      await deleteCachePrefix(process.env.REDIS_URL!, cachePrefix);
      const deleted = await destroyBrokerPrefix(process.env.AMQP_URL!, busPrefix);
      if (!deleted) console.warn(`RabbitMQ queues under ${busPrefix} may be left on the broker: rabbitmqctl could not list them`);
    },
  };
}
