import { createHash } from 'node:crypto';
import { isEventName, type EventInput, type EventName } from '@svc/contracts';
import { currentCorrelationId } from '@svc/core';
import { Outbox, type Db, type OutboxDelivery, type OutboxEntry, type OutboxOptions, type OutboxRow } from '@svc/db';
import type { Bus } from './typed-bus.js';

export interface EventOptions {
  /** The event's id on the wire; a new uuid when absent. Give a stable one (`eventIdFor`) when the same fact may be announced twice. */
  eventId?: string;
  /** Defaults to the correlation id of the code that records the event. */
  correlationId?: string;
}

/** What a transaction of `EventOutbox` hands its work: events to publish once it commits. */
export interface OutboxWriter {
  publish<N extends EventName>(event: N, payload: EventInput<N>, options?: EventOptions): void;
  /** An entry of another kind, delivered by one of the `deliveries` given (identity's e-mails). */
  add(entry: OutboxEntry): void;
}

/** An event, typed by its name, as an outbox entry. */
export function outboxEvent<N extends EventName>(event: N, payload: EventInput<N>, options: EventOptions = {}): OutboxEntry {
  return { kind: 'event', name: event, payload, id: options.eventId, correlationId: options.correlationId ?? currentCorrelationId() };
}

/**
 * An event id made from what identifies a fact (`eventIdFor('command.executed', taskId)`): the
 * same fact announced twice carries the same id, so that consumers see it as one. Shaped as a uuid.
 */
export function eventIdFor(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Publishes an outbox row of kind `event` with confirms, its row id as the message id. */
export function eventDelivery(bus: Bus): OutboxDelivery {
  return {
    async deliver(row: OutboxRow) {
      if (!isEventName(row.name)) throw new Error(`${row.name} is not an event of BUS_CONTRACTS`);
      await bus.publish(row.name, row.payload as never, { messageId: row.id, ...(row.correlationId ? { correlationId: row.correlationId } : {}) });
    },
  };
}

export interface EventOutboxOptions extends Omit<OutboxOptions, 'deliveries'> {
  bus: Bus;
  /** Deliveries of other kinds than `event`. */
  deliveries?: Record<string, OutboxDelivery>;
}

/**
 * A service's events, written in the transaction of the change they announce and published
 * after it commits (`Outbox` of `@svc/db` underneath, with the bus as the delivery of kind
 * `event`). Every service that announces a change holds one; `start()` it after migrating and
 * `stop()` it before closing the bus.
 *
 * @example
 *   const events = new EventOutbox({ db, table: outbox, bus, log });
 *   await events.transaction(async (tx, out) => {
 *     await new GrantRepository(tx).grant(packId, granteeId, userId);
 *     out.publish('pack.grant.changed', { pack_id: packId, ... });
 *   }); // committed, then published with confirms and marked sent
 */
export class EventOutbox {
  readonly outbox: Outbox;

  constructor(options: EventOutboxOptions) {
    const { bus, deliveries, ...rest } = options;
    this.outbox = new Outbox({ ...rest, deliveries: { ...deliveries, event: eventDelivery(bus) } });
  }

  /** Runs `work` in a transaction; what it records is written in it and sent once it commits. */
  transaction<T>(work: (tx: Db, out: OutboxWriter) => Promise<T>): Promise<T> {
    return this.outbox.transaction((tx, add) =>
      work(tx, {
        publish: (event, payload, options) => add(outboxEvent(event, payload, options)),
        add,
      }),
    );
  }

  /**
   * Publishes now, with confirms, events whose cause is already safe (a job acknowledged only
   * once this resolves); what cannot be published is written for the relay.
   */
  publish(events: OutboxEntry[]): Promise<void> {
    return this.outbox.send(events);
  }

  /**
   * Writes events for the relay alone (published one interval after `start()`, once the
   * process's consumers subscribed): what a service announces as it starts. An event whose id is
   * still in the outbox is not written again (`Outbox.enqueue`).
   */
  enqueue(db: Db, events: OutboxEntry[]): Promise<void> {
    return this.outbox.enqueue(db, events);
  }

  start(): void {
    this.outbox.start();
  }

  sendDue(): Promise<number> {
    return this.outbox.sendDue();
  }

  stop(): Promise<void> {
    return this.outbox.stop();
  }
}
