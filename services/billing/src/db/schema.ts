import { inboxTable, outboxTable } from '@svc/db';
import { boolean, index, json, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const billing = pgSchema('billing');

/** `subscription.changed`, `billing.event.recorded` and `email.requested`, written with the change they announce. */
export const outbox = outboxTable(billing);

/** `user.registered` and `user.tier.changed` handled, by event id. */
export const inbox = inboxTable(billing);

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One row per user billing knows of (registered, or who started a checkout): the subscription
 * as the processor last told it, and the grace period's schedule. `next_reminder_at` and
 * `grace_ends_at` are the scheduler's job queue: a replica takes due rows with
 * `FOR UPDATE SKIP LOCKED`, so that several replicas never act on the same row twice.
 */
export const subscriptions = billing.table(
  'subscriptions',
  {
    userId: uuid('user_id').primaryKey(),
    email: text('email'),
    cohort: text('cohort'),
    customerId: text('customer_id').unique('subscriptions_customer_id_unique'),
    subscriptionId: text('subscription_id'),
    tier: text('tier', { enum: ['free', 'developer_preview', 'pro', 'enterprise'] }).notNull().default('free'),
    status: text('status', { enum: ['active', 'past_due', 'canceled', 'expired'] }),
    paymentIssue: boolean('payment_issue').notNull().default(false),
    currentPeriodEnd: timestamptz('current_period_end'),
    graceEndsAt: timestamptz('grace_ends_at'),
    nextReminderAt: timestamptz('next_reminder_at'),
    /** `created` of the last processor event applied: an older one arriving late changes nothing. */
    lastEventAt: timestamptz('last_event_at'),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('subscriptions_grace_idx').on(t.nextReminderAt)],
);

/**
 * Every processor event received, by endpoint and id: the insert is the duplicate check (a
 * unique key, so ten copies arriving at once apply once), and the payload stays for operators.
 */
export const webhookEvents = billing.table(
  'webhook_events',
  {
    endpoint: text('endpoint', { enum: ['billing', 'registration'] }).notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    payload: json('payload').notNull(),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.endpoint, t.eventId] })],
);

/**
 * Paid registration: one row per processor checkout session. `code` is kept so that the buyer's
 * polling can show it; `payment_intent` finds the session again when a dispute arrives.
 */
export const registrationSessions = billing.table('registration_sessions', {
  id: text('id').primaryKey(),
  ref: text('ref').notNull().default(''),
  status: text('status', { enum: ['pending', 'ready', 'expired', 'disputed'] }).notNull().default('pending'),
  email: text('email'),
  accessCodeId: uuid('access_code_id'),
  code: text('code'),
  paymentIntent: text('payment_intent').unique('registration_sessions_payment_intent_unique'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
