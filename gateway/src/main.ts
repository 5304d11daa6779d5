import { createLogger } from '@svc/core';
import { closeServer, listen, onShutdown, openInfrastructure, releaseMemoryWhenIdle } from '@svc/platform';
import { createGateway, gatewayConfigFromEnv } from './app.js';
import { fleetHealthChecks } from './http/fleet-health.js';
import { loadGatewayEnv } from './env.js';

const env = loadGatewayEnv(process.env);
const log = createLogger({ service: 'gateway', level: env.LOG_LEVEL });
const infra = await openInfrastructure(env, log);
const gateway = createGateway({ ...infra, log, health: fleetHealthChecks(infra), config: gatewayConfigFromEnv(env) });
const server = await listen(gateway.app, env.PORT);
log.info('gateway listening', { port: env.PORT });
releaseMemoryWhenIdle();

onShutdown(async () => {
  await closeServer(server);
  await gateway.stop();
  await infra.close();
}, log);
