import { Router, type Request } from 'express';
import { requireIdentity } from '@svc/auth';
import { SecretPackParams, SecretParams, SecretPutBody, type SecretList, type SecretWrite } from '@svc/contracts';
import { NotFoundError, ok, parseInput } from '@svc/core';
import type { SecretScope } from '../repositories/secret.repository.js';
import type { SecretService } from '../services/secret.service.js';

function scopeOf(req: Request): SecretScope & { name?: string } {
  const { tenantId } = requireIdentity(req);
  const params = req.params.name === undefined ? parseInput(SecretPackParams, req.params, 'path') : parseInput(SecretParams, req.params, 'path');
  return { tenantId, ...params };
}

const ref = (scope: SecretScope) => `@${scope.namespace}/${scope.pack}`;

/** `/api/v1/secrets/{namespace}/{pack}`: the secrets of a pack for the caller's tenant; values go in, never out. */
export function secretRoutes(secrets: SecretService): Router {
  const router = Router();

  router.get('/secrets/:namespace/:pack', async (req, res) => {
    const scope = scopeOf(req);
    res.json(ok<SecretList>({ pack: ref(scope), secrets: await secrets.list(scope) }));
  });

  router.put('/secrets/:namespace/:pack/:name', async (req, res) => {
    const { name, ...scope } = scopeOf(req);
    const { value } = parseInput(SecretPutBody, req.body);
    const written = await secrets.set(scope, name!, value);
    res.status(written.created ? 201 : 200).json(ok<SecretWrite>({ pack: ref(scope), ...written }));
  });

  router.delete('/secrets/:namespace/:pack/:name', async (req, res) => {
    const { name, ...scope } = scopeOf(req);
    if (!(await secrets.delete(scope, name!))) throw new NotFoundError(`No secret ${name} for ${ref(scope)}`, { pack: ref(scope), name });
    res.json(ok({ deleted: true }));
  });

  return router;
}
