import type { RequestHandler } from 'express';
import { INTERNAL_IDENTITY_HEADER, type Identity } from '@svc/auth';

/**
 * Hands a request to a service running in this process (the standalone), as `forwardTo` would
 * over HTTP: same request, the gateway-signed identity (or none) in the internal header. The
 * service's app answers it; the HTTP hop and its second parse are saved.
 */
export function handTo(service: RequestHandler, sign: (identity: Identity) => string): RequestHandler {
  return (req, res, next) => {
    const { identity } = req as typeof req & { identity?: Identity };
    if (identity) req.headers[INTERNAL_IDENTITY_HEADER] = sign(identity);
    else delete req.headers[INTERNAL_IDENTITY_HEADER];
    service(req, res, next);
  };
}
