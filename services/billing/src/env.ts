import { z } from 'zod';
import { parseEnv } from '@svc/core';
import { infrastructureEnv, secretsEnv } from '@svc/platform';

const optional = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

/** The billing service's own variables, which the standalone launcher reads too. */
export const billingEnv = {
  /** The processor's secret key; unset, the endpoints that need the processor answer 503. */
  STRIPE_SECRET_KEY: optional,
  /** Where the processor's API is (scheme, host, port): a local server in tests. */
  STRIPE_API_BASE: z.string().url().default('https://api.stripe.com'),
  /** The processor's price of the Pro plan (monthly). */
  STRIPE_PRICE_PRO: optional,
  /** The processor's price of a paid registration (one payment). */
  STRIPE_PRICE_REGISTRATION: optional,
  /** Signing secret of `POST /billing/webhook`. */
  SVC_PAYMENT_WEBHOOK_SECRET: optional,
  /** Signing secret of `POST /registration/webhook`: its own, never a fallback to the other. */
  SVC_PAYMENT_WEBHOOK_SECRET_REGISTRATION: optional,
  /** Where the processor sends a paid registration's buyer back; `{CHECKOUT_SESSION_ID}` is filled in by the processor. */
  SVC_REGISTRATION_RETURN_URL: z.string().url().default('http://localhost:8080/register?session_id={CHECKOUT_SESSION_ID}'),
  /** How often the grace scheduler looks for due reminders and expiries. */
  SVC_BILLING_SCHEDULER_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
};

export const BillingEnv = z.object({
  ...infrastructureEnv,
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: z.coerce.number().int().min(0).max(65535).default(8086),
  ...billingEnv,
});

export type BillingEnv = z.infer<typeof BillingEnv>;

export function loadBillingEnv(source: Record<string, string | undefined>): BillingEnv {
  return parseEnv(BillingEnv, source);
}
