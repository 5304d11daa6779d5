import type { RequestHandler } from 'express';
import { viewTokenOfPath, viewTokens } from '@svc/auth';
import { AuthenticationError } from '@svc/core';
import type { PrincipalResolver } from './principal-resolver.js';

/**
 * The `view-token` policy: the credential is the `dvt_…` token in the path, which the dashboard
 * service minted for a signed-in viewer. Its signature and expiry are checked here and its
 * session resolved like an access token's, so that signing out (or any revocation) ends it at
 * once on every replica; the request then goes on as the viewer. Which dashboard it opens is the
 * dashboard service's to check.
 */
export function viewTokenAuthentication(internalSecret: string, principals: PrincipalResolver): RequestHandler {
  const tokens = viewTokens(internalSecret);
  return (req, _res, next) => {
    const token = viewTokenOfPath(req.path);
    const claims = token === undefined ? undefined : tokens.verify(token);
    if (!claims) return next(new AuthenticationError('The view token is invalid or has expired; mint a new one'));
    principals.forSession(claims.sessionId).then((identity) => {
      if (!identity || identity.userId !== claims.userId) return next(new AuthenticationError('The session this view token belongs to has ended'));
      req.identity = identity;
      next();
    }, next);
  };
}
