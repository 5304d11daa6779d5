import { mkdir, rm } from 'node:fs/promises';
import { Router, type Request, type Response } from 'express';
import multer from 'multer';
import { requireIdentity } from '@svc/auth';
import { CreateDashboardBody, DASHBOARD_BUNDLE_FIELD, DASHBOARD_BUNDLE_MAX_BYTES, DashboardGrantBody, DashboardId, UploadVersionFields } from '@svc/contracts';
import { AppError, ok, parseInput, ValidationError } from '@svc/core';
import type { BundleService } from '../services/bundle.service.js';
import type { DashboardService, UploadedBundle } from '../services/dashboard.service.js';
import { bundleTooLarge, invalidTarball } from '../services/errors.js';
import { bundleFilePath, sendBundleFile } from './bundle-file.js';

function fromMulter(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'LIMIT_FILE_SIZE') return bundleTooLarge(`The bundle is larger than ${DASHBOARD_BUNDLE_MAX_BYTES} bytes`, { reason: 'bundle_too_large', limit_bytes: DASHBOARD_BUNDLE_MAX_BYTES });
  if (code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT') return invalidTarball(`send exactly one file, in the multipart field "${DASHBOARD_BUNDLE_FIELD}"`);
  return new ValidationError(`The multipart body could not be read: ${(err as Error).message}`, { field: DASHBOARD_BUNDLE_FIELD });
}

/**
 * Reads the multipart body, streaming the bundle to a file under `uploadDir` (never whole in
 * memory); resolves with it, if one was sent. The caller removes the file.
 */
function receiveBundle(upload: ReturnType<typeof multer>, req: Request, res: Response): Promise<UploadedBundle | undefined> {
  return new Promise((resolve, reject) => {
    upload.single(DASHBOARD_BUNDLE_FIELD)(req, res, (err: unknown) => {
      if (err) reject(fromMulter(err));
      else resolve(req.file && { path: req.file.path, sizeBytes: req.file.size });
    });
  });
}

/** `/api/v1/dashboards`: Part 2 "Endpoints › Dashboards", and revocation of grants (rule 9). */
export function dashboardRoutes(dashboards: DashboardService, bundles: BundleService, uploadDir: string): Router {
  const router = Router();
  const upload = multer({ dest: uploadDir, limits: { fileSize: DASHBOARD_BUNDLE_MAX_BYTES, files: 1, fields: 5, fieldSize: 16 * 1024, parts: 6 } });

  router.post('/dashboards', async (req, res) => {
    const identity = requireIdentity(req);
    res.status(201).json(ok(await dashboards.create(identity, parseInput(CreateDashboardBody, req.body))));
  });

  router.get('/dashboards', async (req, res) => {
    res.json(ok(await dashboards.list(requireIdentity(req))));
  });

  // The spec reads a dashboard by slug and deletes it by id at the same place in the path, so both
  // take one parameter, as OpenAPI needs of one path.
  router.get('/dashboards/:dashboard', async (req, res) => {
    res.json(ok(await dashboards.get(requireIdentity(req), req.params.dashboard)));
  });

  router.post('/dashboards/:dashboard_id/versions', async (req, res) => {
    const identity = requireIdentity(req);
    const dashboardId = parseInput(DashboardId, req.params.dashboard_id, 'dashboard_id');
    // Refused before the upload is read, so a stranger never costs us the transfer.
    await dashboards.owned(identity, dashboardId, 'upload versions of');
    if (!req.is('multipart/form-data')) throw invalidTarball(`send the bundle as multipart/form-data, in the field "${DASHBOARD_BUNDLE_FIELD}"`);
    await mkdir(uploadDir, { recursive: true });
    const bundle = await receiveBundle(upload, req, res);
    try {
      if (!bundle) throw invalidTarball(`the multipart field "${DASHBOARD_BUNDLE_FIELD}" with the .tar.gz bundle is missing`);
      const fields = parseInput(UploadVersionFields, { ...req.body });
      res.status(201).json(ok(await dashboards.upload(identity, dashboardId, bundle, fields)));
    } finally {
      if (bundle) await rm(bundle.path, { force: true });
    }
  });

  router.get('/dashboards/:slug/bundle/:version/*path', async (req, res) => {
    const identity = requireIdentity(req);
    const found = await dashboards.visibleBySlug(identity, req.params.slug, { recent: true });
    await sendBundleFile(req, res, await bundles.file(found, req.params.version, bundleFilePath(req)));
  });

  router.post('/dashboards/:dashboard_id/grant', async (req, res) => {
    const identity = requireIdentity(req);
    const dashboardId = parseInput(DashboardId, req.params.dashboard_id, 'dashboard_id');
    res.json(ok(await dashboards.grant(identity, dashboardId, parseInput(DashboardGrantBody, req.body))));
  });

  router.delete('/dashboards/:dashboard_id/grant', async (req, res) => {
    const identity = requireIdentity(req);
    const dashboardId = parseInput(DashboardId, req.params.dashboard_id, 'dashboard_id');
    res.json(ok(await dashboards.revoke(identity, dashboardId, parseInput(DashboardGrantBody, req.body))));
  });

  router.delete('/dashboards/:dashboard', async (req, res) => {
    const identity = requireIdentity(req);
    const dashboardId = parseInput(DashboardId, req.params.dashboard, 'dashboard');
    res.json(ok(await dashboards.delete(identity, dashboardId)));
  });

  return router;
}
