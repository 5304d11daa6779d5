import type { RequestHandler } from 'express';
import passport from 'passport';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, type Identity } from '@svc/auth';
import { AuthenticationError } from '@svc/core';
import type { PrincipalResolver } from './principal-resolver.js';

export const API_KEY_PREFIX = 'sk-svc-';

/**
 * A passport instance of the gateway's own with the `jwt` strategy: the access token's
 * signature, issuer, audience and expiry are checked, then its session is resolved to the
 * caller's Identity (null when the session was revoked).
 */
export function createPassport(jwtSecret: string, principals: PrincipalResolver): passport.PassportStatic {
  const instance = new passport.Passport() as passport.PassportStatic;
  instance.use(
    'jwt',
    new JwtStrategy(
      {
        jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
        secretOrKey: jwtSecret,
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        algorithms: ['HS256'],
      },
      (payload: { sub?: unknown; sid?: unknown }, done: (err: unknown, user?: Identity | false, info?: unknown) => void) => {
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return done(null, false, { message: 'Invalid access token' });
        principals
          .forSession(payload.sid)
          .then((identity) => (identity && identity.userId === payload.sub ? done(null, identity) : done(null, false, { message: 'Session has been revoked' })))
          .catch((err: unknown) => done(err));
      },
    ),
  );
  return instance;
}

function failureMessage(info: unknown): string {
  if (info instanceof Error) {
    if (info.name === 'TokenExpiredError') return 'Access token expired';
    if (info.message === 'No auth token') return 'Authorization header with a Bearer token is required';
    return 'Invalid access token';
  }
  return (info as { message?: string } | undefined)?.message ?? 'Invalid access token';
}

/** Requires a valid access token; API keys are refused here with a message that says so. */
export function requireJwt(instance: passport.PassportStatic): RequestHandler {
  return (req, res, next) => {
    const header = req.headers.authorization ?? '';
    if (/^Bearer\s+sk-svc-/i.test(header)) {
      return next(new AuthenticationError('API keys are not accepted on this endpoint; use an access token'));
    }
    instance.authenticate('jwt', { session: false }, (err: unknown, identity: Identity | false, info: unknown) => {
      if (err) return next(err);
      if (!identity) return next(new AuthenticationError(failureMessage(info)));
      req.identity = identity;
      next();
    })(req, res, next);
  };
}
