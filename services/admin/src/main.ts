import { runService } from '@svc/platform';
import { createAdminService } from './app.js';
import { adminConfigFromEnv, loadAdminEnv } from './env.js';

const env = loadAdminEnv(process.env);
await runService('admin', env, (deps) => createAdminService({ ...deps, config: adminConfigFromEnv(env, env.SVC_INTERNAL_SECRET) }));
