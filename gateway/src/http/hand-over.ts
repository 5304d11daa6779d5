import type { RequestHandler } from 'express';
import { INTERNAL_IDENTITY_HEADER, type Identity } from '@svc/auth';
import { dropTrace, injectTrace } from '@svc/tracing';

/**
 * Hands a request to a service running in this process (the standalone), as `forwardTo` would
 * over HTTP: same request, the gateway-signed identity (or none) in the internal header, the
 * gateway's span (or none) in `traceparent`. The service's app answers it; the HTTP hop and its
 * second parse are saved.
 */
export function handTo(service: RequestHandler, sign: (identity: Identity) => string): RequestHandler {
  return (req, res, next) => {
    const { identity } = req as typeof req & { identity?: Identity };
    if (identity) req.headers[INTERNAL_IDENTITY_HEADER] = sign(identity);
    else delete req.headers[INTERNAL_IDENTITY_HEADER];
    dropTrace(req.headers);
    injectTrace(req.headers);
    service(req, res, next);
  };
}
