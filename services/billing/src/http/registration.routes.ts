import { Router } from 'express';
import { CheckoutSessionId, RegistrationCheckoutBody } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { RegistrationService } from '../services/registration.service.js';

/** `/api/v1/registration`: public; the gateway limits checkouts per client IP. */
export function registrationRoutes(registration: RegistrationService): Router {
  const router = Router();

  router.post('/registration/checkout', async (req, res) => {
    const body = parseInput(RegistrationCheckoutBody, req.body ?? {});
    res.json(ok(await registration.checkout(body.ref)));
  });

  router.get('/registration/session/:sessionId', async (req, res) => {
    const id = parseInput(CheckoutSessionId, req.params.sessionId, 'session_id');
    res.json(ok(await registration.session(id)));
  });

  return router;
}
