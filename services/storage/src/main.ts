import { runService } from '@svc/platform';
import { createStorageService, storageConfigFromEnv } from './app.js';
import { loadStorageEnv } from './env.js';

const env = loadStorageEnv(process.env);
await runService('storage', env, (deps) => createStorageService({ ...deps, config: { secretsKey: env.SVC_INTERNAL_SECRET, ...storageConfigFromEnv(env) } }));
