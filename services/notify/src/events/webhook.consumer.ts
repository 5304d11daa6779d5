import { firstDeliveriesOf, inBatches, type Bus, type EventMessage, type Subscription } from '@svc/bus';
import type { Db } from '@svc/db';
import { inbox } from '../db/schema.js';
import type { WebhookService } from '../services/webhook.service.js';
import { WEBHOOK_SOURCES, webhookEventOf, type TenantEvent, type WebhookSource } from './webhook-events.js';

/** Most events held, and queued in one transaction. */
const BATCH = 100;
/** How long a batch waits to fill: counting (queueing) lags by as much, and a busy platform pays one transaction per hundred events. */
const GATHER_MS = 20;

/**
 * Turns the platform's events into deliveries for the webhooks of the tenant each concerns.
 * Events no endpoint asked for are dropped after one read (`WebhookService.wanted`); the others
 * are queued once per event id (the inbox), in the same transaction; the dispatcher is woken once
 * they are committed. Events come in batches, one batch at a time and each in the order the
 * events arrived (`inBatches`), so that an endpoint's deliveries are queued, and sent, in that
 * order, and a busy platform pays one transaction per batch, not per event.
 */
export function consumeWebhookEvents(bus: Bus, db: Db, webhooks: WebhookService, onQueued: () => void): Promise<Subscription> {
  return bus.subscribe(
    'notify.webhooks',
    WEBHOOK_SOURCES,
    inBatches<EventMessage<WebhookSource>>(async (messages) => {
      const events: { message: EventMessage<WebhookSource>; eventId: string; event: TenantEvent }[] = [];
      for (const message of messages) {
        const event = webhookEventOf(message);
        if (event) events.push({ message, eventId: message.messageId, event });
      }
      const wanted = await webhooks.wanted(events);
      if (wanted.length === 0) return;
      const queued = await db.transaction(async (tx) => {
        const first = new Set(await firstDeliveriesOf(tx, inbox, wanted.map(({ message }) => message)));
        return webhooks.enqueue(tx, wanted.filter(({ message }) => first.has(message)));
      });
      if (queued > 0) onQueued();
    }, { maxBatch: BATCH, gatherMs: GATHER_MS }),
    { prefetch: 2 * BATCH },
  );
}
