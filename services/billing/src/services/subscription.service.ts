import type Stripe from 'stripe';
import type { OutboxWriter } from '@svc/bus';
import type { Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { SubscriptionRepository, type SubscriptionChanges, type SubscriptionRow } from '../repositories/subscription.repository.js';
import { DAY_MS } from './clock.js';
import { monthlyPriceOf } from './plans.js';
import { subscriptionEmails } from './subscription-messages.js';
import type { EventHandlers } from './webhook.service.js';

/** Part 2 "Limits": payment grace period. */
export const GRACE_DAYS = 7;

type Status = NonNullable<SubscriptionRow['status']>;
type Tier = SubscriptionRow['tier'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Pro while paid, in grace or canceled to the period's end; Free once expired or never subscribed. */
export function tierOf(status: SubscriptionRow['status']): Tier {
  return status === 'active' || status === 'past_due' || status === 'canceled' ? 'pro' : 'free';
}

/** The processor's subscription status in ours; undefined for states with nothing to sync (incomplete, paused). */
export function statusFromProcessor(subscription: Stripe.Subscription): Status | undefined {
  switch (subscription.status) {
    case 'active':
    case 'trialing':
      return subscription.cancel_at_period_end ? 'canceled' : 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'expired';
    default:
      return undefined;
  }
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

/** The period end: on the subscription's items in current API versions, on the subscription in older ones. */
function periodEndOf(subscription: Stripe.Subscription): Date | null {
  const seconds = subscription.items?.data?.[0]?.current_period_end ?? (subscription as { current_period_end?: number }).current_period_end;
  return seconds ? new Date(seconds * 1000) : null;
}

/** Who a checkout session is for: `client_reference_id`, else `metadata.user_id`, when it is a user id. */
export function userOfCheckout(session: Stripe.Checkout.Session): string | undefined {
  const candidate = session.client_reference_id ?? session.metadata?.user_id;
  return candidate && UUID.test(candidate) ? candidate : undefined;
}

/**
 * The subscription state machine of Part 2 "States and transitions". Every method runs inside
 * the webhook's (or the scheduler's) transaction: the change, its `subscription.changed`, its
 * `billing.event.recorded` and its e-mails commit together or not at all.
 */
/** A subscription as other services see it: what `subscription.changed` carries and `billing.subscription.status` answers. */
export function subscriptionState(row: SubscriptionRow) {
  return {
    tier: row.tier,
    status: row.status,
    payment_issue: row.paymentIssue,
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    monthly_price_cents: row.status === 'active' || row.status === 'past_due' || row.status === 'canceled' ? monthlyPriceOf(row.tier) : 0,
  };
}

/** When the processor made the event: a subscription change older than the last one applied is ignored. */
const createdOf = (event: Stripe.Event): Date => new Date(event.created * 1000);

export class SubscriptionService {
  constructor(private readonly log: Logger) {}

  /** The billing webhook's events (Part 2, States), each handled with the object its type carries. */
  readonly webhookHandlers: EventHandlers = {
    'checkout.session.completed': (tx, out, event, at) => this.completeCheckout(tx, out, event.data.object, at),
    'customer.subscription.updated': (tx, out, event, at) => this.syncSubscription(tx, out, event.data.object, at, createdOf(event)),
    'customer.subscription.deleted': (tx, out, event, at) => this.endSubscription(tx, out, event.data.object, at, createdOf(event)),
    'invoice.payment_failed': (tx, out, event, at) => this.paymentFailed(tx, out, event.data.object, at),
    // The spec lists both: a paid invoice brings the two, which record one fact (`invoice.paid:<invoice>`).
    'invoice.paid': (tx, out, event, at) => this.paymentSucceeded(tx, out, event.data.object, at),
    'invoice.payment_succeeded': (tx, out, event, at) => this.paymentSucceeded(tx, out, event.data.object, at),
  };

  /** `checkout.session.completed`: Pro at once. */
  async completeCheckout(tx: Db, out: OutboxWriter, session: Stripe.Checkout.Session, at: Date): Promise<void> {
    const userId = userOfCheckout(session);
    if (!userId) return void this.log.warn('checkout session names no user; ignored', { session_id: session.id });
    const repo = new SubscriptionRepository(tx);
    await repo.lock(userId);
    const row = await repo.update(
      userId,
      {
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
        email: session.customer_details?.email ?? session.customer_email ?? undefined,
        ...this.recovered(),
        status: 'active',
        tier: 'pro',
      },
      at,
    );
    this.announce(out, row, at);
    this.record(out, 'checkout.completed', session.id, userId, session.amount_total ?? null, at);
  }

  /** `customer.subscription.updated`: tier and status as the processor has them, unless a newer event said otherwise. */
  async syncSubscription(tx: Db, out: OutboxWriter, subscription: Stripe.Subscription, at: Date, created: Date): Promise<void> {
    const row = await this.lockOwner(tx, subscription.customer, subscription.metadata?.user_id, at);
    if (!row) return;
    if (row.lastEventAt && row.lastEventAt > created) return void this.log.info('older subscription update ignored', { user_id: row.userId });
    const status = statusFromProcessor(subscription);
    if (!status) return;
    const common = { subscriptionId: subscription.id, currentPeriodEnd: periodEndOf(subscription), lastEventAt: created };
    if (status === 'past_due') return this.startGrace(tx, out, row, at, common);
    const changes: SubscriptionChanges = { ...common, status, tier: tierOf(status), ...(status === 'active' ? { graceEndsAt: null, nextReminderAt: null } : {}) };
    this.announce(out, await new SubscriptionRepository(tx).update(row.userId, changes, at), at);
  }

  /** `customer.subscription.deleted`: back to Free; with the subscription gone, a late invoice payment restores nothing. */
  async endSubscription(tx: Db, out: OutboxWriter, subscription: Stripe.Subscription, at: Date, created: Date): Promise<void> {
    const row = await this.lockOwner(tx, subscription.customer, subscription.metadata?.user_id, at);
    if (!row) return;
    const ended = await new SubscriptionRepository(tx).update(row.userId, { ...this.recovered(), status: 'expired', tier: 'free', lastEventAt: created }, at);
    this.announce(out, ended, at);
    this.record(out, 'subscription.deleted', subscription.id, row.userId, null, at);
  }

  /** `invoice.payment_failed`: past_due, payment issue flagged, a notification, and the grace period. */
  async paymentFailed(tx: Db, out: OutboxWriter, invoice: Stripe.Invoice, at: Date): Promise<void> {
    const row = await this.lockOwner(tx, invoice.customer, undefined, at);
    if (!row) return;
    this.record(out, 'invoice.payment_failed', invoice.id ?? 'invoice', row.userId, invoice.amount_due ?? null, at);
    await this.startGrace(tx, out, row, at, {});
  }

  /** `invoice.paid` / `invoice.payment_succeeded`: the payment issue is cleared, and a subscription in grace or expired by it is active again. */
  async paymentSucceeded(tx: Db, out: OutboxWriter, invoice: Stripe.Invoice, at: Date): Promise<void> {
    const row = await this.lockOwner(tx, invoice.customer, undefined, at);
    if (!row) return;
    this.record(out, 'invoice.paid', invoice.id ?? 'invoice', row.userId, invoice.amount_paid ?? null, at);
    const restores = row.status === 'past_due' || (row.status === 'expired' && row.paymentIssue);
    if (!row.paymentIssue && !restores) return;
    const changes: SubscriptionChanges = { ...this.recovered(), ...(restores ? { status: 'active' as const, tier: 'pro' as const } : {}) };
    this.announce(out, await new SubscriptionRepository(tx).update(row.userId, changes, at), at);
  }

  /** A due row of the scheduler: expire it when the grace is over, else send the day's reminder. */
  async advanceGrace(tx: Db, out: OutboxWriter, row: SubscriptionRow, now: Date): Promise<'expired' | 'reminded'> {
    const repo = new SubscriptionRepository(tx);
    if (row.graceEndsAt && row.graceEndsAt <= now) {
      const expired = await repo.update(row.userId, { status: 'expired', tier: 'free', nextReminderAt: null }, now);
      if (row.email) out.publish('email.requested', subscriptionEmails.expired(row.email, row.userId));
      this.announce(out, expired, now);
      this.record(out, 'subscription.expired', `${row.userId}:${row.graceEndsAt.toISOString()}`, row.userId, null, now);
      return 'expired';
    }
    // One reminder a day, also after the service was away for days: the next is the first day-mark ahead.
    let next = row.nextReminderAt!.getTime() + DAY_MS;
    while (next <= now.getTime()) next += DAY_MS;
    await repo.update(row.userId, { nextReminderAt: next < row.graceEndsAt!.getTime() ? new Date(next) : row.graceEndsAt }, now);
    if (row.email) out.publish('email.requested', subscriptionEmails.graceReminder(row.email, row.userId, row.graceEndsAt!));
    return 'reminded';
  }

  /**
   * Enters past_due with a grace period, once: a second failure (the processor retries the
   * charge) while in grace or after it changes nothing, so the grace is not extended.
   */
  private async startGrace(tx: Db, out: OutboxWriter, row: SubscriptionRow, now: Date, extra: SubscriptionChanges): Promise<void> {
    const repo = new SubscriptionRepository(tx);
    if (row.status === 'past_due' || row.status === 'expired' || row.status === null) {
      await repo.update(row.userId, { ...extra, paymentIssue: row.status !== null || row.paymentIssue }, now);
      return;
    }
    const graceEndsAt = new Date(now.getTime() + GRACE_DAYS * DAY_MS);
    const changes: SubscriptionChanges = { ...extra, status: 'past_due', tier: 'pro', paymentIssue: true, graceEndsAt, nextReminderAt: new Date(now.getTime() + DAY_MS) };
    const updated = await repo.update(row.userId, changes, now);
    if (row.email) out.publish('email.requested', subscriptionEmails.paymentFailed(row.email, row.userId, graceEndsAt));
    this.announce(out, updated, now);
  }

  private recovered(): SubscriptionChanges {
    return { paymentIssue: false, graceEndsAt: null, nextReminderAt: null };
  }

  /** The row of a processor customer (or, before the customer is known, of the user the subscription's metadata names), locked. */
  private async lockOwner(tx: Db, customer: string | { id: string } | null, metadataUser: string | undefined, at: Date): Promise<SubscriptionRow | undefined> {
    const repo = new SubscriptionRepository(tx);
    const customerId = idOf(customer);
    const row = customerId ? await repo.lockByCustomer(customerId) : undefined;
    if (row) return row;
    if (metadataUser && UUID.test(metadataUser)) {
      await repo.lock(metadataUser);
      return repo.update(metadataUser, { customerId }, at);
    }
    this.log.warn('processor event for an unknown customer; ignored', { customer_id: customerId });
    return undefined;
  }

  private announce(out: OutboxWriter, row: SubscriptionRow, at: Date): void {
    out.publish('subscription.changed', { user_id: row.userId, ...subscriptionState(row), occurred_at: at.toISOString() });
  }

  private record(out: OutboxWriter, type: string, sourceId: string, userId: string | null, amount: number | null, at: Date): void {
    out.publish('billing.event.recorded', { billing_event_id: `${type}:${sourceId}`, type, user_id: userId, amount_cents: amount, occurred_at: at.toISOString() });
  }
}
