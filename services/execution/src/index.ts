/**
 * The execution service as other packages use it: its two processes' factories (the API,
 * `api/app.ts`; the worker, `worker/app.ts`) and their configuration.
 */
export { createExecutionService } from './api/app.js';
export { createExecutionWorker } from './worker/app.js';
export { EXECUTION_MIGRATIONS, EXECUTION_SCHEMA, executionConfigFromEnv, type ExecutionConfig, type ExecutionDeps, type RunnerSandboxConfig } from './config.js';
export { ExecutionEnv, loadExecutionEnv } from './env.js';
export type { Sandbox as SandboxView, SandboxPack as SyncedPackView } from '@svc/contracts';
