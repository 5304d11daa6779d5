import { Router } from 'express';
import { requireIdentity, requirePlatformAdmin } from '@svc/auth';
import { UsageByUserQuery, UsageHistoryQuery, UsageLimitsBody, UsageQuery } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { UsageService } from '../services/usage.service.js';
import type { HardLimits } from '../usage/hard-limits.js';

/** `/api/v1/usage`: the caller's active tenant's usage this month; `by-user` for platform admins only; `PUT limits` turns hard limits on or off. */
export function usageRoutes(usage: UsageService, hardLimits: HardLimits): Router {
  const router = Router();

  router.get('/usage', async (req, res) => {
    const caller = requireIdentity(req);
    const { view } = parseInput(UsageQuery, req.query, 'query');
    res.json(ok(view === 'dashboard' ? await usage.dashboard(caller) : await usage.summary(caller)));
  });

  router.get('/usage/history', async (req, res) => {
    const caller = requireIdentity(req);
    const { months } = parseInput(UsageHistoryQuery, req.query, 'query');
    res.json(ok(await usage.history(caller, months)));
  });

  router.get('/usage/by-pack', async (req, res) => {
    res.json(ok(await usage.byPack(requireIdentity(req))));
  });

  router.get('/usage/by-user', async (req, res) => {
    requirePlatformAdmin(req);
    const { tenant_id } = parseInput(UsageByUserQuery, req.query, 'query');
    res.json(ok(await usage.byUser(tenant_id)));
  });

  router.put('/usage/limits', async (req, res) => {
    const caller = requireIdentity(req);
    const { hard } = parseInput(UsageLimitsBody, req.body, 'body');
    res.json(ok(await hardLimits.set(caller, hard)));
  });

  return router;
}
