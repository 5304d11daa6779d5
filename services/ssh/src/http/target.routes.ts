import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { SshTargetCreateBody, SshTargetParams, SshTargetUpdateBody } from '@svc/contracts';
import { parseInput } from '@svc/core';
import type { TargetService } from '../services/target.service.js';

/** `/api/v1/ssh/targets`: the caller's tenant's targets. Bodies are bare (Part 2), errors the usual envelope. */
export function targetRoutes(targets: TargetService): Router {
  const router = Router();
  const idOf = (params: unknown) => parseInput(SshTargetParams, params, 'path').id;

  router.get('/ssh/targets', async (req, res) => {
    res.json(await targets.list(requireIdentity(req).tenantId));
  });

  router.post('/ssh/targets', async (req, res) => {
    const { tenantId } = requireIdentity(req);
    res.status(201).json(await targets.create(tenantId, parseInput(SshTargetCreateBody, req.body)));
  });

  router.get('/ssh/targets/:id', async (req, res) => {
    const { tenantId } = requireIdentity(req);
    res.json(await targets.get(tenantId, idOf(req.params)));
  });

  router.put('/ssh/targets/:id', async (req, res) => {
    const { tenantId } = requireIdentity(req);
    const id = idOf(req.params);
    res.json(await targets.update(tenantId, id, parseInput(SshTargetUpdateBody, req.body)));
  });

  router.delete('/ssh/targets/:id', async (req, res) => {
    const { tenantId } = requireIdentity(req);
    await targets.delete(tenantId, idOf(req.params));
    res.status(204).end();
  });

  router.post('/ssh/targets/:id/verify', async (req, res) => {
    const { tenantId } = requireIdentity(req);
    res.json(await targets.verify(tenantId, idOf(req.params)));
  });

  return router;
}
