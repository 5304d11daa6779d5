import { createHash } from 'node:crypto';
import type { NextFunction, RequestHandler } from 'express';
import passport from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, OAUTH_SCOPE, oauthTokenKey, secretKey, type Identity } from '@svc/auth';
import { API_KEY_PATTERN } from '@svc/contracts';
import { AuthenticationError } from '@svc/core';
import type { AuthPolicy } from '../routing/route-table.js';
import type { ApiKeyUsage } from './api-key-usage.js';
import type { PrincipalResolver } from './principal-resolver.js';
import { RememberingJwtStrategy } from './remembering-jwt-strategy.js';

/**
 * `Bearer`, one space and exactly one token (RFC 6750's b64token), nothing before or after, as
 * passport-http-bearer reads API keys. passport-jwt's own extractor took the first two words of
 * the header, so `Bearer <token> <anything>` passed as the token alone: a header carrying two
 * credentials is ambiguous, and is refused.
 */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one bearer token of an Authorization header, or undefined when the header is not exactly that. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/** What OAuth access tokens must say: who issued them, and for which resource (the MCP endpoint). */
export interface OAuthResource {
  issuer: string;
  resource: string;
}

/**
 * A passport instance of the gateway's own with three strategies: `jwt` (an access token:
 * signature, issuer, audience and expiry, then its session resolved to the caller), `api-key`
 * (an `sk-svc-` key, resolved by its SHA-256 digest) and `oauth` (an OAuth access token: its own
 * key, the platform as issuer, the MCP resource as audience (RFC 8707), then its grant resolved
 * to the caller, bound to the tenant the user chose).
 */
export function createPassport(jwtSecret: string, principals: PrincipalResolver, oauth: OAuthResource): passport.PassportStatic {
  const instance = new passport.Passport() as passport.PassportStatic;
  instance.use(
    'jwt',
    new RememberingJwtStrategy(
      {
        jwtFromRequest: (req) => bearerToken(req.headers.authorization) ?? null,
        // A key object, not the string (see secretKey); passport-jwt hands it to jsonwebtoken
        // as is, though its types name only strings and buffers.
        secretOrKey: secretKey(jwtSecret) as unknown as Buffer,
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        algorithms: ['HS256'],
      },
      (payload: { sub?: unknown; sid?: unknown; exp?: unknown }, done) => {
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
    'oauth',
    new RememberingJwtStrategy(
      {
        jwtFromRequest: (req) => bearerToken(req.headers.authorization) ?? null,
        secretOrKey: oauthTokenKey(jwtSecret) as unknown as Buffer,
        issuer: oauth.issuer,
        audience: oauth.resource,
        algorithms: ['HS256'],
      },
      (payload: { sub?: unknown; gid?: unknown; exp?: unknown }, done) => {
        if (typeof payload.sub !== 'string' || typeof payload.gid !== 'string' || !UUID.test(payload.gid)) return done(null, false, { message: 'Invalid access token' });
        if (typeof payload.exp !== 'number') return done(null, false, { message: 'Access token without an expiry' });
        principals
          .forOAuthGrant(payload.gid)
          .then((identity) => (identity && identity.userId === payload.sub ? done(null, identity) : done(null, false, { message: 'The authorization has been revoked' })))
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
 * RFC 6750's challenge for the MCP endpoint, as the MCP authorization spec has it: where the
 * resource's metadata is (RFC 9728) and the scope to ask for; `invalid_token` when a token was
 * presented and refused. Quotes and backslashes cannot appear in a quoted string: dropped.
 */
function challengeOf(oauth: OAuthResource, presented: boolean, message: string): string {
  const metadata = `${oauth.issuer}/.well-known/oauth-protected-resource${new URL(oauth.resource).pathname}`;
  const error = presented ? `, error="invalid_token", error_description="${message.replace(/["\\]/g, '')}"` : '';
  return `Bearer resource_metadata="${metadata}", scope="${OAUTH_SCOPE}"${error}`;
}

/**
 * The authentication step for a route's policy. Where only access tokens are accepted an API
 * key is refused with a message that says so.
 */
export function authenticator(instance: passport.PassportStatic, usage: ApiKeyUsage, oauth: OAuthResource): (policy: AuthPolicy) => RequestHandler {
  const run =
    (strategy: 'jwt' | 'api-key' | 'oauth'): RequestHandler =>
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
  const oauthToken = run('oauth');

  return (policy) => (req, res, next) => {
    if (policy === 'public') return next();
    const header = req.headers.authorization;
    const token = bearerToken(header);
    if (policy === 'key-or-oauth') {
      // Every refusal tells an OAuth client where to sign in.
      const challenged: NextFunction = (err?: unknown) => {
        if (err instanceof AuthenticationError) res.set('WWW-Authenticate', challengeOf(oauth, header !== undefined, err.message));
        next(err);
      };
      if (header !== undefined && token === undefined) return challenged(new AuthenticationError('The Authorization header must be "Bearer" and exactly one token'));
      return token?.startsWith('sk-svc-') ? apiKey(req, res, challenged) : oauthToken(req, res, challenged);
    }
    if (header !== undefined && token === undefined) return next(new AuthenticationError('The Authorization header must be "Bearer" and exactly one token'));
    const isKey = token?.startsWith('sk-svc-') ?? false;
    if (!isKey) return jwt(req, res, next);
    if (policy === 'jwt-or-key') return apiKey(req, res, next);
    next(new AuthenticationError('API keys are not accepted on this endpoint; use an access token'));
  };
}
