import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import passport from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { Strategy as JwtStrategy } from 'passport-jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, secretKey, type Identity } from '@svc/auth';
import { API_KEY_PATTERN } from '@svc/contracts';
import { AuthenticationError } from '@svc/core';
import type { AuthPolicy } from '../routing/route-table.js';
import type { ApiKeyUsage } from './api-key-usage.js';
import type { PrincipalResolver } from './principal-resolver.js';

type Done = (err: unknown, user?: Identity | false, info?: unknown) => void;

/**
 * `Bearer`, one space and exactly one token (RFC 6750's b64token), nothing before or after, as
 * passport-http-bearer reads API keys. passport-jwt's own extractor took the first two words of
 * the header, so `Bearer <token> <anything>` passed as the token alone: a header carrying two
 * credentials is ambiguous, and is refused.
 */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/** The one bearer token of an Authorization header, or undefined when the header is not exactly that. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/**
 * A passport instance of the gateway's own with two strategies: `jwt` (an access token:
 * signature, issuer, audience and expiry, then its session resolved to the caller) and
 * `api-key` (an `sk-svc-` key, resolved by its SHA-256 digest).
 */
export function createPassport(jwtSecret: string, principals: PrincipalResolver): passport.PassportStatic {
  const instance = new passport.Passport() as passport.PassportStatic;
  instance.use(
    'jwt',
    new JwtStrategy(
      {
        jwtFromRequest: (req) => bearerToken(req.headers.authorization) ?? null,
        // A key object, not the string (see secretKey); passport-jwt hands it to jsonwebtoken
        // as is, though its types name only strings and buffers.
        secretOrKey: secretKey(jwtSecret) as unknown as Buffer,
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        algorithms: ['HS256'],
      },
      (payload: { sub?: unknown; sid?: unknown; exp?: unknown }, done: Done) => {
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return done(null, false, { message: 'Invalid access token' });
        // jsonwebtoken checks `exp` only when a token has one: a token without it would never expire.
        if (typeof payload.exp !== 'number') return done(null, false, { message: 'Access token without an expiry' });
        principals
          .forSession(payload.sid)
          .then((identity) => (identity && identity.userId === payload.sub ? done(null, identity) : done(null, false, { message: 'Session has been revoked' })))
          .catch((err: unknown) => done(err));
      },
    ),
  );
  instance.use(
    'api-key',
    new BearerStrategy((token: string, done: (err: unknown, user?: Identity | false, info?: { message: string; scope: string }) => void) => {
      if (!API_KEY_PATTERN.test(token)) return done(null, false, { message: 'The API key is invalid: sk-svc- and 64 hex digits expected', scope: '' });
      principals
        .forApiKey(createHash('sha256').update(token).digest('hex'))
        .then((identity) => done(null, identity ?? false, { message: 'The API key is invalid or has been revoked', scope: '' }))
        .catch((err: unknown) => done(err));
    }),
  );
  return instance;
}

function failureMessage(info: unknown): string {
  if (info instanceof Error) {
    if (info.name === 'TokenExpiredError') return 'Access token expired';
    if (info.message === 'No auth token') return 'Authorization header with a Bearer token is required';
    return 'Invalid access token';
  }
  // The bearer strategy fails with its challenge: `Bearer realm="Users", error="invalid_token",
  // error_description="<what the verify step said>"` for a key it was given and refused, a
  // bare `Bearer realm="Users"` when there was no token at all.
  if (typeof info === 'string') return /error_description="([^"]*)"/.exec(info)?.[1] ?? 'Authorization header with a Bearer token is required';
  return (info as { message?: string } | undefined)?.message ?? 'Invalid access token';
}

/**
 * The authentication step for a route's policy. Where only access tokens are accepted an API
 * key is refused with a message that says so.
 */
export function authenticator(instance: passport.PassportStatic, usage: ApiKeyUsage): (policy: AuthPolicy) => RequestHandler {
  const run =
    (strategy: 'jwt' | 'api-key'): RequestHandler =>
    (req, res, next) =>
      instance.authenticate(strategy, { session: false }, (err: unknown, identity: Identity | false, info: unknown) => {
        if (err) return next(err);
        if (!identity) return next(new AuthenticationError(failureMessage(info)));
        if (identity.apiKeyId) usage.record(identity.apiKeyId);
        req.identity = identity;
        next();
      })(req, res, next);
  const jwt = run('jwt');
  const apiKey = run('api-key');

  return (policy) => (req, res, next) => {
    if (policy === 'public') return next();
    const header = req.headers.authorization;
    const token = bearerToken(header);
    if (header !== undefined && token === undefined) return next(new AuthenticationError('The Authorization header must be "Bearer" and exactly one token'));
    const isKey = token?.startsWith('sk-svc-') ?? false;
    if (policy === 'key') {
      if (isKey) return apiKey(req, res, next);
      return next(new AuthenticationError('This endpoint accepts API keys only: Authorization: Bearer sk-svc-…'));
    }
    if (!isKey) return jwt(req, res, next);
    if (policy === 'jwt-or-key') return apiKey(req, res, next);
    next(new AuthenticationError('API keys are not accepted on this endpoint; use an access token'));
  };
}
