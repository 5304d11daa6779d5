import { createLogger } from '@svc/core';
import { closeServer, createServiceApp, listen, onShutdown, openInfrastructure } from '@svc/platform';
import { createIdentityService, identityConfigFromEnv } from './app.js';
import { loadIdentityEnv } from './env.js';

const env = loadIdentityEnv(process.env);
const log = createLogger({ service: 'identity', level: env.LOG_LEVEL });
const infra = await openInfrastructure(env, log);
const identity = createIdentityService({ ...infra, log, config: identityConfigFromEnv(env) });
await identity.start();
const server = await listen(createServiceApp({ routes: identity.routes, internalSecret: env.SVC_INTERNAL_SECRET, log }), env.PORT);
log.info('identity listening', { port: env.PORT });

onShutdown(async () => {
  await closeServer(server);
  await identity.stop();
  await infra.close();
}, log);
