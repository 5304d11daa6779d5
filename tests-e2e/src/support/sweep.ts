import { startFakeStripe } from '@svc/testing';
import { startTestFleet, type Mode, type TestFleet } from './fleet.js';

/** The billing webhook's signing secret in a sweep's fleet, for a test that pays as a processor would. */
export const SWEEP_WEBHOOK_SECRET = 'whsec_sweep';

/**
 * A fleet for sweeps that send thousands of requests: rate limits off (they have suites of their
 * own), billing configured on a local Stripe so that its endpoints answer the input rather than
 * "not configured". Stopping it stops the Stripe too.
 */
export async function startSweepFleet(mode: Mode): Promise<TestFleet> {
  const stripe = await startFakeStripe();
  const billing = { stripeSecretKey: 'sk_test_sweep', stripeApiBase: stripe.url, stripePricePro: 'price_pro', stripePriceRegistration: 'price_registration', webhookSecret: SWEEP_WEBHOOK_SECRET, registrationWebhookSecret: 'whsec_sweep_registration' };
  const fleet = await startTestFleet(mode, { rateLimitEnabled: false, billing });
  return {
    ...fleet,
    async stop() {
      await fleet.stop();
      await stripe.close();
    },
  };
}
