import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '@svc/testing';
import { createProcessor } from './processor.js';

const session = (price = 'price_pro') => ({ mode: 'subscription' as const, line_items: [{ price, quantity: 1 }], success_url: 'https://svc.example/ok' });

describe('the SDK against the local Stripe', () => {
  let fake: FakeStripe;
  let processor: Stripe;

  beforeAll(async () => {
    fake = await startFakeStripe();
    processor = await createProcessor({ secretKey: 'sk_test_processor', apiBase: fake.url })!();
  });

  afterAll(() => fake?.close());

  it('is configured from STRIPE_API_BASE and sends the pinned Stripe-Version and form-encoded parameters', async () => {
    const created = await processor.checkout.sessions.create({ ...session(), metadata: { user_id: 'u1' } });
    expect(created.url).toMatch(new RegExp(`^${fake.url}/pay/`));
    expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/checkout/sessions', stripeVersion: Stripe.API_VERSION, authorization: 'Bearer sk_test_processor', params: { metadata: { user_id: 'u1' }, line_items: [{ price: 'price_pro', quantity: '1' }] } });
  });

  it('answers a replayed idempotency key with the first answer, and refuses it with other parameters', async () => {
    const first = await processor.checkout.sessions.create(session(), { idempotencyKey: 'key-1' });
    const replay = await processor.checkout.sessions.create(session(), { idempotencyKey: 'key-1' });
    expect(replay.id).toBe(first.id);
    await expect(processor.checkout.sessions.create(session('price_other'), { idempotencyKey: 'key-1' })).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('raises the SDK\'s typed errors from Stripe error objects', async () => {
    await expect(processor.checkout.sessions.create({ ...session(), success_url: '' })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'parameter_missing', param: 'success_url' });
    const badKey = await createProcessor({ secretKey: 'not-a-key', apiBase: fake.url })!();
    await expect(badKey.billingPortal.sessions.create({ customer: 'cus_1' })).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it('has no client without a secret key', () => {
    expect(createProcessor({ apiBase: fake.url })).toBeUndefined();
  });
});
