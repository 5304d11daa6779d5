import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { CheckoutBody, PortalBody } from '@svc/contracts';
import { currentCorrelationId, ok, parseInput } from '@svc/core';
import type { BillingService } from '../services/billing.service.js';
import { listPlans } from '../services/plans.js';

/** `/api/v1/billing`: plans (public), the caller's status, checkout and the customer portal. */
export function billingRoutes(billing: BillingService): Router {
  const router = Router();

  router.get('/billing/plans', (_req, res) => {
    res.json(ok(listPlans()));
  });

  router.get('/billing/status', async (req, res) => {
    res.json(ok(await billing.status(requireIdentity(req))));
  });

  router.post('/billing/checkout', async (req, res) => {
    const caller = requireIdentity(req);
    const body = parseInput(CheckoutBody, req.body);
    // A client retrying with the same X-Request-Id gets the same session, not a second one.
    res.json(ok(await billing.checkout(caller, body, `checkout-${caller.userId}-${currentCorrelationId()}`)));
  });

  router.post('/billing/portal', async (req, res) => {
    const caller = requireIdentity(req);
    const body = parseInput(PortalBody, req.body);
    res.json(ok(await billing.portal(caller, body.return_url)));
  });

  return router;
}
