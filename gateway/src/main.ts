import type { AddressInfo } from 'node:net';
import { createLogger } from '@svc/core';
import { serveMetrics } from '@svc/metrics';
import { closeServer, listen, onShutdown, openInfrastructure, releaseMemoryWhenIdle } from '@svc/platform';
import { createGateway, gatewayConfigFromEnv } from './app.js';
import { fleetHealthChecks } from './http/fleet-health.js';
import { dashboardListenerPort, loadGatewayEnv } from './env.js';

const env = loadGatewayEnv(process.env);
const log = createLogger({ service: 'gateway', level: env.LOG_LEVEL });
const infra = await openInfrastructure(env, log);
const gateway = createGateway({ ...infra, log, health: fleetHealthChecks(infra), config: gatewayConfigFromEnv(env) });
const server = await listen(gateway.app, env.PORT);
log.info('gateway listening', { port: (server.address() as AddressInfo).port });
// The dashboard origin: bundle files only, so that no dashboard runs on the API's origin.
const dashboardPort = dashboardListenerPort(env);
const dashboardServer = dashboardPort === undefined ? undefined : await listen(gateway.dashboardApp, dashboardPort);
if (dashboardServer) log.info('gateway listening for the dashboard origin', { port: (dashboardServer.address() as AddressInfo).port });
const metricsServer = env.SVC_METRICS_PORT === undefined ? undefined : await serveMetrics(env.SVC_METRICS_PORT);
releaseMemoryWhenIdle();

onShutdown(async () => {
  const grace = env.SVC_STOP_GRACE_MS;
  await Promise.all([closeServer(server, grace), dashboardServer && closeServer(dashboardServer, grace), metricsServer && closeServer(metricsServer, grace)]);
  await gateway.stop();
  await infra.close();
}, log, env.SVC_STOP_GRACE_MS);
