import type Stripe from 'stripe';
import type { EventOutbox, OutboxWriter } from '@svc/bus';
import { AuthenticationError, type Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { WebhookEventRepository, type WebhookEndpoint } from '../repositories/webhook-event.repository.js';
import { verifiedEvent } from '../stripe/processor.js';
import type { Clock } from './clock.js';
import { billingNotConfigured } from './not-configured.js';

/**
 * How far (seconds) a signature's time may be from ours, either way: older, so that a captured
 * delivery cannot be replayed later; newer, so that one signed ahead of time (a clock set
 * forward, a forged timestamp under a leaked secret) cannot be kept for later either. The SDK
 * checks only the first.
 */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The `t=` of a `Payment-Signature` header (seconds), read as the SDK reads it: the last one given. */
function signedAtSeconds(header: string): number | undefined {
  let seconds: number | undefined;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') seconds = parseInt(value ?? '', 10);
  }
  return seconds;
}

/** The processor's event of type `T`, its `data.object` typed by it (a checkout session, an invoice, …). */
export type ProcessorEvent<T extends Stripe.Event.Type> = Extract<Stripe.Event, { type: T }>;

/** What one endpoint does with each event type it handles, each handler typed by the event it takes; other types are acknowledged and ignored. */
export type EventHandlers = { [T in Stripe.Event.Type]?: (tx: Db, out: OutboxWriter, event: ProcessorEvent<T>, at: Date) => Promise<void> };

/**
 * Work that asks another service over the bus, done after the signature is checked and before
 * the transaction: a transaction must not wait on another service (in the embedded fleet they
 * share one database connection). It must be safe to repeat, since a retried delivery repeats it.
 */
export type EventPreparations = { [T in Stripe.Event.Type]?: (event: ProcessorEvent<T>) => Promise<void> };

type AnyHandler = (tx: Db, out: OutboxWriter, event: Stripe.Event, at: Date) => Promise<void>;
type AnyPreparation = (event: Stripe.Event) => Promise<void>;

/**
 * The endpoint's handler and preparation of `event`'s type. Each entry of the maps takes the event
 * of its own key's type and `event.type` is that key, which TypeScript cannot follow through a
 * lookup: hence the widening here, and nowhere else.
 */
function stepsFor(config: WebhookEndpointConfig, event: Stripe.Event): { prepare?: AnyPreparation; handle?: AnyHandler } {
  return { prepare: config.prepare?.[event.type] as AnyPreparation | undefined, handle: config.handlers[event.type] as AnyHandler | undefined };
}

export interface WebhookEndpointConfig {
  endpoint: WebhookEndpoint;
  prepare?: EventPreparations;
  /** The one signing secret of this endpoint; unset, the endpoint answers 503. */
  secret: string | undefined;
  secretVariable: string;
  handlers: EventHandlers;
}

/**
 * Receives a processor event: checks `Payment-Signature` against the endpoint's own secret with
 * the SDK (`constructEvent`, on the raw body), records the event id and applies it in one
 * transaction. A second delivery of an id finds it recorded and changes nothing.
 */
export class WebhookService {
  constructor(
    private readonly events: EventOutbox,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  async receive(config: WebhookEndpointConfig, rawBody: Buffer, signature: string | undefined): Promise<void> {
    if (!config.secret) throw billingNotConfigured(config.secretVariable);
    if (!signature) throw new AuthenticationError('The Payment-Signature header is missing', { header: 'Payment-Signature' });
    const event = await this.verify(config.secret, rawBody, signature);
    const at = this.clock();
    const steps = stepsFor(config, event);
    await steps.prepare?.(event);
    await this.events.transaction(async (tx, out) => {
      if (!(await new WebhookEventRepository(tx).record(config.endpoint, event, JSON.parse(rawBody.toString('utf8'))))) {
        this.log.info('duplicate processor event ignored', { endpoint: config.endpoint, event_id: event.id, type: event.type });
        return;
      }
      if (!steps.handle) {
        this.log.info('processor event of a type not handled here; acknowledged', { endpoint: config.endpoint, event_id: event.id, type: event.type });
        return;
      }
      await steps.handle(tx, out, event, at);
    });
  }

  private async verify(secret: string, rawBody: Buffer, signature: string): Promise<Stripe.Event> {
    const now = this.clock().getTime();
    let event: Stripe.Event;
    try {
      event = await verifiedEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_SECONDS, undefined, now);
    } catch (err) {
      throw new AuthenticationError('The Payment-Signature header does not verify', { header: 'Payment-Signature', reason: (err as Error).message.split('\n')[0] });
    }
    const ahead = (signedAtSeconds(signature) ?? 0) - Math.floor(now / 1000);
    if (ahead > SIGNATURE_TOLERANCE_SECONDS) {
      throw new AuthenticationError('The Payment-Signature header does not verify', { header: 'Payment-Signature', reason: 'Timestamp is in the future, outside the tolerance zone' });
    }
    return event;
  }
}
