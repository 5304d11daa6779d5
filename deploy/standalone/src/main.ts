import { adminConfigFromEnv } from '@svc/admin';
import { createLogger } from '@svc/core';
import { billingConfigFromEnv } from '@svc/billing';
import { executionConfigFromEnv } from '@svc/execution';
import { dashboardListenerPort } from '@svc/gateway';
import { identityConfigFromEnv } from '@svc/identity';
import { notifyConfigFromEnv } from '@svc/notify';
import { sshConfigFromEnv } from '@svc/ssh';
import { storageConfigFromEnv } from '@svc/storage';
import { serveMetrics } from '@svc/metrics';
import { closeServer, onShutdown, openInfrastructure, releaseMemoryWhenIdle } from '@svc/platform';
import { loadStandaloneEnv } from './env.js';
import { startFleet } from './fleet.js';
import { loadOrCreateSecrets } from './secrets.js';

const env = loadStandaloneEnv(process.env);
const log = createLogger({ service: 'standalone', level: env.LOG_LEVEL });
const stored = env.SVC_JWT_SECRET && env.SVC_INTERNAL_SECRET && env.SVC_SSH_ENCRYPTION_KEY ? undefined : loadOrCreateSecrets(env.SVC_DATA_DIR);
const jwtSecret = env.SVC_JWT_SECRET ?? stored!.SVC_JWT_SECRET;
const internalSecret = env.SVC_INTERNAL_SECRET ?? stored!.SVC_INTERNAL_SECRET;
const sshEncryptionKey = env.SVC_SSH_ENCRYPTION_KEY ?? stored!.SVC_SSH_ENCRYPTION_KEY;

const infra = await openInfrastructure(env, log);
const dashboardPort = dashboardListenerPort(env);
// `SVC_DASHBOARD_ORIGIN=none` keeps one origin, as `SVC_DASHBOARD_ORIGIN_PORT=off` does.
const dashboardOrigin = dashboardPort === undefined || env.SVC_DASHBOARD_ORIGIN === null ? undefined : { port: dashboardPort, origin: env.SVC_DASHBOARD_ORIGIN };
const { jwtSecret: _sameAsAbove, internalSecret: _alsoAbove, ...identity } = identityConfigFromEnv({ ...env, SVC_JWT_SECRET: jwtSecret, SVC_INTERNAL_SECRET: internalSecret });
const fleet = await startFleet({
  infra,
  logger: (service) => createLogger({ service, level: env.LOG_LEVEL }),
  port: env.PORT,
  secrets: { jwtSecret, internalSecret },
  dataDir: env.SVC_DATA_DIR,
  blobStore: { url: env.BLOB_STORE_URL, endpoint: env.BLOB_STORE_ENDPOINT },
  identity,
  execution: executionConfigFromEnv(env),
  storage: storageConfigFromEnv(env),
  admin: adminConfigFromEnv(env, internalSecret),
  billing: billingConfigFromEnv(env),
  notify: notifyConfigFromEnv(env, infra.database.kind === 'pglite'),
  ssh: sshConfigFromEnv({ ...env, SVC_SSH_ENCRYPTION_KEY: sshEncryptionKey }),
  rateLimitEnabled: env.RATE_LIMIT_ENABLED,
  rateLimitStorage: env.RATE_LIMIT_STORAGE,
  commandGroupLimit: { points: env.RATE_LIMIT_REQUESTS, durationSeconds: env.RATE_LIMIT_WINDOW },
  trustProxy: env.SVC_TRUST_PROXY,
  dashboardOrigin,
  publicUrl: env.SVC_PUBLIC_URL,
});
// Every service of this process, and its worker, in one set of metrics (the `service` label tells them apart).
const metricsServer = env.SVC_METRICS_PORT === undefined ? undefined : await serveMetrics(env.SVC_METRICS_PORT);
log.info('svc is up', { url: fleet.url, metrics_port: env.SVC_METRICS_PORT ?? 'off', blobs: env.BLOB_STORE_URL ?? 'SVC_DATA_DIR/blobs', dashboard_origin: fleet.dashboard?.origin ?? 'none (one origin)', database: infra.database.kind, cache: infra.cache.kind, bus: infra.bus.kind });
releaseMemoryWhenIdle();

onShutdown(async () => {
  if (metricsServer) await closeServer(metricsServer, env.SVC_STOP_GRACE_MS);
  await fleet.stop(env.SVC_STOP_GRACE_MS);
  await infra.close();
}, log, env.SVC_STOP_GRACE_MS);
