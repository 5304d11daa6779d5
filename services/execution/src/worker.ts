import { createLogger } from '@svc/core';
import { onShutdown, openInfrastructure } from '@svc/platform';
import { createExecutionWorker, executionConfigFromEnv } from './app.js';
import { loadExecutionEnv } from './env.js';

const env = loadExecutionEnv(process.env);
const log = createLogger({ service: 'execution-worker', level: env.LOG_LEVEL });
const infra = await openInfrastructure(env, log);
const worker = createExecutionWorker({ ...infra, log, config: executionConfigFromEnv(env) });
await worker.start();
log.info('execution worker taking jobs');

// Stop taking jobs, let running ones finish (bounded by the bus's drain timeout), then close.
onShutdown(async () => {
  await worker.stop();
  await infra.close();
}, log, 30_000);
