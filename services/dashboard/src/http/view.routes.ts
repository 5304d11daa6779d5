import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { ok } from '@svc/core';
import type { BundleService } from '../services/bundle.service.js';
import type { ViewService } from '../services/view.service.js';
import { bundleFilePath, sendBundleFile } from './bundle-file.js';

/** View tokens (our design, README "Two origins"): a viewer mints one; a dashboard frame reads the files with it. */
export function viewRoutes(views: ViewService, bundles: BundleService): Router {
  const router = Router();

  router.post('/dashboards/:slug/view-tokens', async (req, res) => {
    res.status(201).json(ok(await views.mint(requireIdentity(req), req.params.slug)));
  });

  // The gateway has resolved the token's session to the viewer (`view-token` policy).
  router.get('/dashboard-views/:token/bundle/:version/*path', async (req, res) => {
    const found = await views.open(requireIdentity(req), req.params.token);
    await sendBundleFile(req, res, await bundles.file(found, req.params.version, bundleFilePath(req)));
  });

  return router;
}
