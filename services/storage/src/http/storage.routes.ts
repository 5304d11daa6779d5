import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { StorageKey, StorageListQuery, StoragePutBody } from '@svc/contracts';
import { NotFoundError, ok, parseInput } from '@svc/core';
import type { StorageService } from '../services/storage.service.js';

const notFound = (key: string) => new NotFoundError(`No storage entry with key "${key}"`, { key });

/** `/api/v1/storage`: the caller's personal tenant's entries. */
export function storageRoutes(storage: StorageService): Router {
  const router = Router();

  router.get('/storage', async (req, res) => {
    const { tenantId } = requireIdentity(req);
    const query = parseInput(StorageListQuery, req.query, 'query');
    res.json(ok(await storage.list(tenantId, query)));
  });

  router.put('/storage/:key', async (req, res) => {
    const { tenantId } = requireIdentity(req);
    const key = parseInput(StorageKey, req.params.key, 'key');
    const body = parseInput(StoragePutBody, req.body);
    const result = await storage.put(tenantId, key, body.data, body.ttl);
    res.status(result.created ? 201 : 200).json(ok(result));
  });

  router.get('/storage/:key', async (req, res) => {
    const { tenantId } = requireIdentity(req);
    const key = parseInput(StorageKey, req.params.key, 'key');
    const entry = await storage.get(tenantId, key);
    if (!entry) throw notFound(key);
    res.json(ok(entry));
  });

  router.delete('/storage/:key', async (req, res) => {
    const { tenantId } = requireIdentity(req);
    const key = parseInput(StorageKey, req.params.key, 'key');
    if (!(await storage.delete(tenantId, key))) throw notFound(key);
    res.json(ok({ deleted: true }));
  });

  return router;
}
