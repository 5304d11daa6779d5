import type { Bus, Subscription } from '@svc/bus';
import { SUBSCRIPTION_STATUS_RPC } from '@svc/contracts';
import type { Db } from '@svc/db';
import { SubscriptionRepository } from '../repositories/subscription.repository.js';
import { subscriptionState } from '../services/subscription.service.js';

/** The admin area's user detail asks for a user's subscription as it stands now. */
export function respondToSubscriptionStatus(bus: Bus, db: Db): Promise<Subscription> {
  return bus.respond(SUBSCRIPTION_STATUS_RPC, async ({ user_id }) => {
    const row = await new SubscriptionRepository(db).find(user_id);
    return { subscription: row?.status ? subscriptionState(row) : null };
  });
}
