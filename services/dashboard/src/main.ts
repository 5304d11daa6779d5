import { runService } from '@svc/platform';
import { createDashboardService, dashboardConfigFromEnv } from './app.js';
import { loadDashboardEnv } from './env.js';

const env = loadDashboardEnv(process.env);
await runService('dashboard', env, (deps) => createDashboardService({ ...deps, config: dashboardConfigFromEnv(env) }));
