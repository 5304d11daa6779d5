import { Router } from 'express';
import type { ComponentStatus, Health, WorkerDetails } from '@svc/contracts';
import { boundedCheck } from '@svc/platform';

export interface HealthChecks {
  database(): Promise<boolean>;
  cache(): Promise<boolean>;
  worker(): Promise<boolean>;
  /** Details of the worker that answered `worker()` last, if it gave any. */
  workerDetails?(): WorkerDetails | undefined;
}

/**
 * `GET /health`, the spec's bare object. Without the database or the workers the fleet cannot
 * serve (unhealthy, 503); without the cache it serves on local fallbacks (degraded, 200).
 */
export function healthRoutes(checks: HealthChecks, version: string): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
    const [database, cache, worker] = await Promise.all([boundedCheck(checks.database), boundedCheck(checks.cache), boundedCheck(checks.worker)]);
    const services = {
      database: database ? 'healthy' : 'unhealthy',
      cache: cache ? 'healthy' : 'degraded',
      worker: worker ? 'healthy' : 'unhealthy',
    } satisfies Record<string, ComponentStatus>;
    const status: ComponentStatus = !database || !worker ? 'unhealthy' : cache ? 'healthy' : 'degraded';
    const details = worker ? checks.workerDetails?.() : undefined;
    const health: Health = { status, version, services, ...(details ? { details: { worker: details } } : {}), timestamp: new Date().toISOString() };
    res.status(status === 'unhealthy' ? 503 : 200).json(health);
  });
  return router;
}
