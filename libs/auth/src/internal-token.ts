import jwt from 'jsonwebtoken';
import type { RequestHandler, Request } from 'express';
import { AuthenticationError } from '@svc/core';
import { IdentitySchema, type Identity } from './identity.js';
import { secretKey } from './secret-key.js';

/** Header carrying the gateway-signed identity to services. */
export const INTERNAL_IDENTITY_HEADER = 'x-svc-identity';
const AUDIENCE = 'svc-internal';
const ISSUER = 'svc-gateway';
/** Short enough that a leaked token is useless, long enough to cover a proxied request. */
export const INTERNAL_TOKEN_TTL_SECONDS = 60;

/**
 * Signs the identity the gateway established, for one hop to a service.
 *
 * @example
 *   headers[INTERNAL_IDENTITY_HEADER] = signInternalIdentity(identity, env.SVC_INTERNAL_SECRET);
 */
export function signInternalIdentity(identity: Identity, secret: string, ttlSeconds = INTERNAL_TOKEN_TTL_SECONDS): string {
  return jwt.sign({ identity }, secretKey(secret), { algorithm: 'HS256', audience: AUDIENCE, issuer: ISSUER, expiresIn: ttlSeconds });
}

export function verifyInternalIdentity(token: string, secret: string): Identity {
  try {
    const payload = jwt.verify(token, secretKey(secret), { algorithms: ['HS256'], audience: AUDIENCE, issuer: ISSUER }) as { identity: unknown };
    return IdentitySchema.parse(payload.identity);
  } catch (err) {
    throw new AuthenticationError('Invalid internal identity token', {}, err);
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    identity?: Identity;
  }
}

/** Service side: verifies the gateway's token when present and exposes `req.identity`. */
export function internalIdentity(secret: string): RequestHandler {
  return (req, _res, next) => {
    const token = req.headers[INTERNAL_IDENTITY_HEADER];
    if (typeof token !== 'string') return next();
    try {
      req.identity = verifyInternalIdentity(token, secret);
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** The caller's identity, or 401 when the route was reached without one. */
export function requireIdentity(req: Request): Identity {
  if (!req.identity) throw new AuthenticationError('Authentication required');
  return req.identity;
}
