import { handleOnce, type Bus, type Subscription } from '@svc/bus';
import type { Db } from '@svc/db';
import { inbox } from '../db/schema.js';
import { SubscriptionRepository } from '../repositories/subscription.repository.js';

/** Keeps each user's e-mail and cohort, which billing status shows and its e-mails are sent to. */
export function consumeUserEvents(bus: Bus, db: Db): Promise<Subscription> {
  return bus.subscribe(
    'billing.users',
    ['user.registered'],
    handleOnce(db, inbox, async (message, tx) => {
      await new SubscriptionRepository(tx).recordUser(message.payload.user_id, message.payload.email, message.payload.cohort);
    }),
  );
}
