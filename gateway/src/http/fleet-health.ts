import type { Bus } from '@svc/bus';
import type { Cache } from '@svc/cache';
import { FLEET_PING_RPC } from '@svc/contracts';
import type { Database } from '@svc/db';
import type { HealthChecks } from './health.routes.js';

/**
 * Real checks: a query on the database, a PING on the cache, and a request/reply round trip
 * over the bus that a service worker must answer.
 */
export function fleetHealthChecks(infra: { database: Database; cache: Cache; bus: Bus }): HealthChecks {
  return {
    database: () => infra.database.healthy(),
    cache: () => infra.cache.healthy(),
    async worker() {
      if (!(await infra.bus.healthy())) return false;
      await infra.bus.request(FLEET_PING_RPC, {}, { timeoutMs: 1500 });
      return true;
    },
  };
}
