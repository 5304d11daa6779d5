import { runService } from '@svc/platform';
import { createExecutionService } from './api/app.js';
import { executionConfigFromEnv } from './config.js';
import { loadExecutionApiEnv } from './env.js';

const env = loadExecutionApiEnv(process.env);
await runService('execution', env, (deps) => createExecutionService({ ...deps, config: executionConfigFromEnv(env) }));
