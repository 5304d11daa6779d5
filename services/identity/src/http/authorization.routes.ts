import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { ok } from '@svc/core';
import type { AuthorizationService } from '../services/authorization.service.js';

/** The applications the caller authorized through the OAuth consent page: listed and revoked. */
export function authorizationRoutes(authorizations: AuthorizationService): Router {
  const router = Router();

  router.get('/account/authorizations', async (req, res) => {
    res.json(ok(await authorizations.list(requireIdentity(req))));
  });

  router.delete('/account/authorizations/:authorizationId', async (req, res) => {
    res.json(ok(await authorizations.revoke(requireIdentity(req), req.params.authorizationId)));
  });

  return router;
}
