import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { CreateApiKeyBody, DeveloperModeBody } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { AccountService } from '../services/account.service.js';
import type { ApiKeyService } from '../services/api-key.service.js';

export function accountRoutes(accounts: AccountService, apiKeys: ApiKeyService): Router {
  const router = Router();

  router.get('/account/mode', async (req, res) => {
    res.json(ok(await accounts.mode(requireIdentity(req).userId)));
  });

  router.get('/account/organizations', async (req, res) => {
    res.json(ok(await accounts.organizationsOf(requireIdentity(req).userId)));
  });

  router.post('/account/developer-mode', async (req, res) => {
    const identity = requireIdentity(req);
    res.json(ok(await accounts.enableDeveloperMode(identity.userId, parseInput(DeveloperModeBody, req.body))));
  });

  router.post('/account/api-keys', async (req, res) => {
    const identity = requireIdentity(req);
    res.status(201).json(ok(await apiKeys.create(identity, parseInput(CreateApiKeyBody, req.body))));
  });

  router.get('/account/api-keys', async (req, res) => {
    res.json(ok(await apiKeys.list(requireIdentity(req))));
  });

  router.delete('/account/api-keys/:keyId', async (req, res) => {
    const identity = requireIdentity(req);
    res.json(ok(await apiKeys.revoke(identity, req.params.keyId)));
  });

  return router;
}

