import { runService } from '@svc/platform';
import { billingConfigFromEnv, createBillingService } from './app.js';
import { loadBillingEnv } from './env.js';

const env = loadBillingEnv(process.env);
await runService('billing', env, (deps) => createBillingService({ ...deps, config: billingConfigFromEnv(env) }));
