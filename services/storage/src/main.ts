import { createLogger } from '@svc/core';
import { closeServer, createServiceApp, listen, onShutdown, openInfrastructure } from '@svc/platform';
import { createStorageService, storageConfigFromEnv } from './app.js';
import { loadStorageEnv } from './env.js';

const env = loadStorageEnv(process.env);
const log = createLogger({ service: 'storage', level: env.LOG_LEVEL });
const infra = await openInfrastructure(env, log);
const storage = createStorageService({ ...infra, log, config: storageConfigFromEnv(env) });
await storage.start();
const server = await listen(createServiceApp({ routes: storage.routes, internalSecret: env.SVC_INTERNAL_SECRET, log }), env.PORT);
log.info('storage listening', { port: env.PORT });

onShutdown(async () => {
  await closeServer(server);
  await storage.stop();
  await infra.close();
}, log);
