import { createServer, type Server } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { httpDuration, httpRequests, metrics } from './families.js';

/** The route pattern a service's router matched (`/api/v1/storage/:key`), never the concrete path. */
export function matchedRoute(req: Request): string {
  return req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
}

/**
 * Counts every answer and times it, labelled with `routeOf`'s pattern (read once the answer is
 * sent, when the router has matched).
 */
export function httpMetrics(service: string, routeOf: (req: Request, res: Response) => string = matchedRoute): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = routeOf(req, res);
      const status = String(res.statusCode);
      httpRequests.inc({ service, method: req.method, route, status });
      httpDuration.observe({ service, method: req.method, route, status_class: `${status[0]}xx` }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

/**
 * `GET /metrics` in Prometheus's text format on `port`, a listener of its own: not reachable
 * through the gateway, and scraped even when the service's own port is saturated.
 */
export async function serveMetrics(port: number, host = '0.0.0.0'): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    metrics.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`Metrics could not be read: ${(err as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
