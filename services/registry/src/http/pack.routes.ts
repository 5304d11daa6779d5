import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { InstallPackBody } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { PackService } from '../services/pack.service.js';

export function packRoutes(packs: PackService): Router {
  const router = Router();

  router.get('/packs', async (req, res) => {
    res.json(ok(await packs.list(requireIdentity(req))));
  });

  router.post('/packs/install', async (req, res) => {
    const identity = requireIdentity(req);
    res.json(ok(await packs.install(identity, parseInput(InstallPackBody, req.body))));
  });

  router.delete('/packs/:packId', async (req, res) => {
    const identity = requireIdentity(req);
    res.json(ok(await packs.uninstall(identity, req.params.packId)));
  });

  return router;
}
