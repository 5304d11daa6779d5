import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { CreateShareBody, DashboardId, ShareId } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { BundleService } from '../services/bundle.service.js';
import type { ShareService } from '../services/share.service.js';
import { bundleFilePath, sendBundleFile } from './bundle-file.js';

/** Share links (Part 2 rule 9, our design): the owner makes, lists and revokes them; anyone holding one reads without a JWT. */
export function shareRoutes(shares: ShareService, bundles: BundleService): Router {
  const router = Router();

  router.post('/dashboards/:dashboard_id/shares', async (req, res) => {
    const identity = requireIdentity(req);
    const dashboardId = parseInput(DashboardId, req.params.dashboard_id, 'dashboard_id');
    const { expires } = parseInput(CreateShareBody, req.body ?? {});
    res.status(201).json(ok(await shares.create(identity, dashboardId, expires)));
  });

  router.get('/dashboards/:dashboard_id/shares', async (req, res) => {
    const identity = requireIdentity(req);
    res.json(ok(await shares.list(identity, parseInput(DashboardId, req.params.dashboard_id, 'dashboard_id'))));
  });

  router.delete('/dashboards/:dashboard_id/shares/:share_id', async (req, res) => {
    const identity = requireIdentity(req);
    const dashboardId = parseInput(DashboardId, req.params.dashboard_id, 'dashboard_id');
    res.json(ok(await shares.revoke(identity, dashboardId, parseInput(ShareId, req.params.share_id, 'share_id'))));
  });

  router.get('/shared-dashboards/:token', async (req, res) => {
    res.json(ok(await shares.get(req.params.token)));
  });

  router.get('/shared-dashboards/:token/bundle/:version/*path', async (req, res) => {
    const found = await shares.open(req.params.token);
    await sendBundleFile(req, res, await bundles.file(found, req.params.version, bundleFilePath(req)));
  });

  return router;
}
