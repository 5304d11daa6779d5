import { createLogger } from '@svc/core';
import { serveMetrics } from '@svc/metrics';
import { closeServer, infrastructureReadiness, listenForProbes, onShutdown, openInfrastructure, releaseMemoryWhenIdle } from '@svc/platform';
import { createExecutionWorker } from './worker/app.js';
import { executionConfigFromEnv } from './config.js';
import { loadExecutionWorkerEnv } from './env.js';

const env = loadExecutionWorkerEnv(process.env);
const log = createLogger({ service: 'execution-worker', level: env.LOG_LEVEL });
const infra = await openInfrastructure(env, log);
const worker = createExecutionWorker({ ...infra, log, config: { ...executionConfigFromEnv(env), workerQueues: env.SVC_WORKER_QUEUES } });
await worker.start();
// No HTTP of its own: a small listener answers /healthz and /readyz for the orchestrator.
const probes = await listenForProbes(env.SVC_HEALTH_PORT, infrastructureReadiness(infra), log);
const metricsServer = env.SVC_METRICS_PORT === undefined ? undefined : await serveMetrics(env.SVC_METRICS_PORT);
log.info('execution worker taking jobs', { queues: env.SVC_WORKER_QUEUES });
releaseMemoryWhenIdle();

// Stop taking jobs, let running ones finish (bounded by the bus's drain timeout), then close.
// The probes answer until the jobs have drained.
onShutdown(async () => {
  await worker.stop();
  if (probes) await closeServer(probes);
  if (metricsServer) await closeServer(metricsServer);
  await infra.close();
}, log, 30_000);
