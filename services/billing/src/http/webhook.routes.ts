import express, { Router } from 'express';
import { JSON_BODY_LIMIT_BYTES, ok } from '@svc/core';
import type { WebhookEndpointConfig, WebhookService } from '../services/webhook.service.js';

/**
 * The processor's two webhooks, mounted before the JSON parser: the signature covers the body
 * exactly as sent, so it is read raw, whatever its content type.
 */
export function webhookRoutes(webhooks: WebhookService, endpoints: { billing: WebhookEndpointConfig; registration: WebhookEndpointConfig }): Router {
  const router = Router();
  const raw = express.raw({ type: () => true, limit: JSON_BODY_LIMIT_BYTES });

  for (const [path, config] of [
    ['/api/v1/billing/webhook', endpoints.billing],
    ['/api/v1/registration/webhook', endpoints.registration],
  ] as const) {
    router.post(path, raw, async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      await webhooks.receive(config, body, req.get('payment-signature'));
      res.json(ok({ received: true }));
    });
  }
  return router;
}
