import { sql } from 'drizzle-orm';
import { bigint, index, integer, json, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@svc/db';

export const notify = pgSchema('notify');

/**
 * A tenant's webhook endpoint. `secret` signs every delivery, so it is kept as given (it is
 * shown to its owner once, at creation). `owner_email` is who is told when it is disabled.
 */
export const webhooks = notify.table(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    url: text('url').notNull(),
    events: json('events').$type<string[]>().notNull(),
    description: text('description').notNull().default(''),
    secret: text('secret').notNull(),
    createdBy: text('created_by').notNull(),
    ownerEmail: text('owner_email').notNull(),
    status: text('status', { enum: ['active', 'disabled'] }).notNull().default('active'),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_tenant_idx').on(t.tenantId)],
);

/**
 * One event for one endpoint. Sent in `seq` order per endpoint: only the oldest pending
 * delivery of an endpoint is ever tried, so a receiver that was down gets everything in order.
 * `next_attempt_at` is the schedule (a failure's backoff, or a dispatcher's lease while it sends).
 */
export const deliveries = notify.table(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The exact body sent, so that a redelivery sends the same bytes. */
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
    responseCode: integer('response_code'),
    latencyMs: integer('latency_ms'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('deliveries_pending_idx').on(t.webhookId, t.seq).where(sql`${t.status} = 'pending'`),
    index('deliveries_webhook_idx').on(t.webhookId, t.createdAt),
  ],
);

/** Every try of a delivery: when, what the receiver answered, how long it took. */
export const deliveryAttempts = notify.table(
  'delivery_attempts',
  {
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    responseCode: integer('response_code'),
    latencyMs: integer('latency_ms').notNull(),
    error: text('error'),
  },
  (t) => [index('delivery_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

/** E-mails to send (kind `email`, `name` its kind, `payload` an `EmailRequested`), sent by the outbox relay. */
export const outbox = outboxTable(notify);
/** Events already handled, by id: an event delivered twice queues nothing twice. */
export const inbox = inboxTable(notify);

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof deliveries.$inferSelect;
export type DeliveryAttemptRow = typeof deliveryAttempts.$inferSelect;
