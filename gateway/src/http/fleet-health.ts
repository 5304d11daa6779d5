import type { Bus } from '@svc/bus';
import type { Cache } from '@svc/cache';
import { WORKER_PING_RPC, type WorkerDetails } from '@svc/contracts';
import type { Database } from '@svc/db';
import type { HealthChecks } from './health.routes.js';

/**
 * Real checks: a query on the database, a PING on the cache, and a request/reply round trip
 * over the bus that only an execution worker answers (any other service's answer would say
 * nothing about whether commands can run).
 */
export function fleetHealthChecks(infra: { database: Database; cache: Cache; bus: Bus }): HealthChecks {
  let details: WorkerDetails | undefined;
  return {
    database: () => infra.database.healthy(),
    cache: () => infra.cache.healthy(),
    async worker() {
      if (!(await infra.bus.healthy())) return false;
      const answer = await infra.bus.request(WORKER_PING_RPC, {}, { timeoutMs: 1500 });
      // Workers that predate Python packs say nothing of it.
      details = answer?.python === undefined ? undefined : { python: answer.python };
      return answer?.service === 'execution-worker';
    },
    workerDetails: () => details,
  };
}
