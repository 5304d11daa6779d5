import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import { EventOutbox, type Bus, type Subscription } from '@svc/bus';
import type { Cache } from '@svc/cache';
import { FLEET_PING_RPC, SVC_VERSION, WORKER_PING_RPC } from '@svc/contracts';
import { CommandRunQuota } from '@svc/rate-limit';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { allowList } from '@svc/egress';
import { outbox } from './db/schema.js';
import { consumeBroadcasts, consumeJobs, consumePackChanges, consumeReplies, replyQueueName, type WorkerPrefetch } from './api/events/pack.consumer.js';
import { commandRoutes } from './api/http/run.routes.js';
import { mcpRoutes } from './api/http/mcp.routes.js';
import { taskRoutes } from './api/http/task.routes.js';
import { sandboxRoutes } from './api/http/sandbox.routes.js';
import { IdempotencyRepository } from './core/repositories/idempotency.repository.js';
import { TaskRepository } from './core/repositories/task.repository.js';
import { SandboxPackageRepository } from './core/repositories/sandbox-package.repository.js';
import { RunnerPool } from './worker/runners/runner-pool.js';
import type { SandboxMode } from './worker/runners/runner-sandbox.js';
import { CommandRunService, IDEMPOTENCY_WINDOW_MS } from './api/services/run.service.js';
import { InputValidator } from './api/services/input-validator.js';
import { PackCache } from './worker/services/pack-cache.js';
import { RegistryCatalog } from './api/services/registry-catalog.js';
import { storageHooks } from './worker/services/storage-hooks.js';
import { egressHooks, type EgressSettings } from './worker/services/egress-hooks.js';
import { PackManifests } from './worker/services/pack-manifests.js';
import { UsageLimitGate } from './api/services/usage-limit.js';
import { sshHooks } from './worker/services/ssh-hooks.js';
import { usageHooks } from './worker/services/usage-hooks.js';
import { ReplyWaiters } from './api/services/reply-waiters.js';
import { TaskService } from './api/services/task.service.js';
import { SandboxService } from './api/services/sandbox.service.js';
import { SandboxCatalog } from './api/services/sandbox-catalog.js';
import { TaskWorker } from './worker/services/task-worker.js';
import { DEFAULT_TENANT_SHARES, TenantShares, type TenantShareFractions } from './worker/services/tenant-shares.js';

export const EXECUTION_SCHEMA = 'execution';
export const EXECUTION_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));
/** How often finished tasks past their retention lose their results. */
const PURGE_EVERY_MS = 60_000;

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
  prefetch: WorkerPrefetch;
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
}

export interface ExecutionDeps {
  database: Database;
  cache: Cache;
  bus: Bus;
  log: Logger;
  config: ExecutionConfig;
}

function migrate(deps: ExecutionDeps): Promise<void> {
  return deps.database.migrate({ migrationsFolder: deps.config.migrationsFolder ?? EXECUTION_MIGRATIONS, schema: EXECUTION_SCHEMA });
}

/** Both processes write events and relay those left unsent. */
function eventOutbox({ database, bus, log, config }: ExecutionDeps): EventOutbox {
  return new EventOutbox({ db: database.db, table: outbox, bus, log, intervalMs: config.outboxIntervalMs });
}

/**
 * The API side: `POST /commands/{namespace}/{name}` and the task endpoints. It validates,
 * records the task and queues it; a synchronous caller waits for the worker's reply.
 */
export function createExecutionService(deps: ExecutionDeps): { routes: Router[]; rootRoutes: Router[]; start(): Promise<void>; stop(): Promise<void> } {
  const { database, bus, config } = deps;
  const waiters = new ReplyWaiters();
  const replyQueue = replyQueueName();
  const catalog = new RegistryCatalog(bus);
  const validator = new InputValidator();
  const events = eventOutbox(deps);
  const limits = new UsageLimitGate(deps.cache, deps.log);
  const runs = new CommandRunService(database.db, bus, events, catalog, validator, waiters, { syncWaitMs: config.syncWaitMs, replyQueue }, deps.log, limits);
  // Sandbox runs travel as installed ones do; only where their commands are found differs.
  const sandboxRuns = new CommandRunService(database.db, bus, events, new SandboxCatalog(database.db), validator, waiters, { syncWaitMs: config.syncWaitMs, replyQueue }, deps.log, limits);
  const subscriptions: Subscription[] = [];
  return {
    routes: [commandRoutes(runs), taskRoutes(new TaskService(database.db, events, config.retentionMs)), sandboxRoutes(new SandboxService(database.db, sandboxRuns))],
    rootRoutes: [mcpRoutes({ bus, runs, quota: new CommandRunQuota(deps.cache, config.rateLimit.storage, config.rateLimit.enabled), version: config.version })],
    async start() {
      await migrate(deps);
      subscriptions.push(await consumeReplies(bus, replyQueue, waiters));
      subscriptions.push(await consumePackChanges(bus, { catalog, validator }));
      events.start();
    },
    async stop() {
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      await events.stop();
    },
  };
}

/**
 * The worker side: takes jobs from `exec.fast|medium|long` and runs them in warm pack runners.
 * Scales on its own (`dist/worker.js`).
 */
export function createExecutionWorker(deps: ExecutionDeps): { start(): Promise<void>; stop(): Promise<void> } {
  const { database, bus, log, config } = deps;
  const manifests = new PackManifests();
  const events = eventOutbox(deps);
  const pool = new RunnerPool({
    logger: log,
    hooks: { ...storageHooks(bus), ...egressHooks(config.egress ?? { enabled: true }, manifests), ...sshHooks(bus, manifests), ...usageHooks(events, manifests) },
    memoryLimitMb: config.runnerMemoryMb,
    idleTimeoutMs: config.runnerIdleMs,
    maxRunners: config.maxRunners,
    runnerScript: config.runnerScript,
    sandbox: config.sandbox?.mode,
    cpuSeconds: config.sandbox?.cpuSeconds,
    openFiles: config.sandbox?.openFiles,
    runnerUid: config.sandbox?.runnerUid,
    runnerGid: config.sandbox?.runnerUid,
    outputBytesPerCall: config.sandbox?.outputBytesPerCall,
  });
  const sandboxPackages = new SandboxPackageRepository(database.db);
  const packsDir = join(config.dataDir, 'packs');
  const packs = new PackCache(bus, packsDir, {
    tarball: (userId, sha256) => sandboxPackages.tarball(userId, sha256),
    synced: async (userId) => (await sandboxPackages.list(userId)).map((pack) => pack.sha256),
  });
  const shares = new TenantShares(config.tenantShares ?? DEFAULT_TENANT_SHARES, config.prefetch, config.maxRunners);
  const worker = new TaskWorker({ db: database.db, bus, events, pool, packs, shares, settings: config, log });
  const subscriptions: Subscription[] = [];
  let purge: NodeJS.Timeout | undefined;
  return {
    async start() {
      await migrate(deps);
      await packs.sweep();
      // Probed now, so that a host that cannot sandbox runners says so at start-up.
      await pool.sandbox();
      subscriptions.push(await consumeBroadcasts(bus, { worker, pool, packs }, log));
      subscriptions.push(...(await consumeJobs(bus, worker, config.prefetch)));
      subscriptions.push(await bus.respond(FLEET_PING_RPC, async () => ({ service: 'execution-worker' })));
      subscriptions.push(await bus.respond(WORKER_PING_RPC, async () => ({ service: 'execution-worker' })));
      events.start();
      purge = setInterval(() => {
        void purgeExpired(deps).catch((err: Error) => log.warn('task purge failed', { error: err.message }));
      }, PURGE_EVERY_MS);
      purge.unref();
    },
    async stop() {
      clearInterval(purge);
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      await packs.settle();
      await pool.close();
      await events.stop();
    },
  };
}

async function purgeExpired({ database }: ExecutionDeps): Promise<void> {
  await new TaskRepository(database.db).purgeExpired();
  await new IdempotencyRepository(database.db).purgeOlderThan(new Date(Date.now() - IDEMPOTENCY_WINDOW_MS));
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
  SVC_PREFETCH_FAST: number;
  SVC_PREFETCH_MEDIUM: number;
  SVC_PREFETCH_LONG: number;
  SVC_RUNNER_SANDBOX: SandboxMode;
  SVC_RUNNER_CPU_SECONDS: number;
  SVC_RUNNER_OPEN_FILES: number;
  SVC_RUNNER_UID: number;
  SVC_RUNNER_LOG_KIB: number;
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
    prefetch: { fast: env.SVC_PREFETCH_FAST, medium: env.SVC_PREFETCH_MEDIUM, long: env.SVC_PREFETCH_LONG },
    dataDir: env.SVC_DATA_DIR,
    sandbox: {
      mode: env.SVC_RUNNER_SANDBOX,
      cpuSeconds: env.SVC_RUNNER_CPU_SECONDS,
      openFiles: env.SVC_RUNNER_OPEN_FILES,
      runnerUid: env.SVC_RUNNER_UID,
      outputBytesPerCall: env.SVC_RUNNER_LOG_KIB * 1024,
    },
    egress: { enabled: env.SVC_PACK_EGRESS, allowed: allowList(env.SVC_PACK_EGRESS_ALLOW) },
    tenantShares: env.SVC_TENANT_SHARE,
  };
}

export { ExecutionEnv, loadExecutionEnv } from './env.js';
export type { SandboxView, SyncedPackView } from './api/services/sandbox.service.js';
