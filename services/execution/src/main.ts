import { runService } from '@svc/platform';
import { createExecutionService, executionConfigFromEnv } from './app.js';
import { loadExecutionApiEnv } from './env.js';

const env = loadExecutionApiEnv(process.env);
await runService('execution', env, (deps) => createExecutionService({ ...deps, config: executionConfigFromEnv(env) }));
