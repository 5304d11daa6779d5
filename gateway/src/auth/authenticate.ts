import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import passport from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, secretKey, type Identity } from '@svc/auth';
import { API_KEY_PATTERN } from '@svc/contracts';
import { AuthenticationError } from '@svc/core';
import type { AuthPolicy } from '../routing/route-table.js';
import type { ApiKeyUsage } from './api-key-usage.js';
import type { PrincipalResolver } from './principal-resolver.js';

type Done = (err: unknown, user?: Identity | false, info?: unknown) => void;

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
        jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
        // A key object, not the string (see secretKey); passport-jwt hands it to jsonwebtoken
        // as is, though its types name only strings and buffers.
        secretOrKey: secretKey(jwtSecret) as unknown as Buffer,
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        algorithms: ['HS256'],
      },
      (payload: { sub?: unknown; sid?: unknown }, done: Done) => {
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return done(null, false, { message: 'Invalid access token' });
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

const API_KEY_HEADER = /^Bearer\s+sk-svc-/i;

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
    const isKey = API_KEY_HEADER.test(req.headers.authorization ?? '');
    if (policy === 'key') {
      if (isKey) return apiKey(req, res, next);
      return next(new AuthenticationError('This endpoint accepts API keys only: Authorization: Bearer sk-svc-…'));
    }
    if (!isKey) return jwt(req, res, next);
    if (policy === 'jwt-or-key') return apiKey(req, res, next);
    next(new AuthenticationError('API keys are not accepted on this endpoint; use an access token'));
  };
}
