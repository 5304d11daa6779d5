import { join } from 'node:path';
import type { Subscription } from '@svc/bus';
import { DEFAULT_STOP_GRACE_MS } from '@svc/platform';
import { execQueueDepth, runnerPool, type Sample } from '@svc/metrics';
import { FLEET_PING_RPC, WORKER_PING_RPC } from '@svc/contracts';
import { eventOutbox, migrate, type ExecutionDeps } from '../config.js';
import { IDEMPOTENCY_WINDOW_MS, IdempotencyRepository } from '../core/repositories/idempotency.repository.js';
import { SandboxPackageRepository } from '../core/repositories/sandbox-package.repository.js';
import { TaskRepository } from '../core/repositories/task.repository.js';
import { consumeBroadcasts } from './events/broadcast.consumer.js';
import { consumeJobs, EXEC_QUEUES } from './events/task.consumer.js';
import { RunnerPool } from './runners/runner-pool.js';
import { egressHooks } from './services/egress-hooks.js';
import { PackCache } from './services/pack-cache.js';
import { PackManifests } from './services/pack-manifests.js';
import { sshHooks } from './services/ssh-hooks.js';
import { storageHooks } from './services/storage-hooks.js';
import { TaskWorker } from './services/task-worker.js';
import { DEFAULT_TENANT_SHARES, TenantShares } from './services/tenant-shares.js';
import { usageHooks } from './services/usage-hooks.js';

/** How often finished tasks past their retention lose their results. */
const PURGE_EVERY_MS = 60_000;

/**
 * The worker side: takes jobs from `exec.fast|medium|long` and runs them in warm pack runners.
 * Scales on its own (`dist/worker.js`).
 */
export function createExecutionWorker(deps: ExecutionDeps): { start(): Promise<void>; stop(graceMs?: number): Promise<void> } {
  const { database, bus, log, config } = deps;
  const manifests = new PackManifests();
  const events = eventOutbox(deps);
  const packsDir = join(config.dataDir, 'packs');
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
    python: config.sandbox?.python,
    spare: config.runnerSpare,
    // Beside the packs, so that a spare is given a pack's files as links.
    slotsDir: join(config.dataDir, 'runner-slots'),
  });
  const sandboxPackages = new SandboxPackageRepository(database.db);
  const packs = new PackCache(bus, packsDir, {
    tarball: (userId, sha256) => sandboxPackages.tarball(userId, sha256),
    synced: async (userId) => (await sandboxPackages.list(userId)).map((pack) => pack.sha256),
  });
  const shares = new TenantShares(config.tenantShares ?? DEFAULT_TENANT_SHARES, config.prefetch, config.maxRunners);
  const worker = new TaskWorker({ db: database.db, bus, events, pool, packs, shares, manifests, settings: config, log });
  const subscriptions: Subscription[] = [];
  let purge: NodeJS.Timeout | undefined;
  const unwatch: (() => void)[] = [];
  return {
    async start() {
      await migrate(deps);
      await packs.sweep();
      // Probed now, so that a host that cannot sandbox runners says so at start-up (and which Python it runs).
      const { python } = await pool.sandbox();
      subscriptions.push(await consumeBroadcasts(bus, { worker, pool, packs, manifests }, log));
      subscriptions.push(...(await consumeJobs(bus, worker, config.prefetch, config.workerQueues)));
      subscriptions.push(await bus.respond(FLEET_PING_RPC, async () => ({ service: 'execution-worker' })));
      subscriptions.push(await bus.respond(WORKER_PING_RPC, async () => ({ service: 'execution-worker', python })));
      events.start();
      unwatch.push(
        runnerPool.readFrom(() => {
          const { live, load } = pool.stats();
          return [
            [{ what: 'runners' }, live],
            [{ what: 'calls' }, load],
          ];
        }),
        // Read at scrape time from the broker: the figure a queue-depth autoscaler acts on.
        execQueueDepth.readFrom(() => Promise.all(EXEC_QUEUES.map(async (queue) => [{ queue }, await bus.depth(queue)] as Sample<'queue'>))),
      );
      purge = setInterval(() => {
        void purgeExpired(deps).catch((err: Error) => log.warn('task purge failed', { error: err.message }));
      }, PURGE_EVERY_MS);
      purge.unref();
    },
    /**
     * Takes no more jobs, lets runs finish for `graceMs`, then stops those still going and
     * hands their jobs back to the broker; jobs not yet started go back at once.
     */
    async stop(graceMs = DEFAULT_STOP_GRACE_MS) {
      clearInterval(purge);
      for (const stopWatching of unwatch.splice(0)) stopWatching();
      const settled = worker.stopTaking(graceMs);
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      settled();
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

