import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeStripe, type FakeStripe } from '@svc/testing';

// Whether this file's process has loaded the Stripe SDK: billing without a key must not have.
const loaded = vi.hoisted(() => ({ stripe: false }));
vi.mock('stripe', async (original) => {
  loaded.stripe = true;
  return original();
});

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.close());

describe('the Stripe SDK', () => {
  it('is not loaded by the billing service, nor by a processor that has made no call', async () => {
    await import('../app.js');
    const { createProcessor } = await import('./processor.js');
    expect(createProcessor({ apiBase: fake.url })).toBeUndefined();
    createProcessor({ secretKey: 'sk_test_lazy', apiBase: fake.url });
    expect(loaded.stripe).toBe(false);
  });

  it('is loaded with the first call that needs it, which then reaches the processor', async () => {
    const { createProcessor } = await import('./processor.js');
    const processor = createProcessor({ secretKey: 'sk_test_lazy', apiBase: fake.url })!;
    const session = await (await processor()).checkout.sessions.create({ mode: 'payment', line_items: [{ price: 'price_x', quantity: 1 }], success_url: 'https://svc.example/ok' });
    expect(loaded.stripe).toBe(true);
    expect(session.url).toMatch(new RegExp(`^${fake.url}/pay/`));
    expect(await processor()).toBe(await processor());
  });
});
