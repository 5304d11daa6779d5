import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@svc/core';
import { createAdminService, type AdminConfig } from '@svc/admin';
import { createBillingService, type BillingConfig, type Clock } from '@svc/billing';
import { SVC_VERSION } from '@svc/contracts';
import { createExecutionService, createExecutionWorker, type ExecutionConfig } from '@svc/execution';
import { createGateway, DEFAULT_COMMAND_GROUP_LIMIT, fleetHealthChecks, type CommandGroupLimit, type GatewayConfig, type ServiceName, type TrustProxy } from '@svc/gateway';
import { createIdentityService, type IdentityConfig } from '@svc/identity';
import { createRegistryService, registryConfigFromEnv } from '@svc/registry';
import { createSshService, type SshConfig } from '@svc/ssh';
import { createStorageService, type StorageConfig } from '@svc/storage';
import { createNotifyService, loadNotifySettings, notifyConfigFromEnv, type NotifyConfig } from '@svc/notify';
import { createDashboardService, dashboardConfigFromEnv } from '@svc/dashboard';
import { answerClientError, closeServer, createServiceApp, listen, type Infrastructure, type ServiceModule } from '@svc/platform';

const require = createRequire(import.meta.url);

/** A service's committed migrations, found through its package wherever this code was bundled. */
function migrationsOf(pkg: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), 'drizzle');
}

export interface FleetOptions {
  infra: Infrastructure;
  /** A logger per service, so every line names the service that wrote it. */
  logger: (service: string) => Logger;
  port: number;
  host?: string;
  secrets: { jwtSecret: string; internalSecret: string };
  /** Where services keep files of their own (the registry's package files), as SVC_DATA_DIR. */
  dataDir: string;
  /** Where packages and bundles are kept instead (`BLOB_STORE_URL`, `BLOB_STORE_ENDPOINT`): a bucket or a folder that replicas share. */
  blobStore?: { url?: string; endpoint?: string };
  identity: Omit<IdentityConfig, 'jwtSecret' | 'internalSecret' | 'migrationsFolder'>;
  execution: Omit<ExecutionConfig, 'dataDir' | 'migrationsFolder' | 'version' | 'rateLimit'>;
  storage?: Partial<Omit<StorageConfig, 'migrationsFolder'>>;
  admin?: Partial<Omit<AdminConfig, 'migrationsFolder'>>;
  /** Billing's settings (without a processor key its checkout, portal and paid registration answer 503). */
  billing?: Partial<Omit<BillingConfig, 'migrationsFolder'>>;
  /** Billing's clock, which tests move to play out a grace period. */
  billingClock?: Clock;
  /** Webhook and e-mail settings; by default those of an empty environment (e-mails as `.eml` files on PGlite). */
  notify?: Omit<NotifyConfig, 'migrationsFolder'>;
  /** The SSH service: its encryption key is required (`SVC_SSH_ENCRYPTION_KEY`). */
  ssh: Omit<SshConfig, 'migrationsFolder'>;
  rateLimitEnabled?: boolean;
  rateLimitStorage?: 'redis' | 'memory';
  apiKeyUsageFlushMs?: number;
  /** The per-user limit of `/api/v1/commands/*`; default 100 per 60 s. */
  commandGroupLimit?: CommandGroupLimit;
  /** Whose `X-Forwarded-For` the gateway believes (`SVC_TRUST_PROXY`); default none. */
  trustProxy?: TrustProxy;
  /**
   * The dashboard origin: the gateway's second listener on `port` (0: a free one), serving
   * bundle files only, and the origin browsers reach it at (default `http://localhost:<port>`),
   * which entry points name. Without it there is one origin: bundle URLs are the API's paths.
   */
  dashboardOrigin?: { port: number; origin?: string | undefined };
  /**
   * How the gateway reaches the services: handed over in this process (default), or over
   * loopback HTTP through its proxy, as in the distributed fleet.
   */
  hops?: 'in-process' | 'http';
  /**
   * Where clients reach the gateway (`SVC_PUBLIC_URL`): the OAuth issuer, and `<url>/mcp` the
   * resource its tokens are for. Default `http://localhost:<port>` (`http://<host>:<port>` for a
   * loopback host other than all interfaces), the port the gateway was bound to.
   */
  publicUrl?: string;
}

export interface Fleet {
  /** Base URL of the gateway, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Where the dashboard origin's listener is (loopback URL), and the origin entry points name; undefined with one origin. */
  dashboard?: { url: string; origin: string };
  /** What the gateway was built with (service URLs included): a second gateway replica can be made from it. */
  gatewayConfig: GatewayConfig;
  /** Stops the execution workers alone (the services keep serving), as when every worker is gone. */
  stopWorkers(): Promise<void>;
  /** Stops every listener and service; work in flight gets `graceMs` to finish (workers hand back what runs past it). */
  stop(graceMs?: number): Promise<void>;
}

/** Billing without a processor: plans and status work, the rest answers that billing is not configured. */
const DEFAULT_BILLING: BillingConfig = {
  stripeApiBase: 'https://api.stripe.com',
  registrationReturnUrl: 'http://localhost:8080/register?session_id={CHECKOUT_SESSION_ID}',
  schedulerIntervalSeconds: 60,
};

const portOf = (server: Server) => (server.address() as AddressInfo).port;

function urlOf(server: Server): string {
  return `http://127.0.0.1:${portOf(server)}`;
}

/**
 * A listener bound before the app it serves exists: the gateway's and the dashboard origin's
 * (their ports may be free ones) must be known when identity and the dashboard service are made,
 * before the gateway. It answers 503 until `serve` is called, which happens before the fleet
 * reports itself up.
 */
function listenFirst(port: number, host: string): Promise<{ server: Server; serve(app: RequestListener): void }> {
  let app: RequestListener = (_req, res) => void res.writeHead(503, { 'retry-after': '1' }).end();
  const server = createServer((req, res) => app(req, res));
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve({ server, serve: (given) => void (app = given) }));
  });
}

/**
 * Every service in this process on the given infrastructure behind the gateway on `port`. Each
 * service also listens on a loopback port of its own, which the gateway uses with `hops: 'http'`
 * (the distributed fleet's path) and a second gateway replica can use.
 */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const { infra, logger, secrets } = options;
  const deps = (name: string) => ({ ...infra, log: logger(name) });
  const rateLimitEnabled = options.rateLimitEnabled ?? true;
  const rateLimitStorage = options.rateLimitStorage ?? (infra.cache.kind === 'redis' ? 'redis' : 'memory');
  const execution = { ...options.execution, version: SVC_VERSION, rateLimit: { enabled: rateLimitEnabled, storage: rateLimitStorage }, dataDir: options.dataDir, migrationsFolder: migrationsOf('@svc/execution') };
  const host = options.host ?? '0.0.0.0';
  // Bound before the services are made: the OAuth issuer names its port, which may be a free one.
  const gatewayListener = await listenFirst(options.port, host);
  const publicUrl = options.publicUrl ?? `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${portOf(gatewayListener.server)}`;
  const dashboardListener = options.dashboardOrigin && (await listenFirst(options.dashboardOrigin.port, host));
  const dashboardOrigin = dashboardListener && (options.dashboardOrigin?.origin ?? `http://localhost:${portOf(dashboardListener.server)}`);

  const services: Record<ServiceName, ServiceModule> = {
    identity: createIdentityService({
      ...deps('identity'),
      config: { ...options.identity, publicUrl, jwtSecret: secrets.jwtSecret, internalSecret: secrets.internalSecret, migrationsFolder: migrationsOf('@svc/identity') },
    }),
    registry: createRegistryService({
      ...deps('registry'),
      // The worker's own interpreter: what Python packs published here will run on.
      config: { ...registryConfigFromEnv({ SVC_DATA_DIR: options.dataDir, ...blobStoreEnvOf(options), SVC_PYTHON: options.execution.sandbox?.python }), migrationsFolder: migrationsOf('@svc/registry') },
    }),
    execution: createExecutionService({ ...deps('execution'), config: execution }),
    storage: createStorageService({
      ...deps('storage'),
      config: { sweepIntervalSeconds: 60, secretsKey: secrets.internalSecret, ...options.storage, migrationsFolder: migrationsOf('@svc/storage') },
    }),
    admin: createAdminService({ ...deps('admin'), config: { auditKey: secrets.internalSecret, ...options.admin, migrationsFolder: migrationsOf('@svc/admin') } }),
    billing: createBillingService({
      ...deps('billing'),
      clock: options.billingClock,
      config: { ...DEFAULT_BILLING, ...options.billing, migrationsFolder: migrationsOf('@svc/billing') },
    }),
    notify: createNotifyService({
      ...deps('notify'),
      config: {
        ...(options.notify ?? notifyConfigFromEnv({ ...loadNotifySettings({}), SVC_DATA_DIR: options.dataDir }, infra.database.kind === 'pglite')),
        migrationsFolder: migrationsOf('@svc/notify'),
      },
    }),
    dashboard: createDashboardService({
      ...deps('dashboard'),
      config: {
        ...dashboardConfigFromEnv({ SVC_DATA_DIR: options.dataDir, ...blobStoreEnvOf(options), SVC_INTERNAL_SECRET: secrets.internalSecret, SVC_DASHBOARD_ORIGIN: dashboardOrigin ?? null }),
        migrationsFolder: migrationsOf('@svc/dashboard'),
      },
    }),
    ssh: createSshService({ ...deps('ssh'), config: { ...options.ssh, migrationsFolder: migrationsOf('@svc/ssh') } }),
  };
  // Workers take jobs from the bus and serve no HTTP.
  const workers: ServiceModule[] = [
    {
      routes: [],
      ...createExecutionWorker({ ...deps('execution-worker'), config: execution }),
    },
  ];
  for (const worker of workers) await worker.start();

  const servers: Server[] = [];
  const urls = {} as Record<ServiceName, string>;
  const apps = {} as Record<ServiceName, ReturnType<typeof createServiceApp>>;
  for (const [name, service] of Object.entries(services) as [ServiceName, ServiceModule][]) {
    await service.start();
    apps[name] = createServiceApp({ service: name, routes: service.routes, rootRoutes: service.rootRoutes, internalSecret: secrets.internalSecret, log: logger(name) });
    const server = await listen(apps[name], 0, '127.0.0.1');
    servers.push(server);
    urls[name] = urlOf(server);
  }

  const gatewayConfig: GatewayConfig = {
    jwtSecret: secrets.jwtSecret,
    internalSecret: secrets.internalSecret,
    services: urls,
    rateLimitEnabled,
    rateLimitStorage,
    commandGroupLimit: options.commandGroupLimit ?? DEFAULT_COMMAND_GROUP_LIMIT,
    trustProxy: options.trustProxy ?? false,
    version: SVC_VERSION,
    apiKeyUsageFlushMs: options.apiKeyUsageFlushMs,
    publicUrl,
    dashboardOrigin: dashboardOrigin || undefined,
  };
  const inProcess = (options.hops ?? 'in-process') === 'in-process' ? apps : {};
  const gateway = createGateway({ ...deps('gateway'), health: fleetHealthChecks(infra), config: gatewayConfig, inProcess });
  gatewayListener.serve(gateway.app);
  const gatewayServer = gatewayListener.server;
  dashboardListener?.serve(gateway.dashboardApp);

  const stopWorkers = async (graceMs?: number) => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop(graceMs)));
  };
  return {
    url: urlOf(gatewayServer),
    dashboard: dashboardListener && dashboardOrigin ? { url: urlOf(dashboardListener.server), origin: dashboardOrigin } : undefined,
    gatewayConfig,
    stopWorkers,
    async stop(graceMs?: number) {
      await Promise.all([closeServer(gatewayServer, graceMs), dashboardListener && closeServer(dashboardListener.server, graceMs)]);
      await gateway.stop();
      for (const server of servers) await closeServer(server, graceMs);
      // Workers first: a job or a pack fetch in progress still asks the services.
      await stopWorkers(graceMs);
      for (const service of Object.values(services)) await service.stop();
    },
  };
}

function blobStoreEnvOf(options: FleetOptions): { BLOB_STORE_URL?: string; BLOB_STORE_ENDPOINT?: string } {
  return { BLOB_STORE_URL: options.blobStore?.url, BLOB_STORE_ENDPOINT: options.blobStore?.endpoint };
}
