import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@svc/core';
import { deleteCachePrefix } from '@svc/cache';
import { createScratchDatabase, dropServiceRoles, provisionServiceRoles } from '@svc/db';
import type { BillingConfig, Clock } from '@svc/billing';
import type { GatewayConfig } from '@svc/gateway';
import type { WebhookSettings } from '@svc/notify';
import { openInfrastructure, type Infrastructure, type InfrastructureEnv } from '@svc/platform';
import { startFleet } from '@svc/standalone';
import { destroyBusPrefix } from '@svc/bus';
import { makeDataDir, startTcpProxy, type TcpProxy } from '@svc/testing';
import { linesHoldingSecrets } from './secrets.js';

export type Mode = 'embedded' | 'real';

const realUrls = {
  database: process.env.DATABASE_URL,
  cache: process.env.REDIS_URL,
  bus: process.env.AMQP_URL,
};

/** Every run covers the embedded adapters; with the three URLs set it covers the real services too. */
export const MODES: Mode[] = realUrls.database && realUrls.cache && realUrls.bus ? ['embedded', 'real'] : ['embedded'];

/**
 * One mode, for a suite whose subject sits above the API (the console's pages, the CLI, the SDKs):
 * what differs between the infrastructures lies behind the API, which the API suites try in both
 * modes, and running these twice doubled the suite's slowest files. `preferred` when this run has
 * it, embedded otherwise; the suites name different modes, so that both carry some of them.
 */
export function oneMode(preferred: Mode): Mode[] {
  return MODES.includes(preferred) ? [preferred] : ['embedded'];
}

export const TEST_SECRETS = {
  jwtSecret: 'e2e-jwt-secret-0123456789abcdef0123456789',
  internalSecret: 'e2e-internal-secret-0123456789abcdef012345',
};
/** What the e2e fleets seal SSH credentials with (base64 of 32 bytes). */
export const TEST_SSH_ENCRYPTION_KEY = Buffer.alloc(32, 'e2e-ssh').toString('base64');

/** Receivers on loopback over plain http, retries in fractions of a second. */
export const E2E_WEBHOOKS: WebhookSettings = {
  allowedCidrs: ['127.0.0.0/8'],
  allowHttp: true,
  timeoutMs: 2000,
  maxAttempts: 6,
  retry: { baseMs: 250, capMs: 5000 },
  disableAfterMs: 3_600_000,
  intervalMs: 50,
};

export const ADMIN = { email: 'ops@example.test', password: 'operator-password-1', slug: 'operator' };

export interface TestFleet {
  url: string;
  /** The dashboard origin's listener (loopback URL) and the origin entry points name, when asked for (`dashboardOrigin`). */
  dashboard?: { url: string; origin: string };
  infra: Infrastructure;
  /** What the fleet's infrastructure was opened with (URLs, prefixes): a replica opens the same. */
  infraEnv: InfrastructureEnv;
  /** The gateway's configuration, service URLs included: a second gateway replica uses the same. */
  gatewayConfig: GatewayConfig;
  /** `SVC_DATA_DIR` of the fleet (workers unpack packs under `packs/`). */
  dataDir: string;
  /** Stops the execution workers while the services keep serving. */
  stopWorkers(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestFleetOptions {
  /** Overrides the database URL of real mode (e.g. to route it through a fault proxy); given the runtime role's URL. */
  databaseUrl?: (runtimeUrl: string) => string;
  /** Overrides the Redis URL of real mode (e.g. to route it through a fault proxy). */
  redisUrl?: (realUrl: string) => string;
  /** Overrides the RabbitMQ URL of real mode (e.g. to route it through a fault proxy). */
  amqpUrl?: (realUrl: string) => string;
  accessTtlSeconds?: number;
  /** `RATE_LIMIT_REQUESTS`/`RATE_LIMIT_WINDOW` of the fleet (the per-user limit of `/api/v1/commands/*`). */
  commandGroupLimit?: { points: number; durationSeconds: number };
  /** An SMTP relay for notify's e-mails (its outbox read every 100 ms); without it e-mails stay queued. */
  smtpUrl?: string;
  /** Webhook settings that tests change (retry pauses, attempts, when an endpoint is disabled). */
  webhooks?: Partial<WebhookSettings>;
  /** Off only where a test sends more than any tier allows and the limits are not its subject. */
  rateLimitEnabled?: boolean;
  /** Execution settings that tests shorten (sync wait, result retention, retry backoff). */
  execution?: Partial<ExecutionTestSettings>;
  /**
   * `SVC_SSH_ALLOWED_CIDRS` of the fleet: none by default, as in production, so SSH targets on
   * loopback are refused; a test whose SSH server listens there allows it explicitly.
   */
  sshAllowedCidrs?: string[];
  /** Billing's settings (a local processor, webhook secrets, a short scheduler interval). */
  billing?: Partial<BillingConfig>;
  /** Billing's clock, which a test moves to play out a grace period. */
  billingClock?: Clock;
  /** Identity's clock, which a test moves past a password reset link's expiry. */
  identityClock?: Clock;
  /**
   * Each service's logger, for a test that reads what the fleet logs. By default every line at
   * level debug is kept (printed too with E2E_LOGS) and scanned for secrets when the fleet stops.
   */
  logger?: (service: string) => Logger;
  /** Where the kept lines go, for a test that reads them too. */
  logLines?: string[];
  /**
   * A dashboard origin on a free port (`http://localhost:<port>`), as `npm start` has one;
   * without it the fleet keeps one origin and entry points are the API's paths.
   */
  dashboardOrigin?: boolean;
  /**
   * How identity fetches OAuth client ID metadata documents: private ranges allowed (a test's
   * server on loopback) and a certificate trusted besides the system's (its self-signed one).
   */
  oauthClientDocuments?: { allowedCidrs: string[]; ca: string };
}

interface ExecutionTestSettings {
  syncWaitMs: number;
  retentionMs: number;
  retryBaseMs: number;
  /** The worker's runner pool (16 by default here); a tenant's share is a part of it. */
  maxRunners: number;
  /** The schedulers' poll and clock (a test runs a faster one). */
  schedules: { pollMs?: number; clock?: () => Date };
}

/**
 * A whole fleet in this process: on embedded adapters, or on the real Postgres, Redis and
 * RabbitMQ with a fresh database, key prefix and queue prefix that are removed afterwards.
 */
export async function startTestFleet(mode: Mode, options: TestFleetOptions = {}): Promise<TestFleet> {
  const log = createLogger({ service: 'e2e', level: 'error', silent: !process.env.E2E_LOGS });
  const runId = randomBytes(4).toString('hex');
  const scratch = mode === 'real' ? await createScratchDatabase(realUrls.database!, 'e2e') : undefined;
  // No superuser at run time: the fleet migrates as one role and runs as another, which may only
  // use the services' tables. The standalone is one process, so one runtime role serves every
  // schema; roles belong to the whole server, so each run names its own and drops them.
  const roles = scratch ? await provisionServiceRoles({ adminUrl: scratch.url, schemas: ['fleet'], prefix: `e2e_${runId}_` }) : undefined;
  const runtimeUrl = roles?.fleet?.runtime.url;
  const busPrefix = `e2e-${runId}.`;
  const dataDir = makeDataDir(`svc-e2e-${runId}-`);
  const cachePrefix = `e2e-${runId}:`;
  const infraEnv: InfrastructureEnv = {
    DATABASE_URL: runtimeUrl ? (options.databaseUrl?.(runtimeUrl) ?? runtimeUrl) : undefined,
    DATABASE_MIGRATION_URL: roles?.fleet?.migrator.url,
    REDIS_URL: mode === 'real' ? (options.redisUrl?.(realUrls.cache!) ?? realUrls.cache) : undefined,
    AMQP_URL: mode === 'real' ? (options.amqpUrl?.(realUrls.bus!) ?? realUrls.bus) : undefined,
    SVC_DATA_DIR: 'unused-in-memory',
    SVC_BUS_PREFIX: busPrefix,
    SVC_CACHE_PREFIX: cachePrefix,
    LOG_LEVEL: 'error',
  };
  const infra = await openInfrastructure(infraEnv, log, { inMemory: true });
  const logLines = options.logLines ?? [];
  const leaks: string[] = [];
  // A long run logs more than memory holds: past a bound, the older half is scanned and let go
  // (a secret is known by then: its response came back long before).
  const collect = lineCollector(logLines, options.logLines ? undefined : () => leaks.push(...linesHoldingSecrets(logLines.splice(0, KEPT_LINES / 2))));
  const fleet = await startFleet({
    infra,
    logger: options.logger ?? ((service) => createLogger({ service, level: 'debug', stream: collect })),
    port: 0,
    host: '127.0.0.1',
    secrets: TEST_SECRETS,
    dataDir,
    identity: {
      accessTtlSeconds: options.accessTtlSeconds ?? 900,
      refreshTtlSeconds: 3600,
      bcryptRounds: 4,
      cookieSecure: true,
      admin: ADMIN,
      clientDocuments: options.oauthClientDocuments,
      clock: options.identityClock,
    },
    notify: {
      mail: options.smtpUrl ? { smtpUrl: options.smtpUrl, from: 'svc <no-reply@svc.test>' } : undefined,
      mailIntervalMs: 100,
      emailRetry: { baseMs: 200, capMs: 1000 },
      webhooks: { ...E2E_WEBHOOKS, ...options.webhooks },
    },
    execution: {
      syncWaitMs: options.execution?.syncWaitMs ?? 30_000,
      retentionMs: options.execution?.retentionMs ?? 86_400_000,
      retryBaseMs: options.execution?.retryBaseMs ?? 50,
      retryMaxMs: 1000,
      runnerMemoryMb: 128,
      runnerIdleMs: 60_000,
      maxRunners: options.execution?.maxRunners ?? 16,
      prefetch: { fast: 64, medium: 8, long: 2 },
      schedules: options.execution?.schedules,
    },
    ssh: { encryptionKey: TEST_SSH_ENCRYPTION_KEY, idleSeconds: 60, allowedCidrs: options.sshAllowedCidrs },
    apiKeyUsageFlushMs: 200,
    // Simulated people come from addresses of their own (`clientAddress()`), through this
    // process on loopback, which the fleet therefore trusts as a proxy. The default trusts none.
    trustProxy: ['loopback'],
    dashboardOrigin: options.dashboardOrigin ? { port: 0 } : undefined,
    commandGroupLimit: options.commandGroupLimit,
    rateLimitEnabled: options.rateLimitEnabled,
    billing: options.billing,
    billingClock: options.billingClock,
    // Both ways to the services get the whole suite: embedded as `npm start` runs, real as the
    // distributed fleet forwards (over HTTP, through the gateway's proxy).
    hops: mode === 'real' ? 'http' : 'in-process',
  });
  return {
    url: fleet.url,
    dashboard: fleet.dashboard,
    dataDir,
    infra,
    infraEnv,
    gatewayConfig: fleet.gatewayConfig,
    stopWorkers: () => fleet.stopWorkers(),
    async stop() {
      await fleet.stop();
      await infra.close();
      await rm(dataDir, { recursive: true, force: true });
      if (mode === 'real') {
        await scratch!.drop();
        await dropServiceRoles(realUrls.database!, roles!);
        await deleteCachePrefix(realUrls.cache!, cachePrefix);
        await destroyBusPrefix(realUrls.bus!, busPrefix);
      }
      // No token, key, password, access code or webhook secret the run handled may be in a log line.
      leaks.push(...linesHoldingSecrets(logLines));
      if (leaks.length > 0) throw new Error(`The fleet logged ${leaks.length} secret(s):\n${leaks.slice(0, 20).join('\n')}`);
    },
  };
}

const PROXIED = {
  database: { url: () => realUrls.database!, port: 5432, option: 'databaseUrl' },
  cache: { url: () => realUrls.cache!, port: 6379, option: 'redisUrl' },
  bus: { url: () => realUrls.bus!, port: 5672, option: 'amqpUrl' },
} as const;

/**
 * A real-infrastructure fleet whose Postgres (`database`), Redis (`cache`) or RabbitMQ (`bus`)
 * connections go through a TCP proxy, which a test cuts to play that server going away and resumes.
 */
export async function startFleetThroughProxy(server: keyof typeof PROXIED, options: TestFleetOptions = {}): Promise<{ fleet: TestFleet; proxy: TcpProxy }> {
  const target = new URL(PROXIED[server].url());
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || PROXIED[server].port) });
  const throughProxy = (url: string) => {
    const through = new URL(url);
    through.host = `127.0.0.1:${proxy.port}`;
    return through.toString();
  };
  const fleet = await startTestFleet('real', { ...options, [PROXIED[server].option]: throughProxy });
  return { fleet, proxy };
}

/** Log lines a fleet holds before it scans and lets go of the older half. */
const KEPT_LINES = 100_000;

/** A stream that keeps each line written to it (and prints it with E2E_LOGS), calling `full` past KEPT_LINES. */
function lineCollector(lines: string[], full?: () => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = chunk.toString('utf8');
      lines.push(line);
      if (full && lines.length > KEPT_LINES) full();
      if (process.env.E2E_LOGS) process.stderr.write(line);
      done();
    },
  });
}
