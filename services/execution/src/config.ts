import { fileURLToPath } from 'node:url';
import { EventOutbox, type Bus } from '@svc/bus';
import type { Cache } from '@svc/cache';
import { SVC_VERSION } from '@svc/contracts';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { allowList } from '@svc/egress';
import { outbox } from './db/schema.js';
import type { SandboxMode } from './worker/runners/runner-sandbox.js';
import type { EgressSettings } from './worker/services/egress-hooks.js';
import type { TenantShareFractions } from './worker/services/tenant-shares.js';
import type { WorkerPrefetch } from './worker/events/task.consumer.js';
import type { Queue } from '@svc/pack-sdk';

/**
 * What both processes of the service share: their configuration and dependencies, the schema and
 * its migrations, and the outbox they write events through. The factories are `api/app.ts`
 * (`createExecutionService`) and `worker/app.ts` (`createExecutionWorker`).
 */

export const EXECUTION_SCHEMA = 'execution';
// Beside `src/` here and beside `dist/` in a bundle: this file's folder is one below the service's either way.
export const EXECUTION_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface ExecutionConfig {
  /** Platform version, reported to MCP clients. */
  version: string;
  /** The command-run budget `tools/call` draws on, shared with the gateway's REST runs. */
  rateLimit: { enabled: boolean; storage: 'redis' | 'memory' };
  syncWaitMs: number;
  retentionMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  runnerMemoryMb: number;
  runnerIdleMs: number;
  maxRunners: number;
  /** Whether a worker keeps a spare runner (`SVC_RUNNER_SPARE`); on where absent. */
  runnerSpare?: boolean;
  prefetch: WorkerPrefetch;
  /** The queues a worker takes jobs from (`SVC_WORKER_QUEUES`); all three where absent. */
  workerQueues?: readonly Queue[];
  /** Where workers unpack pack versions. */
  dataDir: string;
  migrationsFolder?: string;
  /** Path of `runner.mjs` when it is not beside the code (bundles). */
  runnerScript?: string;
  /** How often the outbox relay looks for unsent events (default 5 s). */
  outboxIntervalMs?: number;
  /** How runners are confined (README "Sandbox"); defaults where absent. */
  sandbox?: RunnerSandboxConfig;
  /** `ctx.fetch` for packs that declare network access; on, to public addresses, by default. */
  egress?: EgressSettings;
  /** How much of a worker one tenant may hold, by tier (`TenantShares`); defaults where absent. */
  tenantShares?: TenantShareFractions;
  /** The API's scheduler: how often it looks for due ticks (default 1 s), and its clock (tests run a faster one). */
  schedules?: { pollMs?: number; clock?: () => Date };
  /** When a synchronous run handed to its caller as a task is queued again (default `DETACHED_JOB_DELAY_MS`); tests shorten it. */
  detachedJobDelayMs?: number;
}

export interface RunnerSandboxConfig {
  /** `required` (default): a worker without namespaces runs no pack. */
  mode?: SandboxMode;
  /** RLIMIT_CPU of a runner over its life. Default 3600. */
  cpuSeconds?: number;
  /** RLIMIT_NOFILE of a runner. Default 128. */
  openFiles?: number;
  /** Who runners run as when the worker is root. Default 65534. */
  runnerUid?: number;
  /** Log kept per call. Default 64 KiB. */
  outputBytesPerCall?: number;
  /** The interpreter of Python packs (`SVC_PYTHON`). Default `python3`. */
  python?: string;
}

export interface ExecutionDeps {
  database: Database;
  cache: Cache;
  bus: Bus;
  log: Logger;
  config: ExecutionConfig;
}

export function migrate(deps: ExecutionDeps): Promise<void> {
  return deps.database.migrate({ migrationsFolder: deps.config.migrationsFolder ?? EXECUTION_MIGRATIONS, schema: EXECUTION_SCHEMA });
}

/** Both processes write events and relay those left unsent. */
export function eventOutbox({ database, bus, log, config }: ExecutionDeps): EventOutbox {
  return new EventOutbox({ db: database.db, table: outbox, bus, log, intervalMs: config.outboxIntervalMs });
}

export function executionConfigFromEnv(env: {
  SVC_DATA_DIR: string;
  REDIS_URL?: string;
  RATE_LIMIT_ENABLED: boolean;
  RATE_LIMIT_STORAGE?: 'redis' | 'memory';
  SVC_SYNC_WAIT_MS: number;
  SVC_TASK_RETENTION_SECONDS: number;
  SVC_RETRY_BASE_MS: number;
  SVC_RETRY_MAX_MS: number;
  SVC_RUNNER_MEMORY_MB: number;
  SVC_RUNNER_IDLE_SECONDS: number;
  SVC_MAX_RUNNERS: number;
  SVC_RUNNER_SPARE: boolean;
  SVC_PREFETCH_FAST: number;
  SVC_PREFETCH_MEDIUM: number;
  SVC_PREFETCH_LONG: number;
  SVC_RUNNER_SANDBOX: SandboxMode;
  SVC_RUNNER_CPU_SECONDS: number;
  SVC_RUNNER_OPEN_FILES: number;
  SVC_RUNNER_UID: number;
  SVC_RUNNER_LOG_KIB: number;
  SVC_PYTHON: string;
  SVC_PACK_EGRESS: boolean;
  SVC_PACK_EGRESS_ALLOW: string[];
  SVC_TENANT_SHARE: TenantShareFractions;
}): ExecutionConfig {
  return {
    version: SVC_VERSION,
    rateLimit: { enabled: env.RATE_LIMIT_ENABLED, storage: env.RATE_LIMIT_STORAGE ?? (env.REDIS_URL ? 'redis' : 'memory') },
    syncWaitMs: env.SVC_SYNC_WAIT_MS,
    retentionMs: env.SVC_TASK_RETENTION_SECONDS * 1000,
    retryBaseMs: env.SVC_RETRY_BASE_MS,
    retryMaxMs: env.SVC_RETRY_MAX_MS,
    runnerMemoryMb: env.SVC_RUNNER_MEMORY_MB,
    runnerIdleMs: env.SVC_RUNNER_IDLE_SECONDS * 1000,
    maxRunners: env.SVC_MAX_RUNNERS,
    runnerSpare: env.SVC_RUNNER_SPARE,
    prefetch: { fast: env.SVC_PREFETCH_FAST, medium: env.SVC_PREFETCH_MEDIUM, long: env.SVC_PREFETCH_LONG },
    dataDir: env.SVC_DATA_DIR,
    sandbox: {
      mode: env.SVC_RUNNER_SANDBOX,
      cpuSeconds: env.SVC_RUNNER_CPU_SECONDS,
      openFiles: env.SVC_RUNNER_OPEN_FILES,
      runnerUid: env.SVC_RUNNER_UID,
      outputBytesPerCall: env.SVC_RUNNER_LOG_KIB * 1024,
      python: env.SVC_PYTHON,
    },
    egress: { enabled: env.SVC_PACK_EGRESS, allowed: allowList(env.SVC_PACK_EGRESS_ALLOW) },
    tenantShares: env.SVC_TENANT_SHARE,
  };
}

