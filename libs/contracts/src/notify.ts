import { z } from 'zod';

/**
 * The events a tenant's webhook endpoints can ask for: Part 1's outbound events and Part 2's
 * `dashboard_deleted` (spelled as the spec spells it). `webhook.ping` is sent only by the test
 * ping and needs no subscription.
 */
export const WEBHOOK_EVENT_TYPES = ['command.executed', 'task.completed', 'task.failed', 'pack.installed', 'pack.uninstalled', 'dashboard_deleted'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_PING = 'webhook.ping';

/** Longest endpoint URL accepted. */
export const WEBHOOK_URL_MAX = 2048;
/** Endpoints a tenant may hold. */
export const WEBHOOKS_PER_TENANT = 20;

export const CreateWebhookBody = z.strictObject({
  url: z.string().min(1, 'must not be empty').max(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1, 'must name at least one event')
    .refine((events) => new Set(events).size === events.length, 'must not repeat an event'),
  description: z.string().max(200, 'must be at most 200 characters').default(''),
});

export const WebhookId = z.string().uuid('must be a webhook id');
export const DeliveryId = z.string().uuid('must be a delivery id');

export const DeliveryListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100').default(20),
  /** Deliveries created before this one (the last id of the previous page). */
  before: DeliveryId.optional(),
});

/** A webhook endpoint as its owner reads it; the signing secret is shown once, at creation. */
export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string(),
  status: z.enum(['active', 'disabled']),
  /** When its deliveries began failing without a success since; null when the last one succeeded. */
  failing_since: z.string().nullable(),
  disabled_at: z.string().nullable(),
  created_at: z.string(),
}).meta({ id: 'Webhook' });

export const CreatedWebhook = Webhook.extend({ secret: z.string() }).meta({ id: 'CreatedWebhook' });

export const DeliveryAttempt = z.object({
  attempt: z.number().int(),
  at: z.string(),
  response_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  error: z.string().nullable(),
});

/** One event sent (or to be sent) to one endpoint, with every try. */
export const WebhookDelivery = z.object({
  id: z.string(),
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  response_code: z.number().int().nullable(),
  latency_ms: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  attempt_log: z.array(DeliveryAttempt),
}).meta({ id: 'WebhookDelivery' });

/** The body of every delivery: Part 1's payload (`{id, type, timestamp, data}`). */
export const WebhookEvent = z.object({
  id: z.string(),
  type: z.string(),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
}).meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof WebhookEvent>;
