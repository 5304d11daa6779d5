import type { Router } from 'express';
import { createLogger, type Logger } from '@svc/core';
import { serveMetrics } from '@svc/metrics';
import type { InfrastructureEnv } from './env.js';
import { infrastructureReadiness } from './health.js';
import { closeServer, createServiceApp, listen, onShutdown } from './http.js';
import { releaseMemoryWhenIdle } from './idle-memory.js';
import { openInfrastructure, type Infrastructure } from './infrastructure.js';

/** What every service factory returns. */
export interface ServiceModule {
  /** Mounted under `/api/v1`. */
  routes: Router[];
  /** Mounted at the root, reading their own bodies (e.g. `POST /mcp`). */
  rootRoutes?: Router[];
  /** Migrates and starts bus handlers. */
  start(): Promise<void>;
  /** Stops its consumers and work; a worker gives runs `graceMs` to finish and hands back the rest. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The whole life of a service process: open its infrastructure, build and start the service,
 * listen on `PORT` (with `/readyz` checking its database and bus), give a busy spell's memory
 * back once idle, and stop in order on SIGTERM (stop accepting, stop the service, close pools).
 *
 * @example
 *   const env = loadRegistryEnv(process.env);
 *   await runService('registry', env, (deps) => createRegistryService({ ...deps, config: registryConfigFromEnv(env) }));
 */
export async function runService(
  name: string,
  env: InfrastructureEnv & { PORT: number; SVC_INTERNAL_SECRET: string; SVC_STOP_GRACE_MS: number },
  create: (deps: Infrastructure & { log: Logger }) => ServiceModule,
): Promise<void> {
  const log = createLogger({ service: name, level: env.LOG_LEVEL });
  const infra = await openInfrastructure(env, log);
  const service = create({ ...infra, log });
  await service.start();
  const app = createServiceApp({
    service: name,
    routes: service.routes,
    rootRoutes: service.rootRoutes,
    internalSecret: env.SVC_INTERNAL_SECRET,
    log,
    readiness: infrastructureReadiness(infra),
  });
  const server = await listen(app, env.PORT);
  const metricsServer = env.SVC_METRICS_PORT === undefined ? undefined : await serveMetrics(env.SVC_METRICS_PORT);
  log.info(`${name} listening`, { port: env.PORT, metrics_port: env.SVC_METRICS_PORT ?? 'off' });
  releaseMemoryWhenIdle();
  onShutdown(async () => {
    await closeServer(server, env.SVC_STOP_GRACE_MS);
    if (metricsServer) await closeServer(metricsServer, env.SVC_STOP_GRACE_MS);
    await service.stop(env.SVC_STOP_GRACE_MS);
    await infra.close();
  }, log, env.SVC_STOP_GRACE_MS);
}
