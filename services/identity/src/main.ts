import { runService } from '@svc/platform';
import { createIdentityService, identityConfigFromEnv } from './app.js';
import { loadIdentityEnv } from './env.js';

const env = loadIdentityEnv(process.env);
await runService('identity', env, (deps) => createIdentityService({ ...deps, config: identityConfigFromEnv(env) }));
