import { handleOnce, type Bus, type Subscription } from '@svc/bus';
import type { Db } from '@svc/db';
import { inbox } from '../db/schema.js';
import type { WebhookService } from '../services/webhook.service.js';
import { WEBHOOK_SOURCES, webhookEventOf, type WebhookSource } from './webhook-events.js';

/**
 * Turns the platform's events into deliveries for the webhooks of the tenant each concerns.
 * Queued once per event id (the inbox), in the same transaction; the dispatcher is woken once
 * they are committed. One event at a time (prefetch 1), so that an endpoint's deliveries are
 * queued, and sent, in the order the events arrived.
 */
export function consumeWebhookEvents(bus: Bus, db: Db, webhooks: WebhookService, onQueued: () => void): Promise<Subscription> {
  return bus.subscribe(
    'notify.webhooks',
    WEBHOOK_SOURCES,
    async (message) => {
      let queued = 0;
      await handleOnce<WebhookSource>(db, inbox, async (m, tx) => {
        const event = webhookEventOf(m);
        if (event) queued = await webhooks.enqueue(tx, m.messageId, event);
      })(message);
      if (queued > 0) onQueued();
    },
    { prefetch: 1 },
  );
}
