import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { CreateWebhookBody, DeliveryId, DeliveryListQuery, WebhookId } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { WebhookService } from '../services/webhook.service.js';

/** `/api/v1/webhooks`: the caller's tenant's endpoints, their delivery log, redelivery and a test ping. */
export function webhookRoutes(webhooks: WebhookService): Router {
  const router = Router();

  router.post('/webhooks', async (req, res) => {
    const body = parseInput(CreateWebhookBody, req.body);
    res.status(201).json(ok(await webhooks.create(requireIdentity(req), body)));
  });

  router.get('/webhooks', async (req, res) => {
    res.json(ok(await webhooks.list(requireIdentity(req))));
  });

  router.get('/webhooks/:id', async (req, res) => {
    const id = parseInput(WebhookId, req.params.id, 'id');
    res.json(ok(await webhooks.get(requireIdentity(req), id)));
  });

  router.delete('/webhooks/:id', async (req, res) => {
    const id = parseInput(WebhookId, req.params.id, 'id');
    await webhooks.delete(requireIdentity(req), id);
    res.json(ok({ deleted: true }));
  });

  router.get('/webhooks/:id/deliveries', async (req, res) => {
    const id = parseInput(WebhookId, req.params.id, 'id');
    const query = parseInput(DeliveryListQuery, req.query, 'query');
    res.json(ok(await webhooks.deliveries(requireIdentity(req), id, query)));
  });

  router.post('/webhooks/:id/deliveries/:delivery_id/redeliver', async (req, res) => {
    const id = parseInput(WebhookId, req.params.id, 'id');
    const deliveryId = parseInput(DeliveryId, req.params.delivery_id, 'delivery_id');
    res.status(202).json(ok(await webhooks.redeliver(requireIdentity(req), id, deliveryId)));
  });

  router.post('/webhooks/:id/ping', async (req, res) => {
    const id = parseInput(WebhookId, req.params.id, 'id');
    res.status(202).json(ok(await webhooks.ping(requireIdentity(req), id)));
  });

  return router;
}
