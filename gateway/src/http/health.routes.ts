import { Router } from 'express';

export type ComponentStatus = 'healthy' | 'degraded' | 'unhealthy';

export interface HealthChecks {
  database(): Promise<boolean>;
  cache(): Promise<boolean>;
  worker(): Promise<boolean>;
}

const CHECK_TIMEOUT_MS = 2000;

async function bounded(check: () => Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check().catch(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /health`, the spec's bare object. Without the database or the workers the fleet cannot
 * serve (unhealthy, 503); without the cache it serves on local fallbacks (degraded, 200).
 */
export function healthRoutes(checks: HealthChecks, version: string): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
    const [database, cache, worker] = await Promise.all([bounded(checks.database), bounded(checks.cache), bounded(checks.worker)]);
    const services = {
      database: database ? 'healthy' : 'unhealthy',
      cache: cache ? 'healthy' : 'degraded',
      worker: worker ? 'healthy' : 'unhealthy',
    } satisfies Record<string, ComponentStatus>;
    const status: ComponentStatus = !database || !worker ? 'unhealthy' : cache ? 'healthy' : 'degraded';
    res.status(status === 'unhealthy' ? 503 : 200).json({ status, version, services, timestamp: new Date().toISOString() });
  });
  return router;
}
