import { Router } from 'express';
import { PasswordResetBody, PasswordResetConfirmBody } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { PasswordResetService } from '../services/password-reset.service.js';

/** The one answer to every reset request, whether the address has an account or not. */
export const RESET_REQUESTED = 'If an account uses this address, a link to choose a new password is on its way to it';

export function passwordResetRoutes(resets: PasswordResetService): Router {
  const router = Router();

  router.post('/auth/password-reset', async (req, res) => {
    const body = parseInput(PasswordResetBody, req.body);
    await resets.request(body.email);
    res.status(202).json(ok({ message: RESET_REQUESTED }));
  });

  router.post('/auth/password-reset/confirm', async (req, res) => {
    const body = parseInput(PasswordResetConfirmBody, req.body);
    await resets.confirm(body.token, body.password);
    res.json(ok({ message: 'Password changed; all sessions were signed out' }));
  });

  return router;
}
