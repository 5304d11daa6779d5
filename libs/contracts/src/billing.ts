import { z } from 'zod';
import { TIER_VALUES } from './identity.js';

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
