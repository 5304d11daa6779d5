import { createLogger } from '@svc/core';
import { closeServer, createServiceApp, listen, onShutdown, openInfrastructure } from '@svc/platform';
import { createRegistryService, registryConfigFromEnv } from './app.js';
import { loadRegistryEnv } from './env.js';

const env = loadRegistryEnv(process.env);
const log = createLogger({ service: 'registry', level: env.LOG_LEVEL });
const infra = await openInfrastructure(env, log);
const registry = createRegistryService({ ...infra, log, config: registryConfigFromEnv(env) });
await registry.start();
const server = await listen(createServiceApp({ routes: registry.routes, internalSecret: env.SVC_INTERNAL_SECRET, log }), env.PORT);
log.info('registry listening', { port: env.PORT });

onShutdown(async () => {
  await closeServer(server);
  await registry.stop();
  await infra.close();
}, log);
