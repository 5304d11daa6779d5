import type { EventName } from '@svc/contracts';
import { firstDelivery, type Db, type InboxTable } from '@svc/db';
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
