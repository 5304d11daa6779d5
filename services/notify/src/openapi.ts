import { z } from 'zod';
import { CreatedWebhook, CreateWebhookBody, Deleted, DeliveryId, DeliveryListQuery, Webhook, WebhookDelivery, WebhookEvent, WebhookId } from '@svc/contracts';
import { componentSchemas, dataResponse, errorResponse, fromZod, jsonBody, pathParameter, queryParameters, type OpenApiFragment } from '@svc/openapi';

const webhookId = pathParameter('id', fromZod(WebhookId), 'The endpoint\'s id.');
const deliveryId = pathParameter('delivery_id', fromZod(DeliveryId), 'The delivery\'s id.');
const badId = errorResponse('`VALIDATION_FAILED`: a malformed id (`details.field`).');
const notOwner = errorResponse('`PERMISSION_DENIED`: the caller is not an owner or admin of their current tenant.');
const missing = errorResponse('`NOT_FOUND`: the caller\'s tenant has no endpoint (or delivery) with this id.');
const disabled = errorResponse('`CONFLICT`: the endpoint is disabled.');

const SIGNING = [
  'Every delivery is a POST of a `WebhookEvent` with `Svc-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the secret>`,',
  '`Svc-Event-Id` (the same on every retry and redelivery: dedupe on it), `Svc-Event-Type`, `Svc-Delivery-Id` and `Svc-Delivery-Attempt`.',
  'A 2xx within 10 s is a success; anything else is retried with growing pauses.',
].join(' ');

/** Outbound webhooks of the caller's tenant. */
export const notifyOpenApi: OpenApiFragment = {
  service: 'notify',
  tags: [{ name: 'Webhooks', description: `Endpoints that receive the tenant's events. ${SIGNING}` }],
  schemas: componentSchemas(Webhook, CreatedWebhook, WebhookDelivery, WebhookEvent),
  paths: {
    '/api/v1/webhooks': {
      post: {
        operationId: 'createWebhook',
        summary: 'Register an endpoint',
        description: 'The URL must be https and resolve to public addresses. The signing secret is answered this once.',
        tags: ['Webhooks'],
        requestBody: jsonBody(fromZod(CreateWebhookBody)),
        responses: {
          201: dataResponse('Registered, with its secret.', CreatedWebhook),
          400: errorResponse('`VALIDATION_FAILED`: a bad URL (not https, credentials, private address), an unknown event, or too many endpoints (`details.field`).'),
          403: notOwner,
        },
      },
      get: {
        operationId: 'listWebhooks',
        summary: 'The tenant\'s endpoints',
        tags: ['Webhooks'],
        responses: { 200: dataResponse('Newest first, without secrets.', z.array(Webhook)), 403: notOwner },
      },
    },
    '/api/v1/webhooks/{id}': {
      get: {
        operationId: 'getWebhook',
        summary: 'One endpoint',
        tags: ['Webhooks'],
        parameters: [webhookId],
        responses: { 200: dataResponse('The endpoint.', Webhook), 400: badId, 403: notOwner, 404: missing },
      },
      delete: {
        operationId: 'deleteWebhook',
        summary: 'Remove an endpoint and its delivery log',
        tags: ['Webhooks'],
        parameters: [webhookId],
        responses: { 200: dataResponse('Removed.', Deleted), 400: badId, 403: notOwner, 404: missing },
      },
    },
    '/api/v1/webhooks/{id}/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log',
        description: 'Newest first: status, tries, last response code and latency, and every try with its time.',
        tags: ['Webhooks'],
        parameters: [webhookId, ...queryParameters(DeliveryListQuery, { limit: 'How many deliveries.', before: 'Only deliveries older than this one (the last id of the previous page).' })],
        responses: { 200: dataResponse('The deliveries.', z.array(WebhookDelivery)), 400: badId, 403: notOwner, 404: missing },
      },
    },
    '/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver': {
      post: {
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery\'s event again',
        description: 'A new delivery with the same event id and body, after the endpoint\'s pending ones.',
        tags: ['Webhooks'],
        parameters: [webhookId, deliveryId],
        responses: { 202: dataResponse('Queued.', WebhookDelivery), 400: badId, 403: notOwner, 404: missing, 409: disabled },
      },
    },
    '/api/v1/webhooks/{id}/ping': {
      post: {
        operationId: 'pingWebhook',
        summary: 'Send a test event',
        description: 'Queues a `webhook.ping` event, whatever the endpoint subscribed to.',
        tags: ['Webhooks'],
        parameters: [webhookId],
        responses: { 202: dataResponse('Queued.', WebhookDelivery), 400: badId, 403: notOwner, 404: missing, 409: disabled },
      },
    },
  },
};
