import { SVC_VERSION } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { createExecutionService } from '@svc/execution';
import { openInfrastructure } from '@svc/platform';
import type { TestFleet } from './fleet.js';

/**
 * A second execution API process in all but name, beside a fleet: its own database, Redis and
 * bus connections to the fleet's infrastructure, and its own scheduler. It serves no HTTP (the
 * fleet's gateway knows one execution URL); what it adds is a second scheduler claiming ticks.
 */
export async function startExecutionReplica(fleet: TestFleet, schedules: { pollMs?: number; clock?: () => Date }): Promise<{ stop(): Promise<void> }> {
  const log = createLogger({ service: 'execution-replica', level: 'error', silent: !process.env.E2E_LOGS });
  const infra = await openInfrastructure(fleet.infraEnv, log, { inMemory: true });
  const service = createExecutionService({
    ...infra,
    log,
    config: {
      version: SVC_VERSION,
      rateLimit: { enabled: true, storage: infra.cache.kind === 'redis' ? 'redis' : 'memory' },
      syncWaitMs: 30_000,
      retentionMs: 86_400_000,
      retryBaseMs: 50,
      retryMaxMs: 1000,
      runnerMemoryMb: 128,
      runnerIdleMs: 60_000,
      maxRunners: 16,
      prefetch: { fast: 64, medium: 8, long: 2 },
      dataDir: fleet.dataDir,
      schedules,
    },
  });
  await service.start();
  return {
    async stop() {
      await service.stop();
      await infra.close();
    },
  };
}
