import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { GrantBody } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { GrantService } from '../services/grant.service.js';

export function grantRoutes(grants: GrantService): Router {
  const router = Router();

  router.post('/registry/grants', async (req, res) => {
    const identity = requireIdentity(req);
    res.json(ok(await grants.grant(identity, parseInput(GrantBody, req.body))));
  });

  router.delete('/registry/grants', async (req, res) => {
    const identity = requireIdentity(req);
    res.json(ok(await grants.revoke(identity, parseInput(GrantBody, req.body))));
  });

  return router;
}
