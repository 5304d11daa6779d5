import { sql } from 'drizzle-orm';
import { bigint, index, integer, json, text, timestamp, uuid, type PgSchema } from 'drizzle-orm/pg-core';

/**
 * A service's outbox, `<schema>.outbox`: what the service must send (events for the bus, e-mails),
 * written in the same transaction as the change that causes it and sent by a relay afterwards.
 * Declare it in the service's `src/db/schema.ts` so that drizzle-kit generates its migration:
 *
 * @example
 *   export const registry = pgSchema('registry');
 *   export const outbox = outboxTable(registry);
 *
 * `id` is the message's id on the wire (consumers dedupe on it). `kind` picks the delivery
 * (`event`: the bus; identity's `email`: SMTP), `name` is the event name or e-mail template.
 * `payload` is `json`, not `jsonb`, so that any text a command wrote (U+0000 included) fits.
 * `next_attempt_at` is when a relay may take the row: after a failure's backoff, once a relay's
 * lease runs out, or null when it has been given up (`last_error` says why).
 */
export function outboxTable(schema: PgSchema) {
  return schema.table(
    'outbox',
    {
      id: uuid('id').primaryKey().defaultRandom(),
      /** Write order: rows are sent in it. */
      seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
      kind: text('kind').notNull(),
      name: text('name').notNull(),
      payload: json('payload').notNull(),
      correlationId: text('correlation_id'),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
      sentAt: timestamp('sent_at', { withTimezone: true }),
      attempts: integer('attempts').notNull().default(0),
      nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
      lastError: text('last_error'),
    },
    (t) => [index('outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.sentAt} is null`), index('outbox_sent_idx').on(t.sentAt)],
  );
}

/**
 * The events a service has handled, by event id (`<schema>.inbox`): a consumer whose work must
 * happen once per event records the id in the transaction of that work (`firstDelivery`), and
 * a second delivery of the same event finds it there and does nothing.
 */
export function inboxTable(schema: PgSchema) {
  return schema.table(
    'inbox',
    {
      eventId: text('event_id').primaryKey(),
      name: text('name').notNull(),
      receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('inbox_received_idx').on(t.receivedAt)],
  );
}

export type OutboxTable = ReturnType<typeof outboxTable>;
export type InboxTable = ReturnType<typeof inboxTable>;
export type OutboxRow = OutboxTable['$inferSelect'];
