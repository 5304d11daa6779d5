import { handleOnce, type Bus, type EventOutbox, type Subscription } from '@svc/bus';
import { inbox } from '../db/schema.js';
import type { TierService } from '../services/tier.service.js';

/** Billing's subscription changes set the user's tier, each once (by its id, in the inbox). */
export function consumeSubscriptionChanges(bus: Bus, events: EventOutbox, tiers: TierService): Promise<Subscription> {
  return bus.subscribe(
    'identity.subscriptions',
    ['subscription.changed'],
    handleOnce(events, inbox, (message, tx, out) => tiers.applySubscription(tx, out, message.payload)),
  );
}
