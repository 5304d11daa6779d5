import { runService } from '@svc/platform';
import { createRegistryService, registryConfigFromEnv } from './app.js';
import { loadRegistryEnv } from './env.js';

const env = loadRegistryEnv(process.env);
await runService('registry', env, (deps) => createRegistryService({ ...deps, config: registryConfigFromEnv(env) }));
