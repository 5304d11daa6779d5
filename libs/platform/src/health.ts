import type { Server } from 'node:http';
import express, { type RequestHandler } from 'express';
import type { Bus } from '@svc/bus';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';

/** Named dependencies a process needs to serve; each answers true when usable. */
export type ReadinessChecks = Record<string, () => Promise<boolean>>;

export const LIVENESS_PATH = '/healthz';
export const READINESS_PATH = '/readyz';

/** A check that has not answered by then counts as failing, so a probe never hangs. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * A health check's answer, or false when it throws or takes longer than 2 s: what every probe
 * (`/readyz`, the gateway's `/health`) reports of one dependency.
 */
export async function boundedCheck(check: () => Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Readiness of the process's own infrastructure: a `select 1` on its database, and its bus. */
export function infrastructureReadiness(infra: { database: Database; bus: Bus }): ReadinessChecks {
  return { database: () => infra.database.healthy(), bus: () => infra.bus.healthy() };
}

/**
 * The orchestrator's probes, answered before any other middleware (no correlation id, identity
 * or body parsing, nothing logged): `GET /healthz` is 200 `{status: 'ok'}` while the process
 * serves; `GET /readyz` is 200 when every check passes and 503 otherwise, with each check's
 * outcome. They are not API routes: the gateway does not route them, and being one plain
 * middleware rather than express routes they stay out of route listings such as the gateway's
 * OpenAPI route check, which describes the public API only.
 *
 * @example
 *   app.use(healthProbes(infrastructureReadiness(infra)));
 */
export function healthProbes(readiness: ReadinessChecks = {}): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === LIVENESS_PATH) {
      res.set('Cache-Control', 'no-store').json({ status: 'ok' });
      return;
    }
    if (req.path !== READINESS_PATH) return next();
    const names = Object.keys(readiness);
    Promise.all(names.map((name) => boundedCheck(readiness[name]!)))
      .then((results) => {
        const checks = Object.fromEntries(names.map((name, i) => [name, results[i] ? 'ok' : 'failing']));
        const ready = results.every(Boolean);
        res.status(ready ? 200 : 503).set('Cache-Control', 'no-store').json({ status: ready ? 'ok' : 'unavailable', checks });
      })
      .catch(next);
  };
}

/**
 * A listener that serves only the probes, for processes without HTTP of their own (workers).
 * It is optional: when the port is taken the process runs on without it and says so.
 *
 * @example
 *   const probes = await listenForProbes(env.SVC_HEALTH_PORT, infrastructureReadiness(infra), log);
 */
export function listenForProbes(port: number, readiness: ReadinessChecks, log: Logger, host = '0.0.0.0'): Promise<Server | undefined> {
  const app = express();
  app.disable('x-powered-by');
  app.use(healthProbes(readiness));
  app.use((_req, res) => {
    res.status(404).json({ status: 'not_found' });
  });
  return new Promise((resolve) => {
    const server = app.listen(port, host);
    const failed = (err: NodeJS.ErrnoException) => {
      log.warn('health probes not served: the port could not be bound', { port, error: err.code ?? err.message });
      resolve(undefined);
    };
    server.once('error', failed);
    server.once('listening', () => {
      server.off('error', failed);
      const address = server.address();
      log.info('health probes listening', { port: typeof address === 'object' && address ? address.port : port });
      resolve(server);
    });
  });
}
