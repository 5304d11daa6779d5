import { createLogger } from '@svc/core';
import { closeServer, createServiceApp, listen, onShutdown, openInfrastructure } from '@svc/platform';
import { createAdminService } from './app.js';
import { loadAdminEnv } from './env.js';

const env = loadAdminEnv(process.env);
const log = createLogger({ service: 'admin', level: env.LOG_LEVEL });
const infra = await openInfrastructure(env, log);
const admin = createAdminService({ ...infra, log, config: {} });
await admin.start();
const server = await listen(createServiceApp({ routes: admin.routes, internalSecret: env.SVC_INTERNAL_SECRET, log }), env.PORT);
log.info('admin listening', { port: env.PORT });

onShutdown(async () => {
  await closeServer(server);
  await admin.stop();
  await infra.close();
}, log);
