import type { Bus, Subscription } from '@svc/bus';
import type { TierService } from '../services/tier.service.js';

/** Billing's subscription changes set the user's tier. */
export function consumeSubscriptionChanges(bus: Bus, tiers: TierService): Promise<Subscription> {
  return bus.subscribe('identity.subscriptions', ['subscription.changed'], (message) => tiers.applySubscription(message.messageId, message.payload));
}
