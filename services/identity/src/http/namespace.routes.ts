import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { ok } from '@svc/core';
import type { Db } from '@svc/db';
import { checkNamespace } from '../services/namespace.service.js';

export function namespaceRoutes(db: Db): Router {
  const router = Router();
  router.get('/namespaces/:namespace/check', async (req, res) => {
    res.json(ok(await checkNamespace(db, requireIdentity(req), req.params.namespace)));
  });
  return router;
}
