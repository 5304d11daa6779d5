import type { EventName } from '@svc/contracts';
import { firstDeliveries, firstDelivery, type Db, type InboxTable } from '@svc/db';
import type { EventHandler, EventMessage } from './typed-bus.js';

/**
 * An event handler that acts once per event id: its work runs in a transaction that also
 * records the id in the service's inbox (`inboxTable` of `@svc/db`), and a second delivery of
 * the same event (a relay sending again what its writer had sent before dying, a redelivery)
 * finds the id there and is acknowledged without running.
 *
 * @example
 *   await bus.subscribe('identity.packs', ['pack.installed', 'pack.uninstalled'], handleOnce(db, inbox, async (message, tx) => {
 *     await new TenantPackRepository(tx).apply(message);
 *   }));
 */
export function handleOnce<N extends EventName>(db: Db, inbox: InboxTable, handler: (message: EventMessage<N>, tx: Db) => Promise<void>): EventHandler<N> {
  return (message) =>
    db.transaction(async (tx) => {
      if (await firstDelivery(tx, inbox, message.messageId, message.name)) await handler(message, tx);
    });
}

/**
 * `handleOnce` for a batch (`inBatches`): of `messages`, those this service has not handled
 * before, each id once (a message delivered twice in one batch counts once), recorded in its inbox
 * in `tx`, the transaction of the batch's work. In the order given.
 */
export async function firstDeliveriesOf<M extends { messageId: string; name: string }>(tx: Db, inbox: InboxTable, messages: M[]): Promise<M[]> {
  const fresh = await firstDeliveries(
    tx,
    inbox,
    messages.map((m) => ({ eventId: m.messageId, name: m.name })),
  );
  return messages.filter((m) => fresh.delete(m.messageId));
}
