import { runService } from '@svc/platform';
import { createNotifyService, notifyConfigFromEnv } from './app.js';
import { loadNotifyEnv } from './env.js';

const env = loadNotifyEnv(process.env);
await runService('notify', env, (deps) => createNotifyService({ ...deps, config: notifyConfigFromEnv(env, !env.DATABASE_URL) }));
