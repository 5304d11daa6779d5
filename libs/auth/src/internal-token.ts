import jwt from 'jsonwebtoken';
import type { RequestHandler, Request } from 'express';
import { AuthenticationError, PermissionError } from '@svc/core';
import { IdentitySchema, isPlatformAdmin, type Identity } from './identity.js';
import { RememberedTokens } from './remembered-tokens.js';
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

/** The identity in a token and when the token expires (ms since the epoch). */
function verified(token: string, secret: string): { identity: Identity; expiresAt: number } {
  try {
    const payload = jwt.verify(token, secretKey(secret), { algorithms: ['HS256'], audience: AUDIENCE, issuer: ISSUER }) as { identity: unknown; exp?: unknown };
    // jsonwebtoken checks `exp` only when there is one: without it a token would be good (and remembered) for ever.
    if (typeof payload.exp !== 'number') throw new Error('the token has no expiry (exp)');
    return { identity: IdentitySchema.parse(payload.identity), expiresAt: payload.exp * 1000 };
  } catch (err) {
    throw new AuthenticationError('Invalid internal identity token', {}, { cause: err });
  }
}

export function verifyInternalIdentity(token: string, secret: string): Identity {
  return verified(token, secret).identity;
}

declare module 'express-serve-static-core' {
  interface Request {
    identity?: Identity;
  }
}

/**
 * Service side: verifies the gateway's token when present and exposes `req.identity`. The
 * gateway reuses a signed token for half its life, so a token verified once is remembered, by
 * its exact text, until it expires: checking and parsing it again on every request was a
 * measurable share of a service's CPU.
 */
export function internalIdentity(secret: string): RequestHandler {
  const remembered = new RememberedTokens<Identity>();
  return (req, _res, next) => {
    const token = req.headers[INTERNAL_IDENTITY_HEADER];
    if (typeof token !== 'string') return next();
    try {
      let identity = remembered.get(token);
      if (identity === undefined) {
        const entry = verified(token, secret);
        remembered.remember(token, entry.identity, entry.expiresAt);
        identity = entry.identity;
      }
      req.identity = identity;
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

/**
 * The caller's identity when they came with an access token; 403 `PERMISSION_DENIED` for an API
 * key, as API-key management answers one (Part 1: keys run commands and read tasks, nothing
 * that acts as the person), 401 without an identity. `area` names what was refused.
 *
 * @example
 *   const identity = requireAccessToken(req, 'the development sandbox');
 */
export function requireAccessToken(req: Request, area: string): Identity {
  const identity = requireIdentity(req);
  if (identity.authKind !== 'jwt') throw new PermissionError(`API keys cannot use ${area}; use an access token`, { reason: 'access_token_required' });
  return identity;
}

/** The caller's identity when they are a platform admin (`isPlatformAdmin`); 403 otherwise, 401 without one. */
export function requirePlatformAdmin(req: Request): Identity {
  const identity = requireIdentity(req);
  if (!isPlatformAdmin(identity)) throw new PermissionError('Admin or owner role required', { reason: 'platform_admin_required' });
  return identity;
}
