import type Stripe from 'stripe';
import type { Processor } from '../stripe/processor.js';
import type { Identity } from '@svc/auth';
import { ConflictError, IntegrationError, type AppError, type Logger } from '@svc/core';
import { eventIdFor, outboxEvent, type EventOutbox } from '@svc/bus';
import { NO_COHORT, type BillingStatus } from '@svc/contracts';
import type { Db } from '@svc/db';
import { SubscriptionRepository } from '../repositories/subscription.repository.js';
import type { Clock } from './clock.js';
import { billingNotConfigured } from './not-configured.js';


/** A call to the processor that failed: a 502 naming what was attempted, never the processor's raw answer to the client. */
export function processorFailure(action: string, err: unknown, log: Logger): AppError {
  const stripeError = err as { type?: string; code?: string; message?: string; statusCode?: number };
  log.warn('payment processor call failed', { action, type: stripeError.type, code: stripeError.code, status: stripeError.statusCode, error: stripeError.message });
  return new IntegrationError(`The payment processor refused to ${action}; try again later`, { processor_error: stripeError.type ?? 'unknown' });
}

export interface BillingServiceOptions {
  db: Db;
  /** The payment processor; absent when billing is not configured (checkout and portal answer 503). */
  processor: Processor | undefined;
  /** The processor's price of the Pro plan. */
  pricePro: string | undefined;
  log: Logger;
  events: EventOutbox;
  clock: Clock;
}

/** `GET /billing/status`, `POST /billing/checkout`, `POST /billing/portal`. */
export class BillingService {
  private readonly db: Db;
  private readonly processor: Processor | undefined;
  private readonly pricePro: string | undefined;
  private readonly log: Logger;
  private readonly events: EventOutbox;
  private readonly clock: Clock;

  constructor(options: BillingServiceOptions) {
    ({ db: this.db, processor: this.processor, pricePro: this.pricePro, log: this.log, events: this.events, clock: this.clock } = options);
  }

  /**
   * Billing's own record: the stored subscription's tier while it gives access (active, past_due
   * in its grace, canceled until its period ends); without one, the tier the caller holds (Free,
   * an access code's, an operator's change), which is what the gateway applies.
   */
  async status(caller: Identity): Promise<BillingStatus> {
    const row = await new SubscriptionRepository(this.db).find(caller.userId);
    const subscribed = row?.status === 'active' || row?.status === 'past_due' || row?.status === 'canceled';
    return {
      subscription_tier: subscribed ? row.tier : caller.tier,
      payment_customer_id: row?.customerId ?? null,
      cohort: row?.cohort ?? NO_COHORT,
      status: row?.status ?? null,
      grace_ends_at: row?.status === 'past_due' ? (row.graceEndsAt?.toISOString() ?? null) : null,
      current_period_end: row?.currentPeriodEnd?.toISOString() ?? null,
    };
  }

  async checkout(caller: Identity, urls: { success_url: string; cancel_url: string }, idempotencyKey: string) {
    const processor = await this.requireProcessor();
    if (!this.pricePro) throw billingNotConfigured('STRIPE_PRICE_PRO');
    const row = await new SubscriptionRepository(this.db).find(caller.userId);
    if (row?.status === 'active' || row?.status === 'past_due') throw new ConflictError('You already have an active Pro subscription; manage it in the billing portal', { status: row.status });
    const metadata = { user_id: caller.userId };
    let session: Stripe.Checkout.Session;
    try {
      session = await processor.checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: [{ price: this.pricePro, quantity: 1 }],
          success_url: urls.success_url,
          cancel_url: urls.cancel_url,
          client_reference_id: caller.userId,
          metadata,
          subscription_data: { metadata },
          ...(row?.customerId ? { customer: row.customerId } : { customer_email: caller.email }),
        },
        { idempotencyKey },
      );
    } catch (err) {
      throw processorFailure('start a checkout', err, this.log);
    }
    await this.recordStarted(caller.userId, session.id);
    return { checkout_url: session.url! };
  }

  /**
   * The funnel's `checkout_started`: one event per processor session. A retried request with the
   * same idempotency key gets the same session back, and its event id repeats, so it counts once.
   */
  private async recordStarted(userId: string, sessionId: string): Promise<void> {
    const at = this.clock().toISOString();
    await this.events.publish([
      outboxEvent('billing.event.recorded', { billing_event_id: `checkout.started:${sessionId}`, type: 'checkout.started', user_id: userId, amount_cents: null, occurred_at: at }, { eventId: eventIdFor('billing.event.recorded', 'checkout.started', sessionId) }),
    ]);
  }

  async portal(caller: Identity, returnUrl: string) {
    const processor = await this.requireProcessor();
    const row = await new SubscriptionRepository(this.db).find(caller.userId);
    if (!row?.customerId) throw new ConflictError('You have no billing account yet; subscribe through checkout first', { reason: 'no_customer' });
    try {
      const session = await processor.billingPortal.sessions.create({ customer: row.customerId, return_url: returnUrl });
      return { portal_url: session.url };
    } catch (err) {
      throw processorFailure('open the billing portal', err, this.log);
    }
  }

  private requireProcessor(): Promise<Stripe> {
    if (!this.processor) throw billingNotConfigured('STRIPE_SECRET_KEY');
    return this.processor();
  }
}
