import { z } from 'zod';
import { TIER_VALUES } from './identity.js';
import { Timestamp } from './responses.js';

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'expired'] as const;

/**
 * Billing's view of one user's subscription after any change (checkout, a processor event, the
 * end of a grace period). `tier` is the tier whose limits apply now; identity sets the user's
 * tier from it. Carries the whole state, so a consumer that sees it twice or out of order (keep
 * the latest `occurred_at`) still ends up right.
 */
export const SubscriptionChanged = z.object({
  user_id: z.string(),
  tier: z.enum(TIER_VALUES),
  /** Null when the user has never subscribed. */
  status: z.enum(SUBSCRIPTION_STATUSES).nullable(),
  payment_issue: z.boolean(),
  current_period_end: z.string().nullable(),
  /** What the subscription brings in a month, in minor currency units (0 when none): revenue read models sum it. */
  monthly_price_cents: z.number().int().min(0),
  occurred_at: z.string(),
});

/**
 * A user's subscription as billing holds it now, for the admin area's user detail (which caches
 * it 60 s and falls back to its read model when billing does not answer). Null: never subscribed.
 */
export const SUBSCRIPTION_STATUS_RPC = 'billing.subscription.status';
export const SubscriptionStatusRequest = z.strictObject({ user_id: z.string() });
export const SubscriptionStatusReply = z.object({ subscription: SubscriptionChanged.omit({ user_id: true, occurred_at: true }).nullable() });

/**
 * A billing fact for operators' read models (revenue, funnel): `checkout.started`,
 * `checkout.completed`, `invoice.paid`, `invoice.payment_failed`, `charge.dispute.created`, …
 */
export const BillingEventRecorded = z.object({
  billing_event_id: z.string(),
  type: z.string(),
  user_id: z.string().nullable(),
  amount_cents: z.number().int().nullable(),
  occurred_at: z.string(),
});

/** A URL the payment processor sends the buyer back to: http(s) only, of a sane length. */
const returnUrl = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL');

/** `POST /billing/checkout`. */
export const CheckoutBody = z.strictObject({ success_url: returnUrl, cancel_url: returnUrl });

/** `POST /billing/portal`. */
export const PortalBody = z.strictObject({ return_url: returnUrl });

/** Part 2: `ref` keeps alphanumerics and dashes only, at most 64 of them; empty or null is allowed. */
export const REGISTRATION_REF_MAX = 64;

/** `POST /registration/checkout`: `ref` is sanitised, not refused. */
export const RegistrationCheckoutBody = z.strictObject({
  ref: z
    .string()
    .max(10_000)
    .nullish()
    .transform((ref) => (ref ?? '').replace(/[^A-Za-z0-9-]/g, '').slice(0, REGISTRATION_REF_MAX)),
});

/** A processor checkout session id (`cs_…`). */
export const CheckoutSessionId = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, 'must be a checkout session id (cs_…)');

/** `GET /api/v1/billing/plans`: a plan on sale, with the limits the platform enforces. */
export const Plan = z
  .object({
    id: z.enum(['free', 'developer_preview', 'pro']),
    name: z.string(),
    price: z.number().int().min(0).meta({ description: 'Minor currency units a period.' }),
    interval: z.string().nullable().meta({ description: '`month`, or null for a plan without payments.' }),
    limits: z.object({
      requests_per_minute: z.number().int().meta({ description: '-1: unlimited.' }),
      commands_per_hour: z.number().int().meta({ description: '-1: unlimited.' }),
    }),
    features: z.array(z.string()),
  })
  .meta({ id: 'Plan' });
export type Plan = z.infer<typeof Plan>;

/** `GET /api/v1/billing/status`. */
export const BillingStatus = z
  .object({
    subscription_tier: z.enum(TIER_VALUES),
    payment_customer_id: z.string().nullable(),
    cohort: z.string().meta({ description: '`none` when the user did not register with a code.' }),
    status: z
      .enum(SUBSCRIPTION_STATUSES)
      .nullable()
      .meta({ description: 'The subscription\'s state (Part 2, States): `past_due` is Pro until `grace_ends_at`; `canceled` is Pro until `current_period_end`; null without a subscription.' }),
    grace_ends_at: Timestamp.nullable().meta({ description: 'While `past_due`: when access ends unless the payment is recovered.' }),
    current_period_end: Timestamp.nullable().meta({ description: 'The end of the paid period, as the processor last said.' }),
  })
  .meta({ id: 'BillingStatus' });
export type BillingStatus = z.infer<typeof BillingStatus>;

/** `GET /api/v1/billing/registration/{session_id}`: `code` and `email` once it is ready. */
export const RegistrationSession = z
  .object({
    status: z.enum(['pending', 'ready', 'expired', 'disputed']),
    code: z.string().meta({ description: 'When ready.' }).optional(),
    email: z.string().meta({ description: 'When ready.' }).optional(),
  })
  .meta({ id: 'RegistrationSession' });
export type RegistrationSession = z.infer<typeof RegistrationSession>;

/** `POST /api/v1/billing/checkout`: where to send the user. */
export const CheckoutStarted = z.object({ checkout_url: z.string() });
/** `POST /api/v1/billing/portal`: where to send the user. */
export const PortalOpened = z.object({ portal_url: z.string() });
/** `POST /api/v1/billing/registration/checkout`: where to send the buyer, and the session to poll. */
export const RegistrationCheckoutStarted = z.object({ checkout_url: z.string(), session_id: z.string() });
export type RegistrationCheckoutStarted = z.infer<typeof RegistrationCheckoutStarted>;
/** The payment processor's webhooks: received (also a duplicate). */
export const ProcessorEventReceived = z.object({ received: z.literal(true) });
