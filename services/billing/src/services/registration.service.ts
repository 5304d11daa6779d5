import type Stripe from 'stripe';
import type { Processor } from '../stripe/processor.js';
import type { Bus, OutboxWriter } from '@svc/bus';
import { DEACTIVATE_ACCESS_CODE_RPC, MINT_ACCESS_CODE_RPC, type RegistrationSession } from '@svc/contracts';
import { NotFoundError, type Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { RegistrationRepository } from '../repositories/registration.repository.js';
import { processorFailure } from './billing.service.js';
import type { Clock } from './clock.js';
import { billingNotConfigured } from './not-configured.js';
import { subscriptionEmails } from './subscription-messages.js';
import type { EventHandlers, EventPreparations } from './webhook.service.js';

/** The access code a paid registration buys: the Free tier, one use, in its own cohort. */
export const REGISTRATION_CODE = { tier: 'free', cohort: 'paid-registration', max_uses: 1, kind: 'registration' } as const;

/** How long identity may take to mint or deactivate a code before the delivery fails (the processor retries it). */
const IDENTITY_TIMEOUT_MS = 5000;

export interface RegistrationConfig {
  price: string | undefined;
  /** Where the buyer returns; `{CHECKOUT_SESSION_ID}` is filled in by the processor. */
  returnUrl: string;
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

export interface RegistrationServiceOptions {
  db: Db;
  bus: Bus;
  /** The payment processor; absent when billing is not configured. */
  processor: Processor | undefined;
  config: RegistrationConfig;
  clock: Clock;
  log: Logger;
}

/**
 * Paid registration: a checkout for an access code, polled until the registration webhook
 * reports the payment; then the code is minted by identity and e-mailed through the outbox.
 */
export class RegistrationService {
  private readonly db: Db;
  private readonly bus: Bus;
  private readonly processor: Processor | undefined;
  private readonly config: RegistrationConfig;
  private readonly clock: Clock;
  private readonly log: Logger;

  constructor(options: RegistrationServiceOptions) {
    ({ db: this.db, bus: this.bus, processor: this.processor, config: this.config, clock: this.clock, log: this.log } = options);
  }

  /** Asked of identity before the registration webhook's transaction (a code minted, a code withdrawn). */
  readonly webhookPreparations: EventPreparations = {
    'checkout.session.completed': (event) => this.reserveCode(event.data.object),
    'charge.dispute.created': (event) => this.withdrawCode(event.data.object),
  };

  /** The registration webhook's events (Part 2, Events), each handled with the object its type carries. */
  readonly webhookHandlers: EventHandlers = {
    'checkout.session.completed': (tx, out, event, at) => this.complete(tx, out, event.data.object, at),
    'checkout.session.expired': (tx, out, event, at) => this.expire(tx, out, event.data.object, at),
    'charge.dispute.created': (tx, out, event, at) => this.dispute(tx, out, event.data.object, at),
  };

  async checkout(ref: string) {
    if (!this.processor) throw billingNotConfigured('STRIPE_SECRET_KEY');
    if (!this.config.price) throw billingNotConfigured('STRIPE_PRICE_REGISTRATION');
    const processor = await this.processor();
    let session: Stripe.Checkout.Session;
    try {
      session = await processor.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ price: this.config.price, quantity: 1 }],
        success_url: this.config.returnUrl,
        cancel_url: this.config.returnUrl,
        metadata: { ref, purpose: 'registration' },
      });
    } catch (err) {
      throw processorFailure('start a registration checkout', err, this.log);
    }
    await new RegistrationRepository(this.db).create(session.id, ref, this.clock());
    return { checkout_url: session.url!, session_id: session.id };
  }

  async session(id: string): Promise<RegistrationSession> {
    const row = await new RegistrationRepository(this.db).find(id);
    if (!row) throw new NotFoundError('No registration session with this id', { session_id: id });
    if (row.status === 'ready') return { status: row.status, code: row.code!, email: row.email! };
    return { status: row.status };
  }

  /**
   * Before `checkout.session.completed` is applied: a code for the session, minted by identity
   * and kept on the session row. Copies of the event arriving together may each mint one; the
   * first kept wins and the others' codes are deactivated at once.
   */
  async reserveCode(session: Stripe.Checkout.Session): Promise<void> {
    const repo = new RegistrationRepository(this.db);
    const row = await repo.find(session.id);
    if (row?.status !== 'pending' || row.accessCodeId) return;
    // Keyed by the session: concurrent copies of the webhook are answered the one code.
    const minted = await this.bus.request(MINT_ACCESS_CODE_RPC, { ...REGISTRATION_CODE, idempotency_key: session.id }, { timeoutMs: IDENTITY_TIMEOUT_MS });
    if (await repo.keepCode(session.id, minted.id, minted.code, this.clock())) return;
    // Not kept: another copy kept it (the same code), or the session ended meanwhile and the code goes.
    if ((await repo.find(session.id))?.accessCodeId === minted.id) return;
    await this.bus.request(DEACTIVATE_ACCESS_CODE_RPC, { id: minted.id }, { timeoutMs: IDENTITY_TIMEOUT_MS });
  }

  /** `checkout.session.completed`: the reserved code is e-mailed, and the session is ready. */
  async complete(tx: Db, out: OutboxWriter, session: Stripe.Checkout.Session, at: Date): Promise<void> {
    const repo = new RegistrationRepository(tx);
    const row = await repo.lock(session.id);
    if (!row) return void this.log.warn('registration webhook for an unknown checkout session; ignored', { session_id: session.id });
    if (row.status !== 'pending' || !row.code) return;
    const email = session.customer_details?.email ?? session.customer_email;
    if (!email) return void this.log.warn('completed registration checkout carries no e-mail; left pending', { session_id: session.id });
    await repo.update(row.id, { status: 'ready', email, paymentIntent: idOf(session.payment_intent) }, at);
    out.publish('email.requested', subscriptionEmails.registrationCode(email, row.code));
    out.publish('billing.event.recorded', { billing_event_id: `registration.completed:${session.id}`, type: 'registration.completed', user_id: null, amount_cents: session.amount_total ?? null, occurred_at: at.toISOString() });
  }

  /** `checkout.session.expired`: the buyer never paid; polling says `expired`. */
  async expire(tx: Db, _out: OutboxWriter, session: Stripe.Checkout.Session, at: Date): Promise<void> {
    const repo = new RegistrationRepository(tx);
    const row = await repo.lock(session.id);
    if (row?.status === 'pending') await repo.update(row.id, { status: 'expired' }, at);
  }

  /** Before `charge.dispute.created` is applied: the code bought with the disputed payment stops working (repeating it is harmless). */
  async withdrawCode(dispute: Stripe.Dispute): Promise<void> {
    const paymentIntent = idOf(dispute.payment_intent);
    const row = paymentIntent ? await new RegistrationRepository(this.db).findByPaymentIntent(paymentIntent) : undefined;
    if (row?.accessCodeId) await this.bus.request(DEACTIVATE_ACCESS_CODE_RPC, { id: row.accessCodeId }, { timeoutMs: IDENTITY_TIMEOUT_MS });
  }

  /** `charge.dispute.created`: the session says `disputed`; the event stays recorded for operators. */
  async dispute(tx: Db, out: OutboxWriter, dispute: Stripe.Dispute, at: Date): Promise<void> {
    const paymentIntent = idOf(dispute.payment_intent);
    const repo = new RegistrationRepository(tx);
    const row = paymentIntent ? await repo.lockByPaymentIntent(paymentIntent) : undefined;
    if (!row) return void this.log.warn('dispute for a payment of no registration; recorded only', { dispute_id: dispute.id });
    await repo.update(row.id, { status: 'disputed' }, at);
    out.publish('billing.event.recorded', { billing_event_id: `charge.dispute.created:${dispute.id}`, type: 'charge.dispute.created', user_id: null, amount_cents: dispute.amount ?? null, occurred_at: at.toISOString() });
    this.log.warn('registration payment disputed; its access code is deactivated', { dispute_id: dispute.id, session_id: row.id });
  }
}
