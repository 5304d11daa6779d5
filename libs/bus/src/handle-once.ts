import type { EventName } from '@svc/contracts';
import { firstDeliveries, firstDelivery, type Db, type InboxTable } from '@svc/db';
import type { EventHandler, EventMessage } from './typed-bus.js';

/**
 * Where a handler's transaction comes from: the service's database, or its outbox (`EventOutbox`,
 * or `Outbox` of `@svc/db`), whose transaction also hands the work what it sends (`rest`).
 */
export interface Transactions<A extends unknown[]> {
  transaction<T>(work: (tx: Db, ...rest: A) => Promise<T>): Promise<T>;
}

/** Work for once the handling transaction committed, such as dropping a cache entry it made stale. */
export type AfterCommit = () => Promise<void>;

/**
 * An event handler that acts once per event id: its work runs in a transaction that also
 * records the id in the service's inbox (`inboxTable` of `@svc/db`), and a second delivery of
 * the same event (a relay sending again what its writer had sent before dying, a redelivery)
 * finds the id there and is acknowledged without running. Every consumer that must not act
 * twice goes through it (or `firstDeliveriesOf`, its batch twin). With an outbox as `store`, the
 * handler also gets its writer; a handler may answer work to run after the commit.
 *
 * @example
 *   await bus.subscribe('identity.packs', ['pack.installed', 'pack.uninstalled'], handleOnce(db, inbox, async (message, tx) => {
 *     await new TenantPackRepository(tx).apply(message);
 *   }));
 *   await bus.subscribe('identity.subscriptions', ['subscription.changed'], handleOnce(events, inbox, (message, tx, out) => tiers.apply(tx, out, message.payload)));
 */
export function handleOnce<N extends EventName>(db: Db, inbox: InboxTable, handler: (message: EventMessage<N>, tx: Db) => Promise<void | AfterCommit>): EventHandler<N>;
export function handleOnce<N extends EventName, A extends unknown[]>(store: Transactions<A>, inbox: InboxTable, handler: (message: EventMessage<N>, tx: Db, ...rest: A) => Promise<void | AfterCommit>): EventHandler<N>;
export function handleOnce<N extends EventName, A extends unknown[]>(
  store: Transactions<A>,
  inbox: InboxTable,
  handler: (message: EventMessage<N>, tx: Db, ...rest: A) => Promise<void | AfterCommit>,
): EventHandler<N> {
  return async (message) => {
    const after = await store.transaction(async (tx, ...rest) => ((await firstDelivery(tx, inbox, message.messageId, message.name)) ? handler(message, tx, ...rest) : undefined));
    if (after) await after();
  };
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
