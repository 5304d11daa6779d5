import { Router } from 'express';
import { requirePlatformAdmin } from '@svc/auth';
import { CreateAccessCodesBody, Uuid, ValidateAccessCodeBody } from '@svc/contracts';
import { ok, parseInput, reducedErrorBody } from '@svc/core';
import { isAccessCodeInvalid, type AccessCodeService } from '../services/access-code.service.js';

export function accessCodeRoutes(codes: AccessCodeService): Router {
  const router = Router();

  // A code that does not validate is answered in the spec's reduced form; a malformed request
  // keeps the full error body.
  router.post('/access-codes/validate', async (req, res) => {
    const body = parseInput(ValidateAccessCodeBody, req.body);
    try {
      res.json(ok(await codes.validate(body.code)));
    } catch (err) {
      if (!isAccessCodeInvalid(err)) throw err;
      res.status(err.status).json(reducedErrorBody(err.message));
    }
  });

  router.post('/access-codes', async (req, res) => {
    const identity = requirePlatformAdmin(req);
    const body = parseInput(CreateAccessCodesBody, req.body ?? {});
    res.status(201).json(ok(await codes.create(body, identity.userId)));
  });

  router.get('/access-codes', async (req, res) => {
    requirePlatformAdmin(req);
    res.json(ok(await codes.list()));
  });

  router.delete('/access-codes/:codeId', async (req, res) => {
    requirePlatformAdmin(req);
    const id = parseInput(Uuid, req.params.codeId, 'code_id');
    res.json(ok(await codes.deactivate(id)));
  });

  return router;
}
