import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import { internalIdentity } from '@svc/auth';
import { correlationMiddleware, errorBody, errorHandler, HeadersTooLargeError, jsonBody, notFoundHandler, refuseNulInUrl, ServiceUnavailableError, TimeoutError, ValidationError, type AppError, type Logger } from '@svc/core';
import { isConnectionFailure } from '@svc/db';
import { httpMetrics, matchedRoute } from '@svc/metrics';
import { httpTracing } from '@svc/tracing';
import { healthProbes, type ReadinessChecks } from './health.js';

/** A request that failed because the database was out of reach: a 503 to try again, not a 500. */
const databaseAway: ErrorRequestHandler = (err, _req, _res, next) => {
  next(isConnectionFailure(err) ? new ServiceUnavailableError('The database cannot be reached; try again shortly') : err);
};

/**
 * The express app every service runs behind the gateway: the orchestrator's probes
 * (`/healthz`, `/readyz`), correlation id, the gateway's identity token, no `%00` in the URL,
 * JSON bodies, the service's routes under `/api/v1` (and any root routes, which parse their own
 * bodies), JSON 404 and errors (503 when the database could not be reached).
 */
export function createServiceApp(options: {
  /** Names the service in its request metrics. */
  service: string;
  routes: Router[];
  /** Routes outside `/api/v1` that read their own bodies (e.g. `POST /mcp`). */
  rootRoutes?: Router[];
  internalSecret: string;
  log: Logger;
  extra?: RequestHandler[];
  /** What `GET /readyz` checks (none: ready while serving). */
  readiness?: ReadinessChecks;
}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.use(healthProbes(options.readiness));
  app.use(httpMetrics(options.service));
  // Continues the gateway's trace: its traceparent, or the span it handed this request over in.
  app.use(httpTracing({ routeOf: matchedRoute, continueTrace: true }));
  app.use(correlationMiddleware());
  app.use(internalIdentity(options.internalSecret));
  app.use(refuseNulInUrl());
  for (const routes of options.rootRoutes ?? []) app.use(routes);
  app.use(...jsonBody());
  for (const extra of options.extra ?? []) app.use(extra);
  for (const routes of options.routes) app.use('/api/v1', routes);
  app.use(notFoundHandler());
  app.use(databaseAway);
  app.use(errorHandler(options.log));
  return app;
}

function clientErrorOf(code: string | undefined): AppError {
  if (code === 'HPE_HEADER_OVERFLOW') return new HeadersTooLargeError(`The request's headers exceed ${maxHeaderSize} bytes`, { limit_bytes: maxHeaderSize });
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new TimeoutError('The request did not arrive in time');
  return new ValidationError('Malformed HTTP request', { issue: code ?? 'unreadable' });
}

/**
 * What Node's HTTP parser refuses before express sees a request (headers over
 * `maxHeaderSize`, a malformed request line) answered with the error body, where Node would
 * send an empty one, and the connection closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight) return void socket.destroy();
  const error = clientErrorOf(err.code);
  const correlationId = randomUUID();
  const body = JSON.stringify(errorBody(error, correlationId));
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}`,
    'Content-Type: application/json; charset=utf-8',
    // The gateway's security headers do not reach an answer written before express.
    'X-Content-Type-Options: nosniff',
    "Content-Security-Policy: default-src 'none'",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${correlationId}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** Listens and resolves with the server once bound (port 0 picks a free one). */
export function listen(app: express.Express, port: number, host = '0.0.0.0'): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(server)));
    server.keepAliveTimeout = 65_000;
    server.on('clientError', answerClientError);
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/**
 * Stops cleanly on SIGTERM/SIGINT: runs `stop` (stop accepting, drain, close pools) and
 * exits, or exits with 1 when that takes longer than `graceMs`.
 */
export function onShutdown(stop: () => Promise<void>, log: Logger, graceMs = 10_000): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    const timer = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    stop()
      .then(() => process.exit(0))
      .catch((err: Error) => {
        log.error('shutdown failed', { error: err.message });
        process.exit(1);
      });
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
