import { handleOnce, type Bus, type Subscription } from '@svc/bus';
import type { Outbox } from '@svc/db';
import { inbox } from '../db/schema.js';

/**
 * Takes every service's `email.requested` into notify's outbox (kind `email`, the event id as
 * the row id), once per event id; the outbox sends it and retries it until it goes through.
 * The event is acknowledged only once the row is committed, so nothing is lost in between.
 */
export function consumeEmailRequests(bus: Bus, outbox: Outbox): Promise<Subscription> {
  return bus.subscribe(
    'notify.emails',
    ['email.requested'],
    handleOnce(outbox, inbox, async (message, _tx, add) => {
      add({ kind: 'email', name: message.payload.kind, payload: message.payload, id: message.messageId, correlationId: message.correlationId });
    }),
  );
}
