import { Router } from 'express';
import { requireIdentity, tenantIdsOf } from '@svc/auth';
import { CommandPathParams, ListCommandsQuery } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { CatalogService } from '../services/catalog.service.js';

export function commandRoutes(catalog: CatalogService): Router {
  const router = Router();

  /** `data` as the spec shows it, with the spec's pagination object beside it. */
  router.get('/commands', async (req, res) => {
    const identity = requireIdentity(req);
    const { data, pagination } = await catalog.list(tenantIdsOf(identity), { ...parseInput(ListCommandsQuery, req.query, 'query'), tenantId: identity.tenantId });
    res.json({ ...ok(data), pagination });
  });

  router.get('/commands/:namespace/:name', async (req, res) => {
    const identity = requireIdentity(req);
    const { namespace, name } = parseInput(CommandPathParams, req.params, 'path');
    res.json(ok(await catalog.detail(tenantIdsOf(identity), identity.tenantId, namespace, name)));
  });

  return router;
}
