import { createLogger } from '@svc/core';
import { closeServer, createServiceApp, listen, onShutdown, openInfrastructure } from '@svc/platform';
import { createExecutionService, executionConfigFromEnv } from './app.js';
import { loadExecutionApiEnv } from './env.js';

const env = loadExecutionApiEnv(process.env);
const log = createLogger({ service: 'execution', level: env.LOG_LEVEL });
const infra = await openInfrastructure(env, log);
const execution = createExecutionService({ ...infra, log, config: executionConfigFromEnv(env) });
await execution.start();
const server = await listen(createServiceApp({ routes: execution.routes, rootRoutes: execution.rootRoutes, internalSecret: env.SVC_INTERNAL_SECRET, log }), env.PORT);
log.info('execution listening', { port: env.PORT });

onShutdown(async () => {
  await closeServer(server);
  await execution.stop();
  await infra.close();
}, log);
